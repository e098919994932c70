"""The top of the analysis: size and budget guards, parsing, walking, summarizing."""

from __future__ import annotations

import re

from orchestrator_boundary.bash.budget import MAX_INPUT_BYTES, MAX_STEPS, Budget, BudgetExhausted
from orchestrator_boundary.bash.facts import OPAQUE, READ_ONLY, UNPARSEABLE, WRITES, Env
from orchestrator_boundary.bash.model import BashAnalysis, Command, Effect
from orchestrator_boundary.bash.parse import first_error, parse
from orchestrator_boundary.bash.paths import normalize_cwd
from orchestrator_boundary.bash.walk import Walker  # at the top: an import in a call costs ~1 us

_RANK = {READ_ONLY: 0, WRITES: 1, OPAQUE: 2, UNPARSEABLE: 3}


# tree-sitter-bash 0.25's scanner corrupts memory on code points from U+20000 up (seen here:
# random text with them crashes the process within a few thousand parses), and a crashed hook
# fails open. Such text is not analysed: it is reported unparseable (ADR 0014).
_PARSER_MAX_CODE_POINT = 0x1FFFF
# Single character classes: one linear scan each, in C. max(code) and a generator over the
# characters cost ~20 and ~60 ns a character (~0.2 and ~0.6 ms for a 10 KB heredoc).
_ABOVE_PARSER_MAX = re.compile(f"[{chr(_PARSER_MAX_CODE_POINT + 1)}-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _encode(code: str) -> bytes:
    """UTF-8 for the parser, or ``BudgetExhausted`` for text the grammar cannot take.

    Lone surrogates (JSON allows them) become U+FFFD, as they do when Claude Code hands the text
    to a shell; the invalid UTF-8 that ``surrogatepass`` would produce is not fed to the parser.
    """
    if code.isascii():
        return code.encode("ascii")
    if _ABOVE_PARSER_MAX.search(code):
        raise BudgetExhausted(
            "text holds characters above U+1FFFF, which the Bash grammar cannot parse safely"
        )
    try:
        return code.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", code).encode("utf-8")


def run_shell(code: str, env: Env) -> list[Command]:
    """Commands of nested shell code (``bash -c``, ``eval``, a heredoc fed to a shell)."""
    source = _encode(code)
    if len(source) > MAX_INPUT_BYTES:
        raise BudgetExhausted("budget exhausted (nested code too large)")
    env.budget.spend_text(code)
    root = parse(source)
    error = first_error(root, env.budget)
    if error:
        return [Command(code, "", UNPARSEABLE, note=f"nested shell code: {error}")]
    out: list[Command] = []
    Walker(env, out, source, code).block(root.named_children, env.cwd, env.nesting + 1)
    return out


def summarize(commands: list[Command], error: str = "") -> BashAnalysis:
    status = READ_ONLY
    rank = 0
    effects: list[Effect] = []
    opaque: list[Command] = []
    for cmd in commands:  # one pass for all four (this runs once per analysis)
        cmd_status = cmd.status
        cmd_rank = _RANK[cmd_status]
        if cmd_rank > rank:
            status, rank = cmd_status, cmd_rank
        if cmd_rank == 3 and not error:  # UNPARSEABLE
            error = cmd.note
        elif cmd_rank == 2:  # OPAQUE
            opaque.append(cmd)
        if cmd.effects:
            effects.extend(cmd.effects)
    return BashAnalysis(status, tuple(commands), tuple(effects), error, tuple(opaque))


def _bash(
    command: str, cwd: str, home: str | None, read_only: frozenset[str], budget: Budget
) -> BashAnalysis:
    source = _encode(command)
    if len(source) > MAX_INPUT_BYTES:
        return BashAnalysis(UNPARSEABLE, error=f"input too large ({len(source)} bytes)")
    budget.spend_text(command)
    root = parse(source)
    if root.has_error:  # first_error's own first test, without the call for clean text
        return BashAnalysis(UNPARSEABLE, error=first_error(root, budget))
    env = Env(normalize_cwd(cwd), normalize_cwd(home), read_only, budget, 0, run_shell)
    out: list[Command] = []
    Walker(env, out, source, command).block(root.named_children, env.cwd, 0)
    return summarize(out)


def run(
    command: str,
    cwd: str,
    home: str | None,
    read_only_commands: frozenset[str],
    shell: str,
    budget: int | None,
) -> BashAnalysis:
    work = Budget(MAX_STEPS if budget is None else budget)
    if not isinstance(command, str):
        return BashAnalysis(UNPARSEABLE, error="command is not text")
    try:
        if shell.lower() in ("powershell", "pwsh", "powershell.exe", "pwsh.exe"):
            from orchestrator_boundary.bash.powershell import analyze_powershell

            return analyze_powershell(
                command,
                cwd=cwd,
                home=home,
                read_only_commands=frozenset(read_only_commands),
                budget=work,
            )
        return _bash(command, cwd, home, frozenset(read_only_commands), work)
    except BudgetExhausted as exc:
        return BashAnalysis(UNPARSEABLE, error=str(exc) or "budget exhausted")
    except RecursionError:
        return BashAnalysis(UNPARSEABLE, error="budget exhausted (nesting too deep)")
