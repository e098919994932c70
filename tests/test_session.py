from __future__ import annotations

import pytest

from orchestrator_boundary.payload import payload_from_obj
from orchestrator_boundary.session import SessionKind, detect


def _p(**kw: object) -> dict[str, object]:
    return {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}, **kw}


@pytest.mark.parametrize(
    ("fields", "kind"),
    [
        ({}, SessionKind.MAIN),
        ({"agent_type": "reviewer"}, SessionKind.MAIN),  # claude --agent: the orchestrator
        ({"agent_id": "a25"}, SessionKind.SUBAGENT),
        ({"agent_id": "a25", "agent_type": "coder"}, SessionKind.SUBAGENT),
        ({"agent_id": "", "agent_type": "coder"}, SessionKind.MAIN),  # empty id is no signal
        ({"agent_id": " ", "agent_type": "coder"}, SessionKind.MAIN),  # nor whitespace (#14)
        ({"agent_id": "\t\n"}, SessionKind.MAIN),
        ({"agent_id": None, "agent_type": "coder"}, SessionKind.MAIN),
    ],
    ids=[
        "plain",
        "agent-type-only",
        "agent-id-only",
        "both",
        "empty-agent-id",
        "blank-agent-id",
        "whitespace-agent-id",
        "null-agent-id",
    ],
)
def test_subagent_exactly_when_agent_id_present(
    fields: dict[str, object], kind: SessionKind
) -> None:
    assert detect(payload_from_obj(_p(**fields))).kind is kind


def test_agent_tool_calls_do_not_change_who_is_calling() -> None:
    launch = payload_from_obj(_p(tool_name="Agent", tool_input={"subagent_type": "coder"}))
    after = payload_from_obj(_p(tool_name="Write"))
    assert detect(launch).kind is SessionKind.MAIN
    assert detect(after).kind is SessionKind.MAIN


def test_a_blank_agent_id_names_no_subagent_for_any_reader() -> None:
    """The payload itself reads a blank ``agent_id`` as absent, so every reader of it (the
    policy, the ledger, the audit line) sees the main agent, judged by the narrower rules."""
    payload = payload_from_obj(_p(agent_id="  ", agent_type="coder"))
    assert payload.agent_id is None
    assert detect(payload).agent_id is None
    assert payload_from_obj(_p(agent_id=" a1 ")).agent_id == " a1 "  # kept as sent
