"""The hook payload as Claude Code sends it on stdin (see docs/protocol notes).

Unknown fields are ignored: Claude Code keeps adding them. Fields the policy relies on are
type-checked; a wrong type is a ``PayloadError``, never a silent default.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from orchestrator_boundary.errors import PayloadError

MAX_PAYLOAD_BYTES = 32 * 1024 * 1024  # a Write of a large file still fits; beyond is refused

TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})


class HookPayload(BaseModel):
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
    # MCP tool calls, Claude Code 2.1.330+: {"name": ..., "source": ...}; recorded, never judged
    mcp_server: Any = None
    stop_hook_active: Any = None  # SubagentStop/Stop: true while a stop hook's block runs


def _describe(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "payload"
    return f"{where}: {first['msg']}"


def parse_payload(raw: bytes | str) -> HookPayload:
    """Parse stdin bytes into a payload, raising ``PayloadError`` with a one-line reason."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"payload too large ({len(raw)} bytes > {MAX_PAYLOAD_BYTES})")
    if not raw.strip():
        raise PayloadError("empty input: expected one JSON object on stdin")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise PayloadError(f"input is not valid JSON ({type(exc).__name__})") from None
    return payload_from_obj(data)


def payload_from_obj(data: object) -> HookPayload:
    if not isinstance(data, dict):
        raise PayloadError(f"input is JSON {type(data).__name__}, expected an object")
    try:
        payload = HookPayload.model_validate(data)
    except ValidationError as exc:
        raise PayloadError(f"invalid hook payload: {_describe(exc)}") from None
    if payload.hook_event_name in TOOL_EVENTS:
        if not payload.tool_name:
            raise PayloadError("invalid hook payload: tool_name: missing or empty")
        if "tool_input" not in data:
            raise PayloadError("invalid hook payload: tool_input: missing")
    return payload
