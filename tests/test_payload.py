"""The hand-written payload checks say exactly what the strict pydantic model they replaced said
(ADR 0030): the same payloads pass with the same values, and the same ones fail with the same
first problem. The model is kept here as the reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from orchestrator_boundary.errors import PayloadError
from orchestrator_boundary.payload import TOOL_EVENTS, payload_from_obj


class Reference(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)

    hook_event_name: str
    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    permission_mode: str = ""
    tool_name: str = ""
    tool_input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str = ""
    tool_response: Any = None
    agent_id: str | None = None
    agent_type: str | None = None
    mcp_server: Any = None
    stop_hook_active: Any = None

    @field_validator("agent_id")
    @classmethod
    def _blank_is_main(cls, value: str | None) -> str | None:
        # ADR 0053: an empty or whitespace-only agent_id names no subagent
        return value if value and value.strip() else None


def reference(data: object) -> dict[str, Any] | str:
    """What the reference model made of ``data``: its fields, or the error line."""
    if not isinstance(data, dict):
        return f"input is JSON {type(data).__name__}, expected an object"
    try:
        model = Reference.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        return f"invalid hook payload: {where}: {first['msg']}"
    if model.hook_event_name in TOOL_EVENTS:
        if not model.tool_name:
            return "invalid hook payload: tool_name: missing or empty"
        if "tool_input" not in data:
            return "invalid hook payload: tool_input: missing"
    return model.model_dump()


def ours(data: object) -> dict[str, Any] | str:
    try:
        p = payload_from_obj(data)
    except PayloadError as exc:
        return str(exc)
    return {name: getattr(p, name) for name in Reference.model_fields}


FIELDS = [*Reference.model_fields, "extra"]
VALUES = st.one_of(
    st.text(max_size=4),
    st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "Read", ""]),
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.lists(st.text(max_size=2), max_size=2),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 3)), st.integers(), max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8))
def test_payload_checks_agree_with_the_strict_model(data: dict[str, Any]) -> None:
    assert ours(data) == reference(data)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"hook_event_name": 1},
        {"hook_event_name": "PreToolUse", "tool_name": "Read"},
        {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": []},
        {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {1: 2}},
        {"hook_event_name": "Stop", "agent_id": 5, "cwd": 3},
        {"hook_event_name": "Stop", "agent_id": None, "stop_hook_active": "yes"},
        {"hook_event_name": "Stop", "agent_id": " "},
        [1, 2],
        "text",
    ],
    ids=[
        "missing-event",
        "event-type",
        "no-tool-input",
        "tool-input-list",
        "tool-input-key",
        "first-of-two",
        "optional-none",
        "blank-agent-id",
        "list",
        "string",
    ],
)
def test_payload_decision_table(data: object) -> None:
    assert ours(data) == reference(data)
