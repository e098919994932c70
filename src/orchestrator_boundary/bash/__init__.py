"""The analysis of what a shell command writes: Bash, PowerShell, and the inline code they run.

The package keeps its first name, ``bash``, because Bash is the tool it grew for and the name is
imported across the project; it analyses PowerShell (``shell="powershell"``) and the inline
code of interpreters (``python -c``, ``node -e``, ...) too. Its shape: ADR 0022; its grammar:
ADR 0006.

Public API: ``analyze(command, *, cwd, ...) -> BashAnalysis``. Pure: text in, frozen values out.
Being pure, its answers are remembered (a bounded LRU, commands up to ``MEMO_MAX_CHARS``): with
both hooks registered every Bash call is analysed twice, PreToolUse and PostToolUse with the
same text, and a long-lived process (the resident evaluator, replay) answers the second from
memory. ADR 0016.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from orchestrator_boundary.bash.model import BashAnalysis, Command, Effect, EffectKind, Status

__all__ = ["BashAnalysis", "Command", "Effect", "EffectKind", "Status", "analyze"]

MEMO_MAX_CHARS = 4096  # longer commands (rare, and large to keep) are analysed every time
MEMO_ENTRIES = 512  # at most ~2 MiB of command text


def analyze(
    command: str,
    *,
    cwd: str,
    home: str | None = None,
    read_only_commands: frozenset[str] = frozenset(),
    shell: str = "bash",
    budget: int | None = None,
    scripts: Mapping[str, str] | None = None,
) -> BashAnalysis:
    """What ``command`` would write, delete or change when run in ``cwd``.

    ``budget`` caps the work (nodes visited, characters scanned); when it runs out the
    result is OPAQUE with ``exhausted`` set ("budget exhausted"), never "no effects".
    ``scripts`` maps a script file the command runs (``Command.script`` of an earlier analysis)
    to its text: a script's commands then count as the command's own (ADR 0040). Such an
    analysis is not remembered (the texts would fill the memo).
    """
    read = tuple(sorted(scripts.items())) if scripts else ()
    inputs = (cwd, home, frozenset(read_only_commands), shell, budget, read)
    if isinstance(command, str) and len(command) <= MEMO_MAX_CHARS and not read:
        return _remembered(command, *inputs)
    return _run(command, *inputs)


def clear_memo() -> None:
    """Forget every remembered analysis (benchmarks measure the first analysis with this)."""
    _remembered.cache_clear()


def _run(
    command: str,
    cwd: str,
    home: str | None,
    read_only_commands: frozenset[str],
    shell: str,
    budget: int | None,
    scripts: tuple[tuple[str, str], ...] = (),
) -> BashAnalysis:
    """``analysis.run``, imported on the first call: the parser and the program tables cost a
    hook process more than the rest of its decision, and a Read never needs them (ADR 0030)."""
    from orchestrator_boundary.bash.analysis import run

    return run(command, cwd, home, read_only_commands, shell, budget, scripts)


_remembered = lru_cache(maxsize=MEMO_ENTRIES)(_run)
