"""The shell's side of delegation contracts (ADR 0027) on a real state store: an Agent call's
contract reaches its subagent whatever order the hooks fire in; reads and writes are
remembered with their hashes; leases and deliverables; SubagentStop's answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.contracts import Contracts, Profile
from orchestrator_boundary.contracts_config import Deliverable, Intent
from orchestrator_boundary.delegation import Delegation, Lease, Seen, UnknownDelegation
from orchestrator_boundary.ledger import after, before, ledger_for, lifecycle
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase

CONTRACTS = Contracts(
    {"fix": Intent(owned_scope=["src/**"], description="the fix")},
    {"coder": Profile(write_scope=("src/**",), requires=(Deliverable(deliverable="write"),))},
    leases="enforce",
)


@pytest.fixture
def trail(tmp_path: Path) -> str:
    return str(tmp_path / "boundary" / "audit.jsonl")


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    (tmp_path / "sess" / "subagents").mkdir(parents=True)
    return tmp_path / "sess.jsonl"


def _payload(transcript: Path, event: str, **kw: Any) -> HookPayload:
    return HookPayload(
        hook_event_name=event, session_id="s1", transcript_path=str(transcript), cwd="/p", **kw
    )


AGENT_INPUT = {"description": "fix it", "prompt": "Do it.\nIntent: fix", "subagent_type": "coder"}


def _launch(trail: str, transcript: Path, agent_id: str = "a1", tool_use_id: str = "t1") -> None:
    pre = _payload(
        transcript, "PreToolUse", tool_name="Agent", tool_input=AGENT_INPUT, tool_use_id=tool_use_id
    )
    before(CONTRACTS, pre, ledger_for(pre, trail), denied=False)


def _link(trail: str, transcript: Path, agent_id: str = "a1", tool_use_id: str = "t1") -> None:
    post = _payload(
        transcript,
        "PostToolUse",
        tool_name="Agent",
        tool_input=AGENT_INPUT,
        tool_use_id=tool_use_id,
        tool_response={"status": "async_launched", "agentId": agent_id},
    )
    after(CONTRACTS, post, ledger_for(post, trail), None, ())


def _sub(
    transcript: Path, event: str = "PreToolUse", agent_id: str = "a1", **kw: Any
) -> HookPayload:
    return _payload(transcript, event, agent_id=agent_id, agent_type="coder", **kw)


def _meta(transcript: Path, agent_id: str = "a1", tool_use_id: str = "t1") -> None:
    meta = {"agentType": "coder", "toolUseId": tool_use_id, "spawnDepth": 1}
    path = transcript.parent / "sess" / "subagents" / f"agent-{agent_id}.meta.json"
    path.write_text(json.dumps(meta))


@pytest.mark.parametrize("order", ["post-then-call", "meta-then-call", "meta-then-post"])
def test_the_contract_reaches_the_subagent_in_any_order(
    trail: str, transcript: Path, order: str
) -> None:
    _launch(trail, transcript)
    if order != "post-then-call":
        _meta(transcript)
    if order != "meta-then-call":
        _link(trail, transcript)
    call = _sub(transcript, tool_name="Write", tool_input={"file_path": "/p/src/x"})
    got = ledger_for(call, trail).record()
    assert isinstance(got, Delegation)
    assert (got.tool_use_id, got.description, got.intent, got.depth) == ("t1", "fix it", "fix", 1)


def test_a_subagent_without_records_is_unknown_with_the_reason(
    trail: str, transcript: Path
) -> None:
    call = _sub(transcript, tool_name="Write", tool_input={"file_path": "/p/src/x"})
    ledger = ledger_for(call, trail)
    assert ledger.record() == UnknownDelegation(
        "a1", "no Agent call names it and its meta.json was not found"
    )
    assert ledger.audit() == {
        "delegation": {"unknown": "no Agent call names it and its meta.json was not found"}
    }


def test_a_refused_launch_that_went_through_is_recorded_as_refused(
    trail: str, transcript: Path
) -> None:
    bad = {**AGENT_INPUT, "prompt": "Intent: nope"}
    pre = _payload(transcript, "PreToolUse", tool_name="Agent", tool_input=bad, tool_use_id="t1")
    before(CONTRACTS, pre, ledger_for(pre, trail), denied=False)
    _link(trail, transcript)
    got = ledger_for(_sub(transcript, tool_name="Read"), trail).record()
    assert isinstance(got, UnknownDelegation) and "was refused" in got.reason


def _at(tmp_path: Path, name: str, text: str | None) -> Located:
    f = tmp_path / name
    if text is not None:
        f.write_text(text)
    return Located(str(f), (str(f),), (name,), "")


def test_reads_and_writes_are_remembered_with_their_hashes(
    trail: str, transcript: Path, tmp_path: Path
) -> None:
    f = _at(tmp_path, "f.txt", "v1")
    read = _sub(transcript, "PostToolUse", tool_name="Read", tool_input={"file_path": "x"})
    ledger = ledger_for(read, trail)
    after(CONTRACTS, read, ledger, f, ())
    seen = ledger_for(read, trail).seen(f)
    assert isinstance(seen, Seen) and seen.sha256 == ledger.current(f) and not seen.wrote
    (tmp_path / "f.txt").write_text("v2")
    assert ledger.current(f) != seen.sha256  # what STALE_FILE compares
    write = _sub(transcript, "PostToolUse", tool_name="Write", tool_input={"file_path": "x"})
    after(CONTRACTS, write, ledger_for(write, trail), None, [f])
    again = ledger_for(write, trail).seen(f)
    assert isinstance(again, Seen) and again.wrote and again.sha256 == ledger.current(f)


def test_a_subagents_write_leases_the_file_until_it_stops(
    trail: str, transcript: Path, tmp_path: Path
) -> None:
    _launch(trail, transcript)
    _link(trail, transcript)
    f = _at(tmp_path, "f.txt", "v1")
    write = _sub(transcript, "PostToolUse", tool_name="Write", tool_input={"file_path": "x"})
    after(CONTRACTS, write, ledger_for(write, trail), None, [f])
    other = ledger_for(_sub(transcript, agent_id="a2", tool_name="Write"), trail)
    assert other.lease(f) == Lease("a1", "fix it")
    stop = _sub(transcript, "SubagentStop", stop_hook_active=False)
    assert lifecycle(CONTRACTS, stop, ledger_for(stop, trail), Phase.ENFORCE, False)[0] == ""
    assert other.lease(f) is None


@pytest.mark.parametrize(
    ("phase", "bypass", "active", "blocks"),
    [
        (Phase.ENFORCE, False, False, True),
        (Phase.ASK, False, False, True),
        (Phase.WARN, False, False, False),
        (Phase.ENFORCE, True, False, False),
        (Phase.ENFORCE, False, True, False),
    ],
    ids=["enforce", "ask", "warn", "bypass", "stop-hook-active"],
)
def test_a_coder_that_stops_without_writing(
    trail: str, transcript: Path, phase: Phase, bypass: bool, active: bool, blocks: bool
) -> None:
    stop = _sub(transcript, "SubagentStop", stop_hook_active=active)
    out, audit = lifecycle(CONTRACTS, stop, ledger_for(stop, trail), phase, bypass)
    assert bool(out) is blocks
    assert audit["deliverables"]["missing"] == [["write", 0, 1]]
    if blocks:
        answer = json.loads(out)
        assert answer["decision"] == "block" and "1 file change" in answer["reason"]
        # the next stop (the subagent did not deliver) is let through: at most once
        again = ledger_for(stop, trail)
        assert lifecycle(CONTRACTS, stop, again, phase, bypass)[0] == ""


def test_a_coder_that_wrote_stops(trail: str, transcript: Path, tmp_path: Path) -> None:
    write = _sub(transcript, "PostToolUse", tool_name="Write", tool_input={"file_path": "x"})
    after(CONTRACTS, write, ledger_for(write, trail), None, [_at(tmp_path, "f", "x")])
    stop = _sub(transcript, "SubagentStop", stop_hook_active=False)
    out, audit = lifecycle(CONTRACTS, stop, ledger_for(stop, trail), Phase.ENFORCE, False)
    assert out == "" and audit["deliverables"]["missing"] == []


def test_an_unreachable_store_never_blocks_a_stop(tmp_path: Path, transcript: Path) -> None:
    (tmp_path / "file").write_text("")
    trail = str(tmp_path / "file" / "audit.jsonl")
    stop = _sub(transcript, "SubagentStop", stop_hook_active=False)
    out, audit = lifecycle(CONTRACTS, stop, ledger_for(stop, trail), Phase.ENFORCE, False)
    assert (out, audit) == ("", {"state": "unavailable"})
    call = _sub(transcript, tool_name="Write")
    ledger = ledger_for(call, trail)
    assert ledger.record() == UnknownDelegation("a1", "the state store is unavailable")


def test_session_end_cleans_but_a_resumed_subagent_keeps_its_contract(
    trail: str, transcript: Path
) -> None:
    """``claude --resume`` goes on with the same session id after SessionEnd, and SendMessage
    resumes a subagent under its old agent id (seen on 2.1.330): it runs under the contract
    it was started with, never as an unknown, unnarrowed subagent (ADR 0065)."""
    _launch(trail, transcript)
    _link(trail, transcript)
    before_end = ledger_for(_sub(transcript, tool_name="Read"), trail).record()
    end = _payload(transcript, "SessionEnd")
    assert lifecycle(CONTRACTS, end, ledger_for(end, trail), Phase.ENFORCE, False) == (
        "",
        {"state": "cleaned"},
    )
    got = ledger_for(_sub(transcript, tool_name="Read"), trail).record()
    assert isinstance(got, Delegation) and got == before_end
