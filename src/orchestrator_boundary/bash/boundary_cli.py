"""This product's own command line: which uses change the boundary itself (ADR 0021).

`orchestrator-boundary phase off`, `install` and `uninstall` change the phase or the hooks; run
by an agent, that is tampering with the boundary, whatever the path or wrapper it comes
through (a full path, `python -m orchestrator_boundary`, `uv run`, `uvx`, `pipx run`). They are
reported as a ``CONTROL`` effect, which the policy treats as TAMPER. The uses that only read
(`phase` without a value, `report`, `doctor`, `check`, `replay`, `demo`, `--dry-run`) stay
read_only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, read_only, writes
from orchestrator_boundary.bash.words import Word

PROGRAM = "orchestrator-boundary"
MODULE = "orchestrator_boundary"
_READS = frozenset({"report", "doctor", "check", "replay", "demo"})
_VALUED = frozenset({"--project", "--settings", "--scope", "--config", "--phase", "--since"})


def control(text: str) -> Fx:
    return Fx(EffectKind.CONTROL, text, None, "changes the boundary itself (phase, hooks)")


def boundary(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if any(v is None for v in values):
        return writes(PROGRAM, [control(f"{PROGRAM} (arguments that are not literal)")])
    words = [v or "" for v in values]
    if not words or any(w in ("-h", "--help", "--version") for w in words):
        return read_only(PROGRAM, "help or version")
    positional: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in _VALUED
        else:
            positional.append(word)
    sub = positional[0] if positional else ""
    if sub in _READS:
        html = [args[i + 1] for i, w in enumerate(words[:-1]) if w == "--html"]
        html += [Word(w, w.partition("=")[2]) for w in words if w.startswith("--html=")]
        return writes(PROGRAM, env.fx_many(EffectKind.WRITE, html, "report --html"), sub)
    if sub == "phase" and len(positional) == 1:
        return read_only(PROGRAM, "shows the phase")
    if sub in ("install", "uninstall") and any(
        "--dry-run".startswith(w) and len(w) > 4 for w in words
    ):
        return read_only(PROGRAM, f"{sub} --dry-run")
    return writes(PROGRAM, [control(" ".join([PROGRAM, *words]))])


def script_is_cli(path: str, resolved: str, env: Env) -> bool:
    """A script run by ``path`` (``resolved``) is this CLI: a file of the package
    (``package_script``), or one whose text, read by the policy (ADR 0040), names the CLI or
    its module: a copy of, or a link to, the console script (``cp .venv/bin/orchestrator-boundary
    ob``), or a wrapper that calls it. Its arguments are then taken as the CLI's (safe side)."""
    if package_script(path):
        return True
    text = dict(env.scripts).get(resolved)
    return text is not None and (MODULE in text.lower() or PROGRAM in text.lower())


def package_script(path: str) -> bool:
    """``path`` is a file (or the folder) of this package, run as a script: ``python
    .../orchestrator_boundary/cli.py phase off`` is the CLI by another route. Any ``.py`` in
    the package's folder counts (safe side); the name of the folder is what is matched, so a
    copy elsewhere counts too."""
    parts = [p for p in path.replace("\\", "/").lower().split("/") if p and p != "."]
    if MODULE not in parts:
        return False
    last = parts[-1]
    return last == MODULE or last.endswith((".py", ".pyc", ".pyz"))


# a program name computed from expansions (`${o}-boundary`, `$VENV/bin/orchestrator-boundary`)
# could spell the CLI when its literal text fits one of these; an expansion stands for any text
_SPELLINGS = (
    PROGRAM,
    PROGRAM + ".exe",
    "/venv/bin/" + PROGRAM,
    "C:\\venv\\Scripts\\" + PROGRAM + ".exe",
)
EXPANSION = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)|`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]")
_MIN_LITERAL = 3  # `$X` alone (an $EDITOR) could spell anything: it stays opaque


# `${CLI:-orchestrator-boundary}`: the default is one value the expansion may have
_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^}$`]*)\}")


def could_spell(text: str) -> bool:
    """The program word ``text`` (as written, with expansions) could expand to this CLI's name:
    its literal parts fit the name in order, and there are at least a few of them; or, with
    the defaults of its expansions (``${X:-...}``) in their place, it does."""
    if "$" not in text and "`" not in text:
        return False
    bare = text.replace('"', "").replace("'", "")
    return any(_fits(v) for v in dict.fromkeys((bare, _DEFAULT.sub(lambda m: m[1], bare))))


# what a pattern in a program word matches: `*`, `?`, a bracket class, a brace list
_WILD = re.compile(r"\*|\?|\[[^]]*\]|\{[^}]*\}")


def could_match(pattern: str) -> bool:
    """The program word ``pattern`` (a glob or brace pattern: `.venv/bin/orchestrator-bound*`)
    could expand to this CLI: the last part of the path, its wildcards standing for any text,
    fits the CLI's file name. Unlike an expansion, a pattern names files that exist, and the
    caller asks only when the arguments would change the boundary: `*y phase off` counts."""
    pieces = _WILD.split(re.split(r"[/\\]", pattern)[-1])
    rx = re.compile(".*".join(re.escape(p) for p in pieces), re.IGNORECASE | re.DOTALL)
    return any(rx.fullmatch(name) for name in (PROGRAM, PROGRAM + ".exe"))


def _fits(text: str) -> bool:
    pieces = EXPANSION.split(text)
    if len("".join(pieces)) < _MIN_LITERAL:
        return False
    pattern = re.compile(".*".join(re.escape(p) for p in pieces), re.IGNORECASE | re.DOTALL)
    return any(pattern.fullmatch(s) for s in _SPELLINGS)


# An opaque command whose text names this CLI (or its module) and then words that change the
# boundary: `su -c "orchestrator-boundary phase off"`, `tmux new '...'`, `setsid ...`,
# `python3 -Im orchestrator_boundary phase off`, `runpy.run_module('orchestrator_boundary')`
# with `phase off` after it. The program that runs it is not known; the words are (safe side).
_NAMED = re.compile(r"orchestrator[-_]boundary", re.IGNORECASE)
_CHANGE = re.compile(
    r"(?<![\w-])(?:cmd_)?phase(?:\.py)?(?![\w-])[\s'\"\[\](),=]*(?!-)\w"
    r"|(?<![\w-])(?:un)?install(?![\w-])",
    re.IGNORECASE,
)
_NEAR = 400  # characters after the name that are looked at


def named_change(text: str) -> str | None:
    """The part of ``text`` from this CLI's name to the words that would change the boundary,
    or None. For commands the analysis cannot follow; ``--dry-run`` after it reads only."""
    for name in _NAMED.finditer(text):
        rest = text[name.end() : name.end() + _NEAR]
        change = _CHANGE.search(rest)
        if change is not None and "--dry" not in rest:
            return text[name.start() : name.end() + change.end()]
    return None


def spelled(fx: list[Fx], text: str, stdin: str | None) -> list[Fx]:
    """The ``CONTROL`` effect an opaque command's text (or the literal text piped into it:
    that line into `crontab -`) spells, unless its effects ``fx`` already hold one."""
    if _controls(fx):
        return []
    named = named_change(text) or named_change(stdin or "")
    return [control(named)] if named else []


def _controls(fx: Sequence[Fx]) -> bool:
    return any(f.kind is EffectKind.CONTROL for f in fx)


def changes(outcome: Outcome) -> bool:
    """``outcome`` changes the boundary (or what answers before it): it has a CONTROL effect."""
    return _controls(outcome.fx)
