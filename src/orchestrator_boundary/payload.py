"""The hook payload as Claude Code sends it on stdin (see docs/protocol notes).

Unknown fields are ignored: Claude Code keeps adding them. Fields the policy relies on are
type-checked; a wrong type is a ``PayloadError``, never a silent default.

Checked by hand, not by a validation library: every hook process parses one payload, and
importing one would cost more than the whole decision (ADR 0030). The checks and their messages
are those of the strict model this replaced (``tests/test_payload.py`` holds them to it).
"""

from __future__ import annotations

import json

from orchestrator_boundary.errors import PayloadError, PayloadTooDeep
from orchestrator_boundary.values import field, frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any

MAX_PAYLOAD_BYTES = 32 * 1024 * 1024  # a Write of a large file still fits; beyond is refused

TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})


@frozen(kw_only=True)
class HookPayload:
    hook_event_name: str
    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    permission_mode: str = ""
    tool_name: str = ""
    tool_input: dict[str, Any] = field(default_factory=dict)
    tool_use_id: str = ""
    tool_response: Any = None
    agent_id: str | None = None
    agent_type: str | None = None
    # MCP tool calls, Claude Code 2.1.330+: {"name": ..., "source": ...}; recorded, never judged
    mcp_server: Any = None
    stop_hook_active: Any = None  # SubagentStop/Stop: true while a stop hook's block runs
    background_tasks: Any = None  # Stop: the subagents and tasks still running (ADR 0080)


# (field, what it must be) in field order: the first that fails is the one reported
_STRINGS = ("session_id", "transcript_path", "cwd", "permission_mode", "tool_name")
_OPTIONAL = ("agent_id", "agent_type")
_NOT_STRING = "Input should be a valid string"


def _first_problem(data: dict[Any, Any]) -> str | None:
    """Where and what the first wrong field is (``loc: message``), or None."""
    if "hook_event_name" not in data:
        return "hook_event_name: Field required"
    if not isinstance(data["hook_event_name"], str):
        return f"hook_event_name: {_NOT_STRING}"
    for name in _STRINGS:
        if name in data and not isinstance(data[name], str):
            return f"{name}: {_NOT_STRING}"
    if "tool_input" in data:
        tool_input = data["tool_input"]
        if not isinstance(tool_input, dict):
            return "tool_input: Input should be a valid dictionary"
        for key in tool_input:
            if not isinstance(key, str):
                return f"tool_input.{key}.[key]: {_NOT_STRING}"
    if "tool_use_id" in data and not isinstance(data["tool_use_id"], str):
        return f"tool_use_id: {_NOT_STRING}"
    for name in _OPTIONAL:
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            return f"{name}: {_NOT_STRING}"
    return None


def parse_payload(raw: bytes | str) -> HookPayload:
    """Parse stdin bytes into a payload, raising ``PayloadError`` with a one-line reason."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"payload too large ({len(raw)} bytes > {MAX_PAYLOAD_BYTES})")
    if not raw.strip():
        raise PayloadError("empty input: expected one JSON object on stdin")
    try:
        data = json.loads(raw, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecursionError:
        raise PayloadTooDeep(
            "the input is nested too deeply to check, and what is not checked could name a "
            "file that guards the agents, which no agent may change; split the work into "
            "plainer calls"
        ) from None
    except _NotStrict as exc:
        raise PayloadError(f"input is not strict JSON: {exc}") from None
    except ValueError as exc:
        raise PayloadError(f"input is not valid JSON ({type(exc).__name__})") from None
    return payload_from_obj(data)


class _NotStrict(ValueError):
    """JSON that Python reads but Claude Code never writes (it serialises one object with
    ``JSON.stringify``): a name given twice, or ``NaN``/``Infinity``."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose every name is given once. A name given twice (``"tool_name": "Write",
    "tool_name": "Read"``) is refused, at any depth: readers disagree on which copy wins, and
    the one the policy took could be the harmless one while another reader acts on the other
    (ADR 0057)."""
    data = dict(pairs)
    if len(data) != len(pairs):
        names = [k for k, _ in pairs]
        twice = next(k for i, k in enumerate(names) if k in names[:i])
        raise _NotStrict(f"the name {json.dumps(twice)[:80]} is given twice in one object")
    return data


def _no_constant(name: str) -> Any:
    raise _NotStrict(f"{name} is not a JSON value")


def payload_from_obj(data: object) -> HookPayload:
    if not isinstance(data, dict):
        raise PayloadError(f"input is JSON {type(data).__name__}, expected an object")
    problem = _first_problem(data)
    if problem is not None:
        raise PayloadError(f"invalid hook payload: {problem}")
    payload = HookPayload(
        hook_event_name=str(data["hook_event_name"]),
        session_id=str(data.get("session_id", "")),
        transcript_path=str(data.get("transcript_path", "")),
        cwd=str(data.get("cwd", "")),
        permission_mode=str(data.get("permission_mode", "")),
        tool_name=str(data.get("tool_name", "")),
        tool_input={str(k): v for k, v in data.get("tool_input", {}).items()},
        tool_use_id=str(data.get("tool_use_id", "")),
        tool_response=data.get("tool_response"),
        agent_id=_agent_id(data.get("agent_id")),
        agent_type=_optional(data.get("agent_type")),
        mcp_server=data.get("mcp_server"),
        stop_hook_active=data.get("stop_hook_active"),
        background_tasks=data.get("background_tasks"),
    )
    if payload.hook_event_name in TOOL_EVENTS:
        if not payload.tool_name:
            raise PayloadError("invalid hook payload: tool_name: missing or empty")
        if "tool_input" not in data:
            raise PayloadError("invalid hook payload: tool_input: missing")
    return payload


def _optional(value: object) -> str | None:
    return None if value is None else str(value)


def _agent_id(value: object) -> str | None:
    """``agent_id`` as the policy reads it: one that is empty or whitespace only names no
    subagent, so the call is the main agent's (the narrower rules), for every reader."""
    return None if value is None or not str(value).strip() else str(value)
