"""A readable rendering of a BashAnalysis, for the CLI's `explain` command."""

from __future__ import annotations

from orchestrator_boundary.bash.model import BashAnalysis

_MAX_TEXT = 120


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _MAX_TEXT else flat[: _MAX_TEXT - 3] + "..."


def explain(analysis: BashAnalysis) -> str:
    """Multi-line text: the verdict, then each parsed command with its effects and why."""
    lines = [f"status: {analysis.status.value}"]
    if analysis.error:
        lines.append(f"error: {analysis.error}")
    if not analysis.commands:
        lines.append("(no commands)")
    for number, cmd in enumerate(analysis.commands, 1):
        program = cmd.program or "(no program)"
        lines.append(f"{number}. {_short(cmd.text)}")
        detail = f"   program: {program}; {cmd.status.value}"
        lines.append(detail + (f" ({cmd.note})" if cmd.note else ""))
        for effect in cmd.effects:
            where = effect.resolved if effect.resolved is not None else "unknown location"
            shown = f"{effect.path!r} -> {where}" if effect.path else where
            lines.append(f"   - {effect.kind.value}: {shown}  [{effect.source}]")
    return "\n".join(lines)
