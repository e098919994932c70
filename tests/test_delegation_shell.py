"""Delegation contracts through the hook shell, in process (ADR 27): Agent calls checked, the
contract reaching the subagent, audit lines carrying it, leases in warn, SubagentStop's answer,
and lifecycle events that never block by accident."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

from orchestrator_boundary import shell

CONFIG = textwrap.dedent(
    """\
    phase = "enforce"
    [intents."auth"]
    owned_scope = ["src/auth/**"]
    description = "login fix"
    [delegation]
    leases = "warn"
    [agents.coder]
    requires = ["write"]
    """
)


@pytest.fixture
def env(project: Path) -> dict[str, str]:
    (project / ".claude" / "boundary.toml").write_text(CONFIG)
    return {"CLAUDE_PROJECT_DIR": str(project), "HOME": str(project.parent / "home")}


def _p(project: Path, event: str, tool: str = "", tool_input: Any = None, **kw: Any) -> dict:
    data = {
        "session_id": "s1",
        "transcript_path": str(project.parent / "sess.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        **kw,
    }
    if tool:
        data.update(tool_name=tool, tool_input=tool_input or {})
    return data


def _audit(project: Path) -> list[dict[str, Any]]:
    text = (project / ".claude" / "boundary" / "audit.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _launch(project: Path, env: dict[str, str], agent: str, prompt: str = "Intent: auth") -> None:
    agent_input = {"description": f"work {agent}", "prompt": prompt, "subagent_type": "coder"}
    pre = _p(project, "PreToolUse", "Agent", agent_input, tool_use_id=f"t-{agent}")
    assert run_hook(pre, env)[1] is None
    resp = {"status": "async_launched", "agentId": agent}
    post = _p(
        project, "PostToolUse", "Agent", agent_input, tool_use_id=f"t-{agent}", tool_response=resp
    )
    run_hook(post, env, "PostToolUse")


def _write(project: Path, agent: str, rel: str, event: str = "PreToolUse") -> dict:
    path = str(project / rel)
    return _p(
        project, event, "Write", {"file_path": path, "content": "x"},
        agent_id=agent, agent_type="coder", tool_use_id=f"w-{agent}-{rel}",
        **({"tool_response": {"success": True}} if event == "PostToolUse" else {}),
    )  # fmt: skip


def test_an_unknown_intent_is_refused_before_the_agent_runs(project: Path, env: dict) -> None:
    agent_input = {"description": "d", "prompt": "Intent: nope", "subagent_type": "coder"}
    _, out, _ = run_hook(_p(project, "PreToolUse", "Agent", agent_input, tool_use_id="t"), env)
    assert out is not None
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "DELEGATION_INVALID" in specific["permissionDecisionReason"]
    assert "Active intents: auth (login fix: src/auth/**)" in specific["permissionDecisionReason"]


def test_the_contract_reaches_the_subagent_and_its_audit_lines(project: Path, env: dict) -> None:
    _launch(project, env, "a1")
    assert run_hook(_write(project, "a1", "src/auth/ok.py"), env)[1] is None
    _, out, _ = run_hook(_write(project, "a1", "src/billing.py"), env)
    assert out is not None and "DELEGATION_SCOPE" in json.dumps(out)
    lines = [r for r in _audit(project) if r.get("agent_id") == "a1"]
    assert [r["delegation"]["intent"] for r in lines] == ["auth", "auth"]
    assert lines[1]["code"] == "DELEGATION_SCOPE"
    assert {r["delegation"]["tool_use_id"] for r in lines} == {"t-a1"}


def test_warn_leases_are_recorded(project: Path, env: dict) -> None:
    _launch(project, env, "a1")
    _launch(project, env, "a2")
    (project / "src" / "auth").mkdir(parents=True)
    (project / "src" / "auth" / "f.py").write_text("x")
    run_hook(_write(project, "a1", "src/auth/f.py", "PostToolUse"), env, "PostToolUse")
    read = _p(project, "PostToolUse", "Read", {"file_path": str(project / "src/auth/f.py")},
              agent_id="a2", agent_type="coder", tool_use_id="r-a2", tool_response={})  # fmt: skip
    run_hook(read, env, "PostToolUse")  # a2 has read a1's change: not a stale write
    _, out, _ = run_hook(_write(project, "a2", "src/auth/f.py"), env)
    assert out is None  # warn: not blocked
    last = _audit(project)[-1]
    assert last["leased_to"] == {"src/auth/f.py": "work a1 (a1)"}


def test_warn_leases_leave_no_note_for_a_command_that_overwrites_nothing(
    project: Path, env: dict
) -> None:
    """enforce lets `mkdir` beside another agent's file through (ADR 0065); warn recorded a
    `leased_to` note for it, which `report` counted as a lease conflict."""
    _launch(project, env, "a1")
    _launch(project, env, "a2")
    (project / "src" / "auth").mkdir(parents=True)
    (project / "src" / "auth" / "f.py").write_text("x")
    run_hook(_write(project, "a1", "src/auth/f.py", "PostToolUse"), env, "PostToolUse")

    def bash(command: str, n: int) -> dict:
        return _p(project, "PreToolUse", "Bash", {"command": command}, agent_id="a2",
                  agent_type="coder", tool_use_id=f"b-a2-{n}")  # fmt: skip

    run_hook(bash("mkdir -p src/auth", 1), env)
    assert "leased_to" not in _audit(project)[-1]
    read = _p(project, "PostToolUse", "Read", {"file_path": str(project / "src/auth/f.py")},
              agent_id="a2", agent_type="coder", tool_use_id="r-a2", tool_response={})  # fmt: skip
    run_hook(read, env, "PostToolUse")  # not stale: the lease is what is left to note
    run_hook(bash("echo y > src/auth/f.py", 2), env)
    assert _audit(project)[-1]["leased_to"] == {"src/auth/f.py": "work a1 (a1)"}


def test_a_coder_stop_without_a_write_is_blocked_once(project: Path, env: dict) -> None:
    _launch(project, env, "a1")
    stop = _p(project, "SubagentStop", agent_id="a1", agent_type="coder", stop_hook_active=False)
    code, out, _ = run_hook(stop, env, "SubagentStop")
    assert code == 0 and out is not None and out["decision"] == "block"
    assert "1 file change" in out["reason"]
    again = {**stop, "stop_hook_active": True}
    assert run_hook(again, env, "SubagentStop")[1] is None
    lines = [r for r in _audit(project) if r["event"] == "SubagentStop"]
    assert [r["deliverables"]["blocked"] for r in lines] == [True, False]


@pytest.mark.parametrize("event", ["SubagentStop", "SessionEnd", "Stop"])
def test_a_lifecycle_event_that_cannot_be_judged_never_blocks(
    project: Path, env: dict, event: str
) -> None:
    answer, _, rec = shell._cannot_judge(RuntimeError("boom"), 3, env, event, str(project))
    assert answer.exit_code == 0 and rec["decision"] == "none"
    answer, _, _ = shell._cannot_judge(RuntimeError("boom"), 3, env, "PreToolUse", str(project))
    assert answer.exit_code == 2  # a tool call still fails closed in enforce


def test_the_session_summary_at_stop(project: Path, env: dict) -> None:
    config = project / ".claude" / "boundary.toml"
    config.write_text(config.read_text() + "[report]\nstop_summary = true\n")
    _launch(project, env, "a1")
    run_hook(_write(project, "a1", "src/billing.py"), env)
    _, out, _ = run_hook(_p(project, "Stop", stop_hook_active=False), env, "Stop")
    assert out is not None
    assert "work a1 [intent auth]" in out["systemMessage"]
    assert "DELEGATION_SCOPE x1" in out["systemMessage"]
