"""Decision tables over the policy: tool class x session kind x phase x config, through the
real hook shell (``shell.evaluate``) with real files under a temporary project."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

EXAMPLE = """
phase = "enforce"
[orchestrator]
write_allow = ["STATE.md", "notes/**"]
[tools]
"mcp__db__query" = "read"
"mcp__github__get_*" = "read"
[agents.coder]
tools = ["Write", "Edit", "Read", "Glob", "Grep", "coordinate"]
write_scope = ["src/**", "tests/**", "!src/generated/**"]
[agents.explorer]
tools = ["Glob", "Grep", "Read", "Bash"]
[agents.reviewer]
tools = ["Read", "Edit", "Bash", "Grep", "Glob", "coordinate"]
write_scope = ["src/**", "!src/vendor/**"]
"""

MAIN: dict[str, Any] = {}
SUB: dict[str, Any] = {"subagent": True, "agent_type": "general-purpose"}
CODER: dict[str, Any] = {"subagent": True, "agent_type": "coder"}
EXPLORER: dict[str, Any] = {"subagent": True, "agent_type": "explorer"}
REVIEWER: dict[str, Any] = {"subagent": True, "agent_type": "reviewer"}
AGENT_MAIN: dict[str, Any] = {"agent_type": "coder"}  # claude --agent coder: still the orchestrator


def W(rel: str) -> dict[str, str]:
    return {"file_path": f"@ROOT@/{rel}", "content": "x"}


# (id, who, tool, input, expected decision in enforce, expected code)
TABLE: list[tuple[str, dict[str, Any], str, dict[str, Any], str, str | None]] = [
    ("main-read", MAIN, "Read", {"file_path": "@ROOT@/src/a.py"}, "none", None),
    ("main-glob", MAIN, "Glob", {"pattern": "**/*.py"}, "none", None),
    ("main-grep", MAIN, "Grep", {"pattern": "x"}, "none", None),
    ("main-ls-legacy", MAIN, "LS", {"path": "@ROOT@"}, "none", None),
    ("main-todowrite", MAIN, "TodoWrite", {"todos": []}, "none", None),
    ("main-taskcreate", MAIN, "TaskCreate", {"subject": "x"}, "none", None),
    ("main-agent", MAIN, "Agent", {"prompt": "do", "subagent_type": "coder"}, "none", None),
    ("main-task-legacy", MAIN, "Task", {"prompt": "do"}, "none", None),
    ("main-webfetch", MAIN, "WebFetch", {"url": "https://x", "prompt": "p"}, "none", None),
    ("main-bashoutput", MAIN, "BashOutput", {"bash_id": "1"}, "none", None),
    ("main-killshell", MAIN, "KillShell", {"shell_id": "1"}, "none", None),
    ("main-slashcommand", MAIN, "SlashCommand", {"command": "/x"}, "none", None),
    ("main-write", MAIN, "Write", W("src/a.py"), "deny", "ORCHESTRATOR_WRITE"),
    (
        "main-edit",
        MAIN,
        "Edit",
        {"file_path": "@ROOT@/src/a.py", "old_string": "a", "new_string": "b"},
        "deny",
        "ORCHESTRATOR_WRITE",
    ),
    (
        "main-multiedit",
        MAIN,
        "MultiEdit",
        {"file_path": "@ROOT@/src/a.py", "edits": []},
        "deny",
        "ORCHESTRATOR_WRITE",
    ),
    (
        "main-notebookedit",
        MAIN,
        "NotebookEdit",
        {"notebook_path": "@ROOT@/n.ipynb", "new_source": ""},
        "deny",
        "ORCHESTRATOR_WRITE",
    ),
    ("main-write-state-md", MAIN, "Write", W("STATE.md"), "none", None),
    ("main-write-nested-state-md", MAIN, "Write", W("docs/STATE.md"), "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-state-md-as-dir", MAIN, "Write", W("STATE.md/x.py"), "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-notes", MAIN, "Write", W("notes/a/b.md"), "none", None),
    (
        "main-write-outside",
        MAIN,
        "Write",
        {"file_path": "/etc/passwd", "content": ""},
        "deny",
        "ORCHESTRATOR_WRITE",
    ),
    (
        "main-write-windows-path",
        MAIN,
        "Write",
        {"file_path": "C:\\Users\\u\\STATE.md"},
        "deny",
        "ORCHESTRATOR_WRITE",
    ),
    ("main-write-dotdot-state", MAIN, "Write", W("src/../STATE.md"), "none", None),
    ("main-write-dotdot-escape", MAIN, "Write", W("../STATE.md"), "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-no-path", MAIN, "Write", {"content": "x"}, "deny", "ORCHESTRATOR_WRITE"),
    ("main-unknown-mcp", MAIN, "mcp__fs__write_file", {"path": "x"}, "deny", "UNKNOWN_TOOL"),
    ("main-unknown-tool", MAIN, "FancyNewTool", {}, "deny", "UNKNOWN_TOOL"),
    ("main-reclassified-mcp", MAIN, "mcp__db__query", {"sql": "select 1"}, "none", None),
    ("main-reclassified-pattern", MAIN, "mcp__github__get_issue", {}, "none", None),
    ("main-pattern-is-anchored", MAIN, "mcp__github__get_issue_then_delete_x", {}, "none", None),
    ("main-pattern-no-prefix", MAIN, "x_mcp__github__get_issue", {}, "deny", "UNKNOWN_TOOL"),
    ("main-agent-type-write", AGENT_MAIN, "Write", W("src/a.py"), "deny", "ORCHESTRATOR_WRITE"),
    ("main-tamper-settings", MAIN, "Write", W(".claude/settings.json"), "deny", "TAMPER"),
    ("sub-write", SUB, "Write", W("src/a.py"), "none", None),
    ("sub-write-anywhere-inside", SUB, "Write", W("docs/deep/x.md"), "none", None),
    (
        "sub-write-outside",
        SUB,
        "Write",
        {"file_path": "/tmp/elsewhere.txt"},
        "deny",
        "SCOPE_VIOLATION",
    ),
    ("sub-unknown-tool", SUB, "mcp__fs__write_file", {}, "none", None),
    ("sub-bash", SUB, "Bash", {"command": "pytest -q"}, "none", None),
    (
        "sub-tamper-boundary-toml",
        SUB,
        "Edit",
        {"file_path": "@ROOT@/.claude/boundary.toml", "old_string": "a", "new_string": "b"},
        "deny",
        "TAMPER",
    ),
    ("coder-write-src", CODER, "Write", W("src/a.py"), "none", None),
    ("coder-write-tests", CODER, "Write", W("tests/test_a.py"), "none", None),
    ("coder-write-generated", CODER, "Write", W("src/generated/x.py"), "deny", "SCOPE_VIOLATION"),
    ("coder-write-docs", CODER, "Write", W("docs/x.md"), "deny", "SCOPE_VIOLATION"),
    ("coder-bash", CODER, "Bash", {"command": "ls"}, "deny", "TOOL_NOT_ALLOWED"),
    ("coder-task-tools", CODER, "TaskUpdate", {}, "none", None),
    ("coder-webfetch", CODER, "WebFetch", {"url": "u"}, "deny", "TOOL_NOT_ALLOWED"),
    ("explorer-write", EXPLORER, "Write", W("src/a.py"), "deny", "TOOL_NOT_ALLOWED"),
    ("explorer-bash", EXPLORER, "Bash", {"command": "ls"}, "none", None),
    ("reviewer-edit-src", REVIEWER, "Edit", {"file_path": "@ROOT@/src/a.py"}, "none", None),
    (
        "reviewer-edit-vendor",
        REVIEWER,
        "Edit",
        {"file_path": "@ROOT@/src/vendor/a.py"},
        "deny",
        "SCOPE_VIOLATION",
    ),
    ("reviewer-write", REVIEWER, "Write", W("src/a.py"), "deny", "TOOL_NOT_ALLOWED"),
    (
        "explorer-tamper-wins-over-profile",
        EXPLORER,
        "Write",
        W(".claude/settings.local.json"),
        "deny",
        "TAMPER",
    ),
]


def _fill(obj: Any, root: Path) -> Any:
    if isinstance(obj, dict):
        return {k: _fill(v, root) for k, v in obj.items()}
    if isinstance(obj, str):
        return obj.replace("@ROOT@", str(root))
    return obj


@pytest.fixture
def configured(project: Path) -> Path:
    (project / ".claude" / "boundary.toml").write_text(EXAMPLE)
    return project


@pytest.mark.parametrize(
    ("who", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_enforce_decision_table(
    configured: Path,
    make_payload: Any,
    who: dict[str, Any],
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    payload = make_payload(tool, _fill(tool_input, configured), **who)
    rc, out, _ = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(configured)})
    assert rc == 0
    if decision == "none":
        assert out is None
    else:
        specific = out["hookSpecificOutput"]  # type: ignore[index]
        assert specific["permissionDecision"] == decision
        assert f"({code})" in specific["permissionDecisionReason"]
    import json

    last = json.loads((configured / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert (last["decision"], last["code"]) == (decision, code)


PHASES = [
    # phase, bypass, expected decision, would_deny, bypassed, has additionalContext, systemMessage
    ("off", False, "none", True, False, False, False),
    ("warn", False, "warn", True, False, True, False),
    ("ask", False, "ask", True, False, False, False),
    ("enforce", False, "deny", True, False, False, False),
    ("enforce", True, "none", True, True, False, True),
    ("warn", True, "none", True, True, False, True),
]


@pytest.mark.parametrize(
    ("phase", "bypass", "decision", "would_deny", "bypassed", "context", "sysmsg"),
    PHASES,
    ids=[f"{p[0]}{'-bypass' if p[1] else ''}" for p in PHASES],
)
def test_phase_applied_to_orchestrator_write(
    project: Path,
    make_payload: Any,
    phase: str,
    bypass: bool,
    decision: str,
    would_deny: bool,
    bypassed: bool,
    context: bool,
    sysmsg: bool,
) -> None:
    import json

    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    if bypass:
        env["AMPLIFIER_BYPASS_BOUNDARY"] = "Yes"
    rc, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert rc == 0
    specific = (out or {}).get("hookSpecificOutput", {})
    assert specific.get("permissionDecision") == (decision if decision in ("deny", "ask") else None)
    assert ("additionalContext" in specific) is context
    assert ("systemMessage" in (out or {})) is sysmsg
    assert "allow" not in json.dumps(out or {}).replace("write_allow", "")
    rec = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert (rec["decision"], rec["would_deny"], rec["bypassed"], rec["phase"]) == (
        decision,
        would_deny,
        bypassed,
        phase,
    )


@pytest.mark.parametrize("phase", ["off", "warn", "ask", "enforce"])
def test_no_violation_means_no_answer_in_every_phase(
    project: Path, make_payload: Any, phase: str
) -> None:
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    for payload in (
        make_payload("Read", {"file_path": str(project / "a")}),
        make_payload("Write", {"file_path": str(project / "a")}, subagent=True),
    ):
        assert run_hook(payload, env) == (0, None, "")


@pytest.mark.parametrize("value", ["true", "TRUE", "1", "yes", "Yes"])
def test_bypass_values(project: Path, make_payload: Any, value: str) -> None:
    env = {
        "CLAUDE_PROJECT_DIR": str(project),
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "AMPLIFIER_BYPASS_BOUNDARY": value,
    }
    rc, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert rc == 0 and out is not None
    assert "bypassed" in out["systemMessage"] and "hookSpecificOutput" not in out


@pytest.mark.parametrize("value", ["", "0", "false", "no", "maybe"])
def test_non_bypass_values_still_block(project: Path, make_payload: Any, value: str) -> None:
    env = {
        "CLAUDE_PROJECT_DIR": str(project),
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "AMPLIFIER_BYPASS_BOUNDARY": value,
    }
    _, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_default_phase_without_config_is_warn(project: Path, make_payload: Any) -> None:
    _, out, _ = run_hook(
        make_payload("Write", {"file_path": str(project / "a.py")}),
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    assert out is not None and "warn phase" in out["hookSpecificOutput"]["additionalContext"]


def test_env_phase_overrides_config(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text('phase = "enforce"\n')
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    _, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert out is not None and "additionalContext" in out["hookSpecificOutput"]


def test_project_root_falls_back_to_payload_cwd(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text('phase = "enforce"\n')
    _, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), {})
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert (project / ".claude/boundary/audit.jsonl").exists()


def test_state_md_symlink_to_elsewhere_is_not_the_exception(
    project: Path, tmp_path: Path, make_payload: Any
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    (project / "STATE.md").symlink_to(outside)
    (project / ".claude/boundary.toml").write_text(
        'phase = "enforce"\n[orchestrator]\nwrite_allow = ["STATE.md"]\n'
    )
    _, out, _ = run_hook(
        make_payload("Write", {"file_path": str(project / "STATE.md")}),
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_deny_reason_serves_model_and_programs(project: Path, make_payload: Any) -> None:
    import json

    (project / ".claude/boundary.toml").write_text(
        'phase = "enforce"\n[agents.coder]\ntools = ["Write", "Edit"]\nwrite_scope = ["src/**"]\n'
    )
    _, out, _ = run_hook(
        make_payload("Write", {"file_path": str(project / "src/app.py")}),
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
    text, last = reason.rsplit("\n", 1)
    data = json.loads(last)
    assert {"error", "reason", "suggestion", "recoverable", "rule", "tool", "path"} <= set(data)
    assert data["error"] == "ORCHESTRATOR_WRITE" and data["path"] == "src/app.py"
    assert data["tool"] == "Write" and data["rule"] == "orchestrator.write_allow"
    assert "Write" in text and "src/app.py" in text and "Agent" in text
    assert '"subagent_type": "coder"' in data["suggestion"]  # a profile that may write src/
