"""Parser-based analysis of what a Bash command writes (see docs/decisions/0006).

Public API: ``analyze(command, *, cwd, ...) -> BashAnalysis``. Pure: text in, frozen values out.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import BashAnalysis, Command, Effect, EffectKind, Status

__all__ = ["BashAnalysis", "Command", "Effect", "EffectKind", "Status", "analyze"]


def analyze(
    command: str,
    *,
    cwd: str,
    home: str | None = None,
    read_only_commands: frozenset[str] = frozenset(),
    shell: str = "bash",
    budget: int | None = None,
) -> BashAnalysis:
    """What ``command`` would write, delete or change when run in ``cwd``.

    ``budget`` caps the work (nodes visited, characters scanned); when it runs out the
    result is UNPARSEABLE ("budget exhausted"), never "no effects".
    """
    from orchestrator_boundary.bash.analysis import run

    return run(
        command,
        cwd=cwd,
        home=home,
        read_only_commands=read_only_commands,
        shell=shell,
        budget=budget,
    )
