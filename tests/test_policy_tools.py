"""The tool table's wiring into the policy: which key holds an execute tool's command, Code
Mode, and retired tool names in profiles (tools.COMMAND_KEYS, tools.expand_profile_names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

from orchestrator_boundary.config_schema import validate
from orchestrator_boundary.ruleset import compile_config

CONFIG = """
[bash]
opaque = "deny"

[orchestrator]
allow_tools = ["TodoWrite"]

[agents.planner]
tools = ["Read", "TodoWrite"]

[agents.legacy-writer]
tools = ["Read", "MultiEdit"]
write_scope = ["docs/**"]
"""

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    p.configure(CONFIG)
    return p


# (id, agent, tool, input, decision in enforce, code)
TABLE: list[tuple[str, str | None, str, dict[str, Any], str, str | None]] = [
    ("main-repl-code", None, "REPL", {"code": "await Read({})"}, "deny", "BASH_OPAQUE"),
    ("main-javascript", None, "JavaScript", {"code": "1"}, "deny", "BASH_OPAQUE"),
    ("sub-repl-code", "general-purpose", "REPL", {"code": "await Bash({})"}, "none", None),
    ("main-monitor-ws", None, "Monitor", {"ws": "wss://example.test/x"}, "none", None),
    ("main-monitor-read", None, "Monitor", {"command": "tail -f log.txt"}, "none", None),
    ("main-monitor-write", None, "Monitor", {"command": "echo x > out.txt"}, "deny", "BASH_WRITE"),
    ("main-powershell", None, "PowerShell", {"command": "Get-ChildItem"}, "none", None),
    ("planner-taskcreate", "planner", "TaskCreate", {"subject": "x"}, "none", None),
    ("planner-taskupdate", "planner", "TaskUpdate", {"taskId": "1"}, "none", None),
    ("planner-write", "planner", "Write", {"file_path": "@ROOT@/a", "content": ""}, "deny",
     "TOOL_NOT_ALLOWED"),
    ("legacy-writer-edit", "legacy-writer", "Edit",
     {"file_path": "@ROOT@/docs/a.md", "old_string": "a", "new_string": "b"}, "none", None),
]  # fmt: skip


def _fill(obj: dict[str, Any], root: Path) -> dict[str, Any]:
    return {k: v.replace("@ROOT@", str(root)) if isinstance(v, str) else v for k, v in obj.items()}


@pytest.mark.parametrize(
    ("agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_execute_tools_and_retired_names(
    project: Project,
    agent: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    got = project.judge(tool, _fill(tool_input, project.root), agent=agent, env=ENFORCE)
    assert got[:2] == (decision, code)


def test_code_mode_reason_says_each_call_is_judged(project: Project) -> None:
    _, _, answer = project.judge("REPL", {"code": "1"}, env=ENFORCE)
    assert "each tool it calls is judged on its own" in answer.stdout


def test_deny_hint_counts_a_profile_with_a_retired_writer() -> None:
    """suggest's candidates: a profile that lists MultiEdit writes (Edit took it over)."""
    rules = compile_config(validate({"agents": {"old": {"tools": ["MultiEdit"]}}}))
    assert [name for name, _ in rules.writers] == ["old"]


def test_allow_tools_covers_the_heirs_of_a_retired_name() -> None:
    rules = compile_config(validate({"orchestrator": {"allow_tools": ["TodoWrite"]}}))
    assert {"TaskCreate", "TaskUpdate", "TodoWrite"} <= set(rules.allow_tools)
