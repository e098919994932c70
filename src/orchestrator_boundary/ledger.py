"""The shell's side of delegation contracts (ADR 0027): the ``Ledger`` the contract rules
read, what each hook event leaves in the state store, and the answer to SubagentStop.

Shell side: it reads the subagent's meta.json, hashes files and talks to ``state.Store``. Every
step that cannot reach the store gives its deliberate answer (an unknown delegation, no stale
or lease finding, a stop that is not blocked) and says so in the audit line; none raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from orchestrator_boundary.contracts import Breach, Contracts, Launch, check_launch, profile_of
from orchestrator_boundary.delegation import (
    Lease,
    Record,
    Seen,
    Unavailable,
    UnknownDelegation,
)
from orchestrator_boundary.deliverables import stop_check
from orchestrator_boundary.fs import sha256_of
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.state import MAIN, Store, read_meta, state_path

AGENT_TOOLS = frozenset({"Agent", "Task"})
STOP_EVENTS = frozenset({"SubagentStop", "Stop", "SessionEnd", "SubagentStart"})


class StoreLedger:
    """One call's view of the state store (``contracts.Ledger``)."""

    def __init__(self, store: Store, payload: HookPayload) -> None:
        self.store, self.payload = store, payload
        self.session = payload.session_id or "-"
        self.agent = payload.agent_id or MAIN
        self._record: Record | None = None
        self.unavailable = False  # a read could not reach the store (for the audit line)

    def record(self) -> Record | None:
        agent_id = self.payload.agent_id
        if not agent_id:
            return None
        if self._record is None:
            meta = read_meta(self.payload.transcript_path, agent_id)
            self._record = self.store.delegation(
                self.session, agent_id, self.payload.agent_type, meta
            )
        return self._record

    def _note(self, got: Any) -> Any:
        if isinstance(got, Unavailable):
            self.unavailable = True
        return got

    def seen(self, located: Located) -> Seen | Unavailable | None:
        found: Seen | Unavailable | None = self._note(
            self.store.seen(self.session, self.agent, located.display)
        )
        return found

    def current(self, located: Located) -> str | None:
        return sha256_of(located.absolute) if located.absolute else None

    def last_writer(self, located: Located) -> str:
        who = self.store.last_writer(self.session, located.display)
        if not isinstance(who, str) or who == self.agent:
            return ""
        return "the main agent" if who == MAIN else f"subagent {who}"

    def lease(self, located: Located) -> Lease | Unavailable | None:
        found: Lease | Unavailable | None = self._note(
            self.store.lease(self.session, located.display)
        )
        return found

    def audit(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self._record is not None:
            out["delegation"] = self._record.audit()
        if self.unavailable:
            out["state"] = "unavailable"
        return out


def ledger_for(payload: HookPayload, audit_file: str) -> StoreLedger:
    return StoreLedger(Store(state_path(audit_file)), payload)


def _description(payload: HookPayload) -> str:
    d = payload.tool_input.get("description")
    return d[:200] if isinstance(d, str) else ""


def launch_of(contracts: Contracts, payload: HookPayload, ledger: StoreLedger) -> Launch | Breach:
    """The contract of an Agent call (the same check the policy made)."""
    prompt = payload.tool_input.get("prompt")
    requested = payload.tool_input.get("subagent_type")
    return check_launch(
        contracts,
        prompt if isinstance(prompt, str) else "",
        requested if isinstance(requested, str) else None,
        ledger.record(),
    )


def before(contracts: Contracts, payload: HookPayload, ledger: StoreLedger, denied: bool) -> None:
    """PreToolUse: an Agent call that goes ahead leaves its contract (or its refusal) for the
    subagent it starts."""
    if payload.tool_name not in AGENT_TOOLS or denied or not payload.tool_use_id:
        return
    found = launch_of(contracts, payload, ledger)
    if isinstance(found, Launch):
        ok = ledger.store.record_launch(
            ledger.session, payload.tool_use_id, found, _description(payload)
        )
    else:
        ok = ledger.store.record_refused(ledger.session, payload.tool_use_id, found.reason)
    ledger.unavailable |= not ok


def after(
    contracts: Contracts,
    payload: HookPayload,
    ledger: StoreLedger,
    read: Located | None,
    written: Sequence[Located],
) -> None:
    """PostToolUse: the Agent call's link to its subagent; what the agent read (``read``) or
    wrote (with the content hash now); its leases; its deliverable counts."""
    with ledger.store.batch() as result:
        _record_after(contracts, payload, ledger, read, written)
    ledger.unavailable |= not result[0]


def _record_after(
    contracts: Contracts,
    payload: HookPayload,
    ledger: StoreLedger,
    read: Located | None,
    written: Sequence[Located],
) -> None:
    store, session, agent = ledger.store, ledger.session, ledger.agent
    resp = payload.tool_response
    if payload.tool_name in AGENT_TOOLS and isinstance(resp, Mapping):
        started = resp.get("agentId")
        if isinstance(started, str) and started and payload.tool_use_id:
            store.link(session, started, payload.tool_use_id, _description(payload))
    if read is not None:
        store.saw(session, agent, read.display, ledger.current(read), wrote=False)
    for located in written:
        store.saw(session, agent, located.display, ledger.current(located), wrote=True)
    if payload.agent_id:
        record = ledger.record()
        desc = (
            record.description
            if record is not None and not isinstance(record, UnknownDelegation)
            else ""
        )
        store.note_running(session, payload.agent_id, desc)
        if contracts.leases != "off":
            for located in written:
                store.take_lease(
                    session, located.display, payload.agent_id, desc or payload.agent_id
                )
        store.count(session, payload.agent_id, [payload.tool_name, *(["write"] if written else [])])


def lifecycle(
    contracts: Contracts,
    payload: HookPayload,
    ledger: StoreLedger,
    phase: Phase,
    bypass: bool,
) -> tuple[str, dict[str, Any]]:
    """(the hook's stdout, the audit fields) for SubagentStop and SessionEnd. A stop is
    blocked only in ``enforce`` or ``ask``, without the bypass, and never twice in a row."""
    store, session = ledger.store, ledger.session
    if payload.hook_event_name == "SessionEnd":
        return "", {"state": "cleaned" if store.end_session(session) else "unavailable"}
    agent_id = payload.agent_id
    if payload.hook_event_name != "SubagentStop" or not agent_id:
        return "", {}
    agent_type = payload.agent_type or ""
    named = profile_of(contracts, agent_type) if agent_type else None
    requires = named[1].requires if named is not None else ()
    extra: dict[str, Any] = {}
    block = False
    if requires:
        counts = store.counts(session, agent_id)
        blocked = store.stop_blocks(session, agent_id)
        if isinstance(counts, Unavailable) or isinstance(blocked, Unavailable):
            extra["state"] = "unavailable"
        else:
            answer = stop_check(
                agent_type,
                requires,
                counts,
                stop_hook_active=payload.stop_hook_active is True,
                blocked_before=blocked,
                max_blocks=contracts.max_stop_blocks,
            )
            acts = phase in (Phase.ENFORCE, Phase.ASK) and not bypass
            block = answer.block and acts
            extra["deliverables"] = {
                "missing": [list(m) for m in answer.missing],
                "blocked": block,
                "would_block": answer.block,
            }
            if block:
                store.blocked_stop(session, agent_id)
                return json.dumps({"decision": "block", "reason": answer.reason}), extra
    if not store.stopped(session, agent_id):
        extra["state"] = "unavailable"
    return "", extra
