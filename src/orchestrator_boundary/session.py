"""Who is calling: the orchestrator (main thread) or a subagent. ADR 0003.

A call is a subagent's exactly when the payload carries a non-empty ``agent_id`` (one of
whitespace only names no agent: ``payload`` reads it as absent, so the call is judged as the main
agent's, the narrower rules).
``agent_type`` alone marks a main thread started with ``claude --agent``: the orchestrator.
"""

from __future__ import annotations

import enum

from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.values import transient


class SessionKind(enum.StrEnum):
    MAIN = "main"
    SUBAGENT = "subagent"


@transient
class Session:
    kind: SessionKind
    session_id: str
    agent_id: str | None
    agent_type: str | None

    @property
    def label(self) -> str:
        if self.kind is SessionKind.SUBAGENT:
            return f"subagent {self.agent_type or '?'} ({self.agent_id})"
        return "main agent" + (f" (--agent {self.agent_type})" if self.agent_type else "")


def detect(payload: HookPayload) -> Session:
    kind = SessionKind.SUBAGENT if payload.agent_id else SessionKind.MAIN
    return Session(kind, payload.session_id, payload.agent_id or None, payload.agent_type or None)
