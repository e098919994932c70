"""Per-role deliverables, checked when a subagent stops (ADR 0027). Pure.

``[agents.TYPE] requires`` names what that role must produce: ``"write"`` (a file it changed)
or a tool it must have used successfully (``TaskCreate`` for a planner), with a minimum
count. A SubagentStop that finds something missing is blocked with a reason naming it, at
most ``[delegation] max_stop_blocks`` times in the subagent's life, and never while
``stop_hook_active`` is set (the subagent is already continuing because a stop hook blocked
it): the CLI itself gives up after 8 blocks in a row, which is a loop we never start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from orchestrator_boundary.contracts_config import WRITE_DELIVERABLE, Deliverable
from orchestrator_boundary.values import transient


@transient
class StopAnswer:
    block: bool
    reason: str = ""
    missing: tuple[tuple[str, int, int], ...] = ()  # (deliverable, have, need)


def missing(
    requires: Sequence[Deliverable], counts: Mapping[str, int]
) -> list[tuple[str, int, int]]:
    return [
        (d.deliverable, counts.get(d.deliverable, 0), d.min)
        for d in requires
        if counts.get(d.deliverable, 0) < d.min
    ]


def _named(name: str, need: int) -> str:
    if name == WRITE_DELIVERABLE:
        return f"{need} file change{'s' if need > 1 else ''}"
    return f"{need} successful {name} call{'s' if need > 1 else ''}"


def stop_check(
    agent_type: str,
    requires: Sequence[Deliverable],
    counts: Mapping[str, int],
    *,
    stop_hook_active: bool,
    blocked_before: int,
    max_blocks: int,
) -> StopAnswer:
    """Block a subagent's stop while its role's deliverables are missing: never while
    ``stop_hook_active`` (it is already continuing because of a stop hook) and at most
    ``max_blocks`` times in its life."""
    gaps = tuple(missing(requires, counts))
    if not gaps:
        return StopAnswer(False)
    if stop_hook_active or blocked_before >= max_blocks:
        return StopAnswer(False, "", gaps)
    wanted = "; ".join(f"{_named(n, need)} (has {have})" for n, have, need in gaps)
    return StopAnswer(
        True,
        f"orchestrator-boundary: a {agent_type} subagent must deliver {wanted} before it stops "
        "([agents." + agent_type + "] requires). Do that now, or if it cannot be done, say why "
        "in your final report.",
        gaps,
    )
