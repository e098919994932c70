"""Parser-based analysis of what a Bash command writes (see docs/decisions for the grammar ADR).

Public API: ``analyze(command, *, cwd, ...) -> BashAnalysis``.
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
) -> BashAnalysis:
    """Stub until the analysis lands: every command is opaque (never "no effects")."""
    del cwd, home, read_only_commands, shell
    return BashAnalysis(status=Status.OPAQUE, commands=(Command(command, "", Status.OPAQUE),))
