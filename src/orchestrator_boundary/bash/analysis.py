"""The top of the analysis: size and budget guards, parsing, walking, summarizing.

It is also the one implementation of ``outcome.Nested``, the seam through which per-program
knowledge analyses code found inside a command (ADR 0022): every module of the package sits
below this one, and none imports it.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from orchestrator_boundary.bash import known_vars
from orchestrator_boundary.bash.agree import disagreement
from orchestrator_boundary.bash.boundary_cli import EXPANSION
from orchestrator_boundary.bash.budget import MAX_INPUT_BYTES, MAX_STEPS, Budget, BudgetExhausted
from orchestrator_boundary.bash.dispatch import dispatch
from orchestrator_boundary.bash.evaluated import evaluated, evaluates_values, literal_values
from orchestrator_boundary.bash.gitlinks import gitlinks
from orchestrator_boundary.bash.links import through_links
from orchestrator_boundary.bash.model import BashAnalysis, Command, Status, summarize
from orchestrator_boundary.bash.outcome import Env, Outcome, runs_code
from orchestrator_boundary.bash.parse import first_error, parse
from orchestrator_boundary.bash.paths import is_windows, normalize_cwd
from orchestrator_boundary.bash.powershell import analyze_powershell, powershell_commands
from orchestrator_boundary.bash.walk import Walker
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.bash.zsh_math import subscripted

# tree-sitter-bash 0.25's scanner corrupts memory on code points from U+20000 up (seen here:
# random text with them crashes the process within a few thousand parses), and a crashed hook
# fails open. Such text is not analysed: it is reported unparseable (ADR 0014).
_PARSER_MAX_CODE_POINT = 0x1FFFF
_ABOVE_PARSER_MAX = re.compile(f"[{chr(_PARSER_MAX_CODE_POINT + 1)}-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_POWERSHELL = frozenset({"powershell", "pwsh", "powershell.exe", "pwsh.exe"})


class _BeyondGrammar(Exception):
    """Text the Bash grammar cannot take: unparseable, not a budget run out."""


def _encode(code: str) -> bytes:
    """UTF-8 for the parser, or ``_BeyondGrammar`` for text the grammar cannot take.

    Lone surrogates (JSON allows them) become U+FFFD, as they do when Claude Code hands the text
    to a shell; the invalid UTF-8 that ``surrogatepass`` would produce is not fed to the parser.
    """
    if code.isascii():
        return code.encode("ascii")
    if _ABOVE_PARSER_MAX.search(code):
        raise _BeyondGrammar(
            "text holds characters above U+1FFFF, which the Bash grammar cannot parse safely"
        )
    try:
        return code.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", code).encode("utf-8")


class _Nested:
    """``outcome.Nested``: code inside a command is analysed by the same walk as the command."""

    def dispatch(self, argv: list[Word], env: Env) -> Outcome:
        return dispatch(argv, env)

    def shell(self, code: str, env: Env) -> list[Command]:
        source = _encode(code)
        if len(source) > MAX_INPUT_BYTES:
            raise BudgetExhausted("budget exhausted (nested code too large)")
        env.budget.spend_text(code)
        root = parse(source)
        error = first_error(root, env.budget) or disagreement(root, source, env.budget)
        if error:
            return [Command(code, "", Status.UNPARSEABLE, note=f"nested shell code: {error}")]
        out = _evaluated(root, source, env.budget)
        Walker(env, out, source, code).block(root.named_children, env.cwd, env.nesting + 1)
        out = _expand_aliases(out, env) + (subscripted(code, env) if "[" in code else [])
        return _guessed(out, root, env)  # `bash -c 'x=touch; $x p'` as `x=touch; $x p` (0077)

    def powershell(self, code: str, env: Env) -> list[Command]:
        return powershell_commands(code, env.cwd, env.home, env.read_only, env.budget)


_NESTED = _Nested()


def _evaluated(root: Any, source: bytes, budget: Budget) -> list[Command]:
    """An opaque entry for text Bash would evaluate as code (evaluated.py), else nothing."""
    reason, text = evaluated(root, source, budget)
    return [Command(text, "", Status.OPAQUE, note=reason)] if reason else []


# builtins that set a variable from their words (evaluated.py): the single-quoted text they
# hold is run as code, where the variable is a prompt, a command or an arithmetic subscript
_SETTERS = frozenset({"", "printf", "read", "mapfile", "readarray", "unset", "wait"})
_QUOTED = re.compile(r"'[^']*'")
# the tables that map a command name to what it runs: Bash's command hash and aliases, zsh's
# (zsh/parameter, loaded when named) commands, aliases and functions; observed: after
# `BASH_CMDS[ls]=/usr/bin/touch` (or zsh's `commands[ls]=...`, `functions[ls]='touch b'`),
# `ls b` wrote b
_TABLES = re.compile(
    r"""(?:BASH_CMDS|BASH_ALIASES|commands|aliases|galiases|functions)\[["']?([^]"']+)["']?\]"""
    r"""\+?=(.*)""",
    re.S,
)
_ECHOED_NAME = re.compile(r"""^"?\$\((?:echo|printf) +([\w./-]+)\)"?(?: |$)""")


def guessed_code(commands: list[Command], root: Any, budget: Budget) -> list[str]:
    """Code a command that runs variable values may run: each literal value the text assigns,
    on its own and as the program of a command named by an expansion (`x=touch; $x p`)."""
    values = literal_values(root, budget)
    codes = list(values)
    for cmd in commands:  # `printf -v PS4 %s '$(..)'`, `read PS4 <<< '$(..)'`, `${PS4:='$(..)'}`
        if cmd.status is Status.OPAQUE and cmd.program in _SETTERS:
            budget.spend_text(cmd.text)
            codes += [": " + quoted[1:-1] for quoted in _QUOTED.findall(cmd.text)]
    hashed: dict[str, str] = {}  # `hash -p /usr/bin/touch ls`: later, ls runs touch
    for cmd in commands:
        words = cmd.text.split()
        table = _TABLES.match(cmd.text) if not cmd.program else None
        if table:  # `BASH_CMDS[ls]=/usr/bin/touch`, zsh's `functions[ls]='touch x'` (0077)
            hashed[table.group(1)] = _unquoted(table.group(2))
        elif cmd.program == "hash" and "-p" in words[:-2]:
            at = words.index("-p")
            for name in words[at + 2 :]:  # `hash -p PATH -- NAME` too (attack round C)
                if name != "--":
                    hashed[name] = words[at + 1]
        elif cmd.program in hashed:
            codes.append(" ".join([hashed[cmd.program], *words[1:]]))
        if cmd.note != "program name is not a literal":
            continue
        first, _, rest = cmd.text.partition(" ")
        echoed = _ECHOED_NAME.match(cmd.text)  # "$(echo touch)" p
        names = [echoed.group(1)] if echoed else [v for v in values if v and " " not in v]
        if not echoed and EXPANSION.fullmatch(first.strip('"')) is None:
            # `o=orchestrator; ${o}-boundary p`: each value in place of the expansions
            bare = first.replace('"', "")
            spelled = [EXPANSION.sub(v.replace("\\", "\\\\"), bare) for v in values]
            names += [n for n in spelled if n and " " not in n and "$" not in n]
        codes += [f"{name} {rest}" for name in names]
    return codes


def _unquoted(text: str) -> str:
    try:
        return " ".join(shlex.split(text))
    except ValueError:
        return text


def _expand_aliases(commands: list[Command], env: Env) -> list[Command]:
    """A command named by an alias the text defined earlier is analysed as what it expands to
    (`alias l='ls -l'; l` is `ls -l`)."""
    if not any(cmd.program == "alias" for cmd in commands):
        return commands
    aliases: dict[str, str] = {}
    out: list[Command] = []
    for cmd in commands:
        if cmd.program == "alias":
            try:
                words = shlex.split(cmd.text)[1:]
            except ValueError:
                words = []
            for word in words:
                name, eq, body = word.partition("=")
                if eq:
                    aliases[name] = body
        elif cmd.text.split(None, 1)[:1] == [cmd.program] and cmd.program in aliases:
            rest = cmd.text.partition(" ")[2]
            out += runs_code("", f"{aliases[cmd.program]} {rest}", env, "").inner
            continue
        out.append(cmd)
    return out


# `HOME` named, not expanded (`HOME=x`, `export HOME`, `read HOME`, `unset HOME`): a later `~`
# may be anywhere, so it is not resolved against the session's HOME (ADR 0049)
_MENTIONS_HOME = re.compile(r"(?<![\w${])HOME\b")
# git reads every pathspec without case once GIT_ICASE_PATHSPECS or --icase-pathspecs is set,
# by the command or a script it runs, however spelt (ADR 0082): any mention of pathspecs, with
# quotes and backslashes taken out (`GIT_ICASE_PATH"SPECS"`, `GIT_${X}_PATHSPECS`)
_ICASE = re.compile(r"pathspecs", re.I)


def _icase(command: str, scripts: tuple[tuple[str, str], ...]) -> bool:
    texts = (command, *(text for _, text in scripts))
    return any(_ICASE.search(re.sub(r"""["'\\\n]""", "", t)) for t in texts)


def _bash(
    command: str,
    cwd: str,
    home: str | None,
    read_only: frozenset[str],
    budget: Budget,
    scripts: tuple[tuple[str, str], ...] = (),
) -> BashAnalysis:
    source = _encode(command)
    if len(source) > MAX_INPUT_BYTES:
        return BashAnalysis(Status.UNPARSEABLE, error=f"input too large ({len(source)} bytes)")
    budget.spend_text(command)
    root = parse(source)
    error = first_error(root, budget) or disagreement(root, source, budget)
    if error:
        return BashAnalysis(Status.UNPARSEABLE, error=error)
    start = normalize_cwd(cwd)
    env = Env(
        start,
        None if _MENTIONS_HOME.search(command) else normalize_cwd(home),
        read_only,
        budget,
        0,
        _NESTED,
        windows=is_windows(start),
        scripts=scripts,
        start=start,
        icase=_icase(command, scripts),
    )
    out = _evaluated(root, source, budget)
    tracking = known_vars.plan(root, command, command if command.isascii() else None)
    Walker(env, out, source, command, tracking).block(root.named_children, env.cwd, 0)
    out = _expand_aliases(out, env) + (subscripted(command, env) if "[" in command else [])
    return summarize(gitlinks(through_links(_guessed(out, root, env))))


def _guessed(out: list[Command], root: Any, env: Env) -> list[Command]:
    """``out``, and when a command may run a variable's value, the values the text assigns
    analysed as the code they may be."""
    if not evaluates_values(out):
        return out
    codes = guessed_code(out, root, env.budget)
    return out + [c for code in codes for c in runs_code("", code, env, "").inner]


def run(
    command: str,
    cwd: str,
    home: str | None,
    read_only_commands: frozenset[str],
    shell: str,
    budget: int | None,
    scripts: tuple[tuple[str, str], ...] = (),
) -> BashAnalysis:
    work = Budget(MAX_STEPS if budget is None else budget)
    if not isinstance(command, str):
        return BashAnalysis(Status.UNPARSEABLE, error="command is not text")
    try:
        if shell.lower() in _POWERSHELL:
            return analyze_powershell(
                command, cwd=cwd, home=home, read_only_commands=read_only_commands, budget=work
            )
        return _bash(command, cwd, home, read_only_commands, work, scripts)
    except _BeyondGrammar as exc:
        return BashAnalysis(Status.UNPARSEABLE, error=str(exc))
    except BudgetExhausted as exc:
        return _exhausted(str(exc) or "budget exhausted")
    except RecursionError:
        return _exhausted("budget exhausted (nesting too deep)")


def _exhausted(why: str) -> BashAnalysis:
    """A command the analysis ran out of steps on is ``opaque``, never ``read_only`` (issue 12,
    point 9): what it did not read may write anything."""
    note = f"{why}: the analysis stopped before it had read the whole command"
    return BashAnalysis(Status.OPAQUE, error=note, exhausted=True)
