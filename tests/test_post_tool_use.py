"""Point 8: PostToolUse records the outcome, with content hashes, and reports writes that
went through although they should not have."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook


def last_record(project: Path) -> dict[str, Any]:
    return json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])


def test_subagent_write_is_traced_with_its_content_hash(project: Path, make_payload: Any) -> None:
    target = project / "src" / "a.py"
    target.write_text("print('hi')\n")
    payload = make_payload(
        "Write",
        {"file_path": str(target), "content": "print('hi')\n"},
        event="PostToolUse",
        subagent=True,
        agent_type="coder",
    )
    rc, out, _ = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)}, event="PostToolUse")
    assert (rc, out) == (0, None)
    rec = last_record(project)
    assert rec["trace"] == [
        {"path": "src/a.py", "sha256": hashlib.sha256(b"print('hi')\n").hexdigest()}
    ]
    assert (
        rec["session_id"],
        rec["agent_id"],
        rec["agent_type"],
        rec["tool_use_id"],
        rec["tool_name"],
    ) == (payload["session_id"], payload["agent_id"], "coder", "toolu_01TEST", "Write")
    assert rec["event"] == "PostToolUse" and "went_through" not in rec


@pytest.mark.parametrize(
    ("phase", "bypass", "blocked"),
    [
        ("enforce", False, True),
        ("warn", False, False),
        ("off", False, False),
        ("enforce", True, False),
    ],
)
def test_orchestrator_write_that_went_through(
    project: Path, make_payload: Any, phase: str, bypass: bool, blocked: bool
) -> None:
    target = project / "a.py"
    target.write_text("x")
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    if bypass:
        env["AMPLIFIER_BYPASS_BOUNDARY"] = "1"
    rc, out, _ = run_hook(
        make_payload("Edit", {"file_path": str(target)}, event="PostToolUse"),
        env,
        event="PostToolUse",
    )
    assert rc == 0
    assert (out is not None and out.get("decision") == "block") is blocked
    if blocked:
        assert "already ran" in out["reason"] and "ORCHESTRATOR_WRITE" in out["reason"]  # type: ignore[index]
    rec = last_record(project)
    assert rec["went_through"] is True and rec["post_block"] is blocked
    assert rec["trace"][0]["sha256"] == hashlib.sha256(b"x").hexdigest()


def test_post_of_a_read_records_without_trace(project: Path, make_payload: Any) -> None:
    rc, out, _ = run_hook(
        make_payload("Read", {"file_path": str(project / "a")}, event="PostToolUse"),
        {"CLAUDE_PROJECT_DIR": str(project)},
        event="PostToolUse",
    )
    assert (rc, out) == (0, None)
    assert "trace" not in last_record(project)


def test_non_tool_events_are_recorded_and_unanswered(project: Path) -> None:
    payload = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "SubagentStop",
        "agent_id": "a1",
        "agent_type": "coder",
    }
    assert run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)}) == (0, None, "")
    assert last_record(project)["event"] == "SubagentStop"
