"""Point 11: every input gets a deliberate answer; nothing fails open by accident."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BAD = [
    ("empty", b""),
    ("whitespace", b"  \n"),
    ("not-json", b"{not json"),
    ("json-array", b"[1, 2]"),
    ("json-string", b'"PreToolUse"'),
    ("no-event", b'{"tool_name": "Write", "tool_input": {}}'),
    ("no-tool-name", b'{"hook_event_name": "PreToolUse", "tool_input": {}}'),
    ("no-tool-input", b'{"hook_event_name": "PreToolUse", "tool_name": "Write"}'),
    (
        "tool-input-wrong-type",
        b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": "x"}',
    ),
    (
        "agent-id-wrong-type",
        b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {}, "agent_id": 5}',
    ),
    ("deep-nesting", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
    ("invalid-utf8", b'{"hook_event_name": "\xff\xfe"}'),
    ("huge", b'{"hook_event_name": "PreToolUse", "x": "' + b"a" * (33 * 1024 * 1024) + b'"}'),
]


@pytest.mark.parametrize("phase", ["enforce", "ask"])
@pytest.mark.parametrize("raw", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_blocks_in_enforce_and_ask(project: Path, raw: bytes, phase: str) -> None:
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    rc, out, err = run_hook(raw, env)
    assert (rc, out) == (2, None)
    assert err.startswith("orchestrator-boundary: cannot judge this call: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    rec = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert rec["error"] and rec["decision"] == "deny"


@pytest.mark.parametrize("phase", ["warn", "off"])
@pytest.mark.parametrize("raw", [b[1] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_goes_through_and_is_recorded_in_warn_and_off(
    project: Path, raw: bytes, phase: str
) -> None:
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    rc, out, err = run_hook(raw, env)
    deep = raw.startswith(b'{"a":{"a":')
    assert (rc, out) == ((2, None) if deep and phase == "warn" else (0, None))
    assert "cannot judge" in err
    rec = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert rec["error"] and rec["decision"] == ("deny" if deep and phase == "warn" else "none")


def _blocked(rc: int, out: dict[str, Any] | None, err: str) -> bool:
    """Blocked as TAMPER is: exit 2 (the parser gave up: how deep that is depends on the
    Python version), or a deny of the walk's unchecked input (the parser read it)."""
    if rc == 2:
        return out is None and "nested too deeply to check" in err
    hook = (out or {}).get("hookSpecificOutput", {})
    return hook.get("permissionDecision") == "deny" and "TAMPER" in hook.get(
        "permissionDecisionReason", ""
    )


@pytest.mark.parametrize("depth", [1_000, 5_000, 100_000])
def test_input_nested_past_the_parser_is_blocked_in_warn_as_tamper_is(
    project: Path, depth: int
) -> None:
    """An MCP tool takes any shape: a write of .claude/settings.json with an option nested
    ~1,000 levels deep could not be read at all (RecursionError), and warn let it through. What
    cannot be read could name a protected file, so it is blocked in every phase but off."""
    settings = json.dumps(str(project / ".claude" / "settings.json"))
    cwd, deep = json.dumps(str(project)), "[" * depth + "1" + "]" * depth
    raw = (
        f'{{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": {cwd}, "tool_name": '
        f'"mcp__fs__write_file", "tool_input": {{"path": {settings}, "content": "{{}}", '
        f'"options": {deep}}}, "agent_id": "a1", "agent_type": "general-purpose"}}'
    ).encode()
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    assert _blocked(*run_hook(raw, env))
    env["AMPLIFIER_BYPASS_BOUNDARY"] = "1"
    assert _blocked(*run_hook(raw, env))  # the bypass does not open it, as for TAMPER
    env["ORCHESTRATOR_BOUNDARY_PHASE"] = "off"
    assert run_hook(raw, env)[:2] == (0, None)


def test_internal_error_is_a_deliberate_answer(
    project: Path, make_payload: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator_boundary import shell

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(shell, "judge", boom)
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    rc, out, err = run_hook(make_payload("Read", {}), env)
    assert (rc, out) == (2, None) and "internal error (RuntimeError: simulated bug)" in err
    rec = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert "Traceback" in rec["traceback"] and rec["tool_name"] == "Read"


def test_unwritable_audit_trail_keeps_the_verdict_and_the_record(
    project: Path, make_payload: Any
) -> None:
    (project / ".claude/boundary").write_text("a file where the folder should be")
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    rc, out, err = run_hook(make_payload("Write", {"file_path": str(project / "a")}), env)
    assert rc == 0 and out["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]
    assert "audit trail not writable" in err and '"ORCHESTRATOR_WRITE"' in err


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=300))
def test_random_bytes_get_a_deliberate_answer(project: Path, raw: bytes) -> None:
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    rc, out, _ = run_hook(raw, env)
    assert rc in (0, 2)
    assert rc == 2 or out is None or isinstance(out, dict)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.fixed_dictionaries(
        {},
        optional={
            "hook_event_name": st.sampled_from(["PreToolUse", "PostToolUse", "Stop"]) | json_values,
            "tool_name": st.sampled_from(["Write", "Bash", "Read", "mcp__x"]) | json_values,
            "tool_input": json_values,
            "agent_id": json_values,
            "cwd": json_values,
        },
    )
)
def test_random_json_gets_a_deliberate_answer(project: Path, data: dict[str, Any]) -> None:
    for phase, allowed in (("enforce", (0, 2)), ("warn", (0,))):
        env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
        rc, out, _ = run_hook(json.dumps(data).encode(), env)
        assert rc in allowed
        if out is not None:
            assert set(out) <= {"hookSpecificOutput", "systemMessage", "decision", "reason"}


def test_a_deleted_working_folder_still_gets_a_deliberate_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    rc, out, err = run_hook(b"not json", env)
    assert (rc, out) == (2, None)
    assert err.startswith("orchestrator-boundary: cannot judge this call")
    assert "audit trail not writable" in err  # and the record is on stderr, not lost


@pytest.mark.parametrize("named", ["FooBar", "pretooluse", "", "PostToolUse", "UserPromptSubmit"])
def test_a_tool_hook_given_another_event_blocks_in_enforce(project: Path, named: str) -> None:
    """The PreToolUse command judged a main-agent Write named as another event as nothing
    (exit 0, decision none) in enforce. Claude Code names the event it runs the hook for; an
    input that names another cannot be judged as that call."""
    raw = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": named,
        "tool_name": "Write",
        "tool_input": {"file_path": str(project / "src" / "a.py"), "content": "x"},
    }
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    rc, out, err = run_hook(raw, env)
    assert (rc, out) == (2, None) and "registered for PreToolUse" in err, err
    stop = {"session_id": "s", "cwd": str(project), "hook_event_name": "Stop"}
    assert run_hook(stop, env)[0] == 0  # a lifecycle event is only observed, never blocked


def test_a_deny_naming_a_huge_path_stays_a_bounded_answer(project: Path) -> None:
    """A deny naming a 900,000-character path repeated its display several times: a 4.5 MB
    answer, past the evaluator's reply limit (the client then judged and recorded the call a
    second time). Every message is cut at 64 KiB, and the deny stays a deny."""
    from orchestrator_boundary import wire

    path = str(project / "src" / ("x" * 900_000))
    raw = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "x"},
    }
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    from orchestrator_boundary.shell import evaluate

    answer = evaluate(json.dumps(raw).encode(), env)
    assert len(answer.stdout) < wire.MAX_REPLY_BYTES // 16, len(answer.stdout)
    hook = json.loads(answer.stdout)["hookSpecificOutput"]
    assert (
        hook["permissionDecision"] == "deny"
        and "characters cut)" in hook["permissionDecisionReason"]
    )
