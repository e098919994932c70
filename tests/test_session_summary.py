"""The session summary at Stop (ADR 27): delegations with their intent, files and denials;
rules broken; bypasses; only the session asked about."""

from __future__ import annotations

from typing import Any

from orchestrator_boundary.session_summary import summary

D1 = {"tool_use_id": "t1", "description": "fix login", "intent": "auth"}


def _rec(event: str, **kw: Any) -> dict[str, Any]:
    return {"session_id": "s1", "event": event, **kw}


RECORDS = [
    _rec("PreToolUse", agent_id="a1", delegation=D1),
    _rec("PostToolUse", agent_id="a1", delegation=D1, trace=[{"path": "src/auth/a.py"}]),
    _rec("PreToolUse", agent_id="a1", delegation=D1, would_deny=True, code="DELEGATION_SCOPE"),
    _rec("PreToolUse", agent_id="a2", delegation={"unknown": "no meta.json"}),
    _rec("PreToolUse", would_deny=True, code="ORCHESTRATOR_WRITE"),
    _rec("PreToolUse", bypassed=True, would_deny=True, code="ORCHESTRATOR_WRITE"),
    {"session_id": "other", "event": "PreToolUse", "would_deny": True, "code": "TAMPER"},
]


def test_the_summary_of_a_session() -> None:
    assert summary(RECORDS, "s1").splitlines() == [
        "orchestrator-boundary: this session, 2 delegation(s)",
        "- fix login [intent auth]: 1 file(s) written (src/auth/a.py), 1 denied",
        "- unknown delegation (no meta.json): 0 file(s) written",
        "Rules broken: ORCHESTRATOR_WRITE x2, DELEGATION_SCOPE x1. Bypassed calls: 1.",
    ]


def test_no_records_no_summary() -> None:
    assert summary(RECORDS, "nobody") == ""
