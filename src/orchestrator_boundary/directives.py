"""The directive lines of an Agent call's prompt (ADR 0027, look-alikes: ADR 0050). Pure.

    Intent: login-fix
    Scope: src/auth/**, tests/auth/test_login.py

The grammar, strictly:
- A directive is a whole line that starts, at its first character, with ``Intent:`` or
  ``Scope:`` (exactly that case). Spaces and tabs around the value are ignored.
- ``Intent:`` holds one intent id (``[A-Za-z0-9][A-Za-z0-9._-]{0,63}``, compared exactly with
  the keys of ``[intents]``) and nothing else.
- ``Scope:`` holds patterns separated by commas, in ``write_scope``'s syntax (``scope``); at
  least one is not an exclusion; none is empty, quoted, back-ticked or holds a space (a prose
  "Scope: the login flow" is an error, not a pattern that matches nothing); at most 32.
- Each key appears at most once. A line that starts with a key in another case (``intent:``,
  ``SCOPE :``) is an error, not prose: a contract that silently did not apply would be wider
  than its author meant. So is a line that reads as a key once look-alikes are undone
  (NFKC, format characters such as zero-width spaces dropped, Greek and Cyrillic letters
  that look Latin, other colons) or once indentation and Markdown around it are taken away
  (``  Intent:``, ``- Scope:``, ``**Intent:**``, ``> Scope:``, ``## Scope:``) when what
  follows would be a valid value (one intent id, patterns): ADR 0050. After such a key,
  prose (``**Scope:** only the auth module``) stays prose.
- Lines are split at ``\n`` only (``\r\n`` too): a line separator Claude Code does not show as
  one (U+2028, U+0085, a form feed) stays inside its line; a key after one, in a line that is
  otherwise prose, is refused, since a terminal may show it on its own line (ADR 0085).
Anything else in the prompt is free text.
"""

from __future__ import annotations

import re
import unicodedata

from orchestrator_boundary import scope
from orchestrator_boundary.contracts_config import INTENT_ID
from orchestrator_boundary.values import transient
from orchestrator_boundary.violation import Code, Violation

INTENT_KEY, SCOPE_KEY, RUN_KEY = "Intent", "Scope", "Run"
MAX_SCOPE_PATTERNS = 32
MAX_PATTERN_CHARS = 512
_KEY_LINE = re.compile(r"(?i)(intent|scope)[ \t]*:")
# A line that reads as a key to a person: after ``_bare``, the key in any case, maybe inside
# emphasis or code marks, then a colon.
_LOOKS_LIKE_KEY = re.compile(r"(?i)(intent|scope)[ \t*_`]*:")
_LOOKS_LIKE_RUN = re.compile(r"(?i)run[ \t*_`]*:[ \t]*\S")  # after a hidden break only
# What a line may start with before a key that a person still reads as the key: indentation,
# Markdown list, quote, heading, emphasis and code marks, a list number.
_DECORATION = re.compile(r"(?:[\s>#*+_`~|-]|\d{1,3}[.)])*")
# Letters and colons that look like those of the keys (the key check only: NFKC maps
# full-width and mathematical forms already).
_LOOK_ALIKES = str.maketrans(
    {
        **dict.fromkeys("\u0399\u0406\u04c0\u0131\u0456\u0269", "i"),
        **dict.fromkeys("\u039d\u043f", "n"),
        **dict.fromkeys("\u03a4\u0422\u03c4\u0442", "t"),
        **dict.fromkeys("\u0395\u0415\u0435\u03b5", "e"),
        **dict.fromkeys("\u0405\u0455", "s"),
        **dict.fromkeys("\u0421\u0441\u03f2\u03f9", "c"),
        **dict.fromkeys("\u039f\u041e\u03bf\u043e\u0585", "o"),
        **dict.fromkeys("\u03a1\u0420\u03c1\u0440", "p"),
        **dict.fromkeys("\u2236\ua789\u02f8\u0589\u05c3\u1361", ":"),
    }
)


# Every character that is a colon once NFKC is applied or look-alikes are made Latin.
_COLONS = frozenset(":\u2a74\ufe13\ufe55\uff1a\u2236\ua789\u02f8\u0589\u05c3\u1361")


def _bare(line: str) -> str:
    """``line`` as a person reads its start: NFKC, without format characters (zero-width
    spaces, direction marks), look-alike letters made Latin, decoration taken away."""
    text = line[:200]
    if not text.isascii():  # ASCII is its own NFKC, with no format characters or look-alikes
        text = unicodedata.normalize("NFKC", text)
        text = "".join(c for c in text if unicodedata.category(c) != "Cf").translate(_LOOK_ALIKES)
    return text[_DECORATION.match(text).end() :]  # type: ignore[union-attr]


_QUOTES = frozenset("`\"'")
_LIST_SEPARATORS = re.compile("[,;\uff0c\u3001\uff1b\u060c\uff64]")
# a `.` folder or an empty one (past a leading `/`): patterns compare resolved paths (ADR 0073)
_NO_NAME = re.compile(r"(?:^|/)\.(?:/|$)|(?<=.)//")
# braces and what other languages separate a list with: a pattern holding one names nothing
_NOT_A_LIST = frozenset("{};\uff0c\u3001\uff1b\u060c\uff64")


@transient
class DirectiveError:
    line: int  # 1-based line of the prompt
    key: str  # "Intent" or "Scope"
    problem: str

    def __str__(self) -> str:
        return f"prompt line {self.line} ({self.key}:): {self.problem}"


@transient
class Directives:
    intent: str | None = None
    scope: tuple[str, ...] | None = None  # the Scope: line's patterns
    error: DirectiveError | None = None
    run: tuple[str, ...] | None = None  # the Run: line's commands (ADR 0080)


NO_DIRECTIVES = Directives()


def _scope_patterns(text: str, line: int) -> tuple[str, ...] | DirectiveError:
    items = [item.strip() for item in text.split(",")]
    if not text or any(not item for item in items):
        return DirectiveError(line, SCOPE_KEY, "an empty pattern (write `Scope: a/**, b.py`)")
    if len(items) > MAX_SCOPE_PATTERNS:
        return DirectiveError(line, SCOPE_KEY, f"more than {MAX_SCOPE_PATTERNS} patterns")
    for item in items:
        if _QUOTES.intersection(item):
            return DirectiveError(line, SCOPE_KEY, f"{item!r}: write patterns bare, unquoted")
        hidden = next(
            (c for c in item if unicodedata.category(c) in ("Cf", "Cc", "Co") and not c.isspace()),
            "",
        )
        if hidden:  # a zero-width space, a direction mark: the pattern is not what it shows
            problem = f"{item[:60]!r} holds an invisible character (U+{ord(hidden):04X})"
            return DirectiveError(line, SCOPE_KEY, problem)
        if any(c.isspace() for c in item):
            return DirectiveError(
                line,
                SCOPE_KEY,
                f"{item[:60]!r} holds a space: list patterns, not prose ('?' "
                "matches a space in a file name)",
            )
        if "\\" in item or re.match(r"!?[A-Za-z]:", item):  # ADR 0059
            return DirectiveError(
                line,
                SCOPE_KEY,
                f"{item[:60]!r}: write folders with '/', relative to the project root "
                "(`src/auth/**`), on every system",
            )
        if _NOT_A_LIST.intersection(item):  # `{a,b}` split at its comma; `a、b`, `a;b`
            return DirectiveError(
                line,
                SCOPE_KEY,
                f"{item[:60]!r}: list each pattern, separated by ',' (`src/a/**, docs/a/**`); "
                "braces are not pattern syntax",
            )
        if _NO_NAME.search(item.lstrip("!")):  # `./src/**`, `.`, `src//a`: match no file
            return DirectiveError(
                line,
                SCOPE_KEY,
                f"{item[:60]!r}: a '.' or empty folder names no project file; write "
                "`src/auth/**`, relative to the project root, without './'",
            )
        if item.lstrip("!").startswith("~"):  # never expanded here: a folder named "~"
            return DirectiveError(
                line, SCOPE_KEY, f"{item[:60]!r}: write patterns relative to the project root"
            )
        if len(item) > MAX_PATTERN_CHARS:
            return DirectiveError(line, SCOPE_KEY, f"a pattern longer than {MAX_PATTERN_CHARS}")
        try:
            scope.validate([item])
        except scope.PatternError as exc:
            return DirectiveError(line, SCOPE_KEY, str(exc))
    if all(item.startswith("!") for item in items):
        return DirectiveError(line, SCOPE_KEY, "only exclusions: name what the agent may change")
    return tuple(items)


def _reads_as_value(key: str, rest: str, line: int) -> bool:
    """What follows a decorated or look-alike key would be a valid value of that key: one
    intent id, or a list of patterns. Only then was a contract meant (ADR 0050); prose after
    a key in a Markdown list or in bold is a prompt's prose."""
    text = rest.strip(" \t*_`'\"")
    if key == INTENT_KEY:
        return INTENT_ID.fullmatch(text) is not None
    # words without a space between commas: patterns, in a spelling a plain line refuses
    # too (back-ticked or quoted each, `src\\auth`, `./src`, `~`, braces) still meant a
    # contract, which was ignored (ADR 0073); prose has words apart
    items = [item.strip(" \t*_`'\"") for item in _LIST_SEPARATORS.split(text)]
    return all(item and not any(c.isspace() for c in item) for item in items)


# Line breaks that stay inside a line here (a lone CR, VT, FF, NEL, U+2028/9...), but that a
# terminal or a renderer may show as one: after one, a key is hidden from this parser.
_HIDDEN_BREAK = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _hidden_key(line: str, n: int) -> DirectiveError | None:
    """A key with a valid value after a hidden line break (``Fix it.\rIntent: auth``: a
    terminal shows `Intent: auth` alone on its line): it would be ignored, so the contract
    would be wider than it shows; refused as a look-alike is (ADR 0050, 0085)."""
    for part in _HIDDEN_BREAK.split(line)[1:]:
        looks = _LOOKS_LIKE_KEY.match(bare := _bare(part))
        key = INTENT_KEY if looks and looks.group(1).lower() == "intent" else SCOPE_KEY
        if (looks and _reads_as_value(key, bare[looks.end() :], n)) or (
            _LOOKS_LIKE_RUN.match(bare) and (key := RUN_KEY)
        ):
            code = f"U+{ord(_HIDDEN_BREAK.findall(line)[0]):04X}"
            problem = f"a line break that is not a newline ({code}) before {key + ':'!r}"
            return DirectiveError(n, key, problem + "; put each directive on a line of its own")
    return None


def parse_directives(prompt: str) -> Directives:
    """The prompt's ``Intent:`` and ``Scope:`` lines, or the first error in them."""
    intent: str | None = None
    patterns: tuple[str, ...] | None = None
    run: tuple[str, ...] | None = None
    for n, line in enumerate(prompt.split("\n"), 1):
        line = line.removesuffix("\r")
        if line.startswith(RUN_KEY + ":"):
            if _HIDDEN_BREAK.search(line) and (hidden := _hidden_key(line, n)):
                return Directives(error=hidden)  # `Run: make\rScope: ...` hid the Scope:
            if run is not None:
                return Directives(error=DirectiveError(n, RUN_KEY, "a second Run: line"))
            got = _run_commands(line[len(RUN_KEY) + 1 :], n)
            if isinstance(got, DirectiveError):
                return Directives(error=got)
            run = got
            continue
        m = _KEY_LINE.match(line)
        if m is None or not line.startswith((INTENT_KEY + ":", SCOPE_KEY + ":")):
            if _HIDDEN_BREAK.search(line) and (hidden := _hidden_key(line, n)):
                return Directives(error=hidden)  # before the shortcut: a break hides a key
            if _COLONS.isdisjoint(line[:200]):
                continue  # prose: a key needs its colon (a long prompt's lines, ADR 0059)
            bare = _bare(line)
            looks = _LOOKS_LIKE_KEY.match(bare)
            if looks is None:
                continue  # prose
            key = INTENT_KEY if looks.group(1).lower() == "intent" else SCOPE_KEY
            if not _reads_as_value(key, bare[looks.end() :], n):
                continue  # "**Scope:** only the auth module": prose, not a contract
            found = line.strip()[:40]
            problem = (
                f"write {key + ':'!r} plainly at the start of a line of its own, not {found!r}"
            )
            return Directives(error=DirectiveError(n, key, problem))
        key = INTENT_KEY if m.group(1) == "Intent" else SCOPE_KEY
        text = line[m.end() :].strip(" \t")
        if key == INTENT_KEY:
            if intent is not None:
                return Directives(error=DirectiveError(n, key, "a second Intent: line"))
            if not INTENT_ID.fullmatch(text):
                problem = f"{text[:80]!r} is not one intent id"
                return Directives(error=DirectiveError(n, key, problem))
            intent = text
        else:
            if patterns is not None:
                return Directives(error=DirectiveError(n, key, "a second Scope: line"))
            parsed = _scope_patterns(text, n)
            if isinstance(parsed, DirectiveError):
                return Directives(error=parsed)
            patterns = parsed
    if intent is None and patterns is None and run is None:
        return NO_DIRECTIVES
    return Directives(intent, patterns, run=run)


# ---- Run: the opaque commands a narrowed subagent may run (ADR 0080) ----

MAX_RUN_COMMANDS = 16


def _run_commands(text: str, line: int) -> tuple[str, ...] | DirectiveError:
    """``Run: make test, npm run build``: each command's first words, white space made one
    space; ``Run: none`` names none. Only this exact spelling is a Run: line: one that only
    looks like it is prose, which allows less, never more."""
    items = [" ".join(item.split()) for item in text.split(",")]
    if any(not item or len(item) > MAX_PATTERN_CHARS for item in items):
        return DirectiveError(line, RUN_KEY, "an empty command (write `Run: make test, npm test`)")
    if len(items) > MAX_RUN_COMMANDS:
        return DirectiveError(line, RUN_KEY, f"more than {MAX_RUN_COMMANDS} commands")
    return () if items == ["none"] else tuple(items)


def narrowed_run(
    own: tuple[str, ...] | None, parent: tuple[str, ...] | None
) -> tuple[str, ...] | None:
    """The commands a delegation may run: its own Run: line's that its parent's allows (a
    subagent hands on only what it was given); none of its own: the parent's."""
    if own is None or parent is None:
        return parent if own is None else own
    return tuple(c for c in own if runs_listed(c, parent))


def runs_listed(command: str, run: tuple[str, ...]) -> bool:
    """Does ``command`` start with the words of one of ``run``? A listed program without a
    folder (``pytest``) also names it by path (``.venv/bin/pytest``)."""
    words = command.split()
    if words:
        words[0] = words[0].rsplit("/", 1)[-1] if "/" in words[0] else words[0]
    for listed in run:
        want = listed.split(" ")
        head = words[: len(want)]
        if head == want or ("/" in want[0] and command.split()[: len(want)] == want):
            return True
    return False


def unlisted_command(
    run: tuple[str, ...] | None, scope: str, command: str, raw: str, *, opaque: bool, require: bool
) -> Violation | None:
    """A narrowed subagent's opaque command (``opaque``: ``make``, ``./build.sh``,
    ``python tools/gen.py``) or text that does not parse: it may write anywhere, so the
    scope cannot hold it. Refused unless the Agent call's ``Run:`` line names it (read from
    the program the analysis found: ``timeout 5 make`` runs ``make``; ``raw``: its words
    without that program's); without a ``Run:`` line, only under ``require`` (else
    ``bash.opaque`` judges it, as before). ADR 0080."""
    if run is None and not require:
        return None
    ran = _from_program(command, raw)
    if run and opaque and runs_listed(ran, run):
        return None
    program = " ".join(ran.split()[:3])
    listed = f"its Run: line names only {', '.join(run)}" if run else "no Run: line names it"
    return Violation(
        Code.DELEGATION_SCOPE,
        "Run: line" if run is not None else "delegation.require",
        f"`{command}` is a command whose writes the guard cannot see, and this subagent is "
        f"held to {scope}; {listed}.",
        "Change the files with Write/Edit or a command that names them, or report back so "
        f"that the main agent delegates again with a line `Run: {program}` in the prompt.",
        command=command,
    )


def unlisted_tool(
    run: tuple[str, ...] | None, scope: str, tool: str, *, require: bool
) -> Violation | None:
    """``unlisted_command`` for a tool whose writes the guard cannot see (Code Mode, an MCP
    tool that names no file): the ``Run:`` line names it by its name. ADR 0085."""
    if (run is None and not require) or (run and tool in run):
        return None
    listed = f"its Run: line names only {', '.join(run)}" if run else "no Run: line names it"
    return Violation(
        Code.DELEGATION_SCOPE,
        "Run: line" if run is not None else "delegation.require",
        f"{tool} may change files the guard cannot see, and this subagent is held to "
        f"{scope}; {listed}.",
        "Change the files with Write/Edit or a command that names them, or report back so "
        f"that the main agent delegates again with a line `Run: {tool}` in the prompt (or "
        f'if it changes no file, has it classified in .claude/boundary.toml: [tools] "{tool}" = '
        '"read" (or "network")).',
    )


def _from_program(command: str, raw: str) -> str:
    """An opaque command's text from the word naming its program: ``raw`` is its words
    without that word, so the first place the two differ is where the program stands."""
    words, rest = command.split(" "), raw.split(" ")
    at = next((i for i, (a, b) in enumerate(zip(words, rest, strict=False)) if a != b), None)
    at = len(rest) if at is None and len(words) > len(rest) else at
    return command if at is None else " ".join(words[at:])


def workflow_refusal(narrowed: bool, require: bool) -> Violation | None:
    """A Workflow call starts agents (``agent()`` in its script) whose prompts no Agent call
    carries: they run with an unknown delegation, unnarrowed unless ``require``. So a
    subagent a delegation narrows may not start one (its agents would escape its scope),
    and under ``require = true`` nobody may (their every write would be refused). ADR 0080."""
    if not narrowed and not require:
        return None
    why = "this subagent's delegation" if narrowed else "[delegation] require = true"
    return Violation(
        Code.DELEGATION_INVALID,
        "delegation.scope" if narrowed else "delegation.require",
        f"a Workflow's agents carry no Intent:/Scope: contract, and {why} needs one.",
        "Start each agent with the Agent tool, its prompt naming `Intent:` or `Scope:`"
        + ("; or report back to the main agent." if narrowed else "."),
    )
