"""An MCP tool that changes files, handed a glob (ADR 0074).

``mcp__fs__write_files {"glob": ".claude/*.json", ...}`` was read as a file literally named
``.claude/*.json``, which no protected pattern matches, so a subagent's call went through;
round ten's policy attack left it for the targets. A glob in the input of a tool whose name
says it changes files is now read as a Bash glob is: TAMPER when it could name a protected
file. A tool whose name says it reads or searches keeps its verdict, so a subagent's
``**/*.json`` search is not refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

ROWS: list[tuple[str, dict[str, Any], str]] = [
    ("mcp__fs__write_files", {"glob": ".claude/*.json", "content": "{}"}, "deny"),
    ("mcp__fs__delete_files", {"path": ".claude/settings.*"}, "deny"),
    ("mcp__fs__replace_in_files", {"files": ["**/settings.json"], "text": "x"}, "deny"),
    ("mcp__fs__write_files", {"glob": "src/*.py", "content": "x"}, "-"),
    ("mcp__fs__search_files", {"pattern": "**/*.json"}, "-"),
    ("mcp__fs__list_directory", {"path": ".claude/*"}, "-"),
]


@pytest.mark.parametrize(
    ("tool", "tool_input", "decision"), ROWS, ids=[r[0] + str(i) for i, r in enumerate(ROWS)]
)
def test_a_glob_given_to_a_tool_that_changes_files_meets_the_protected_set(
    tmp_path: Path, tool: str, tool_input: dict[str, Any], decision: str
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{}\n")
    (tmp_path / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    payload = {
        "session_id": "s1",
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "agent_id": "a1",
        "agent_type": "general-purpose",
    }
    out = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(tmp_path), "HOME": str(tmp_path / "h")})[1]
    got = "-" if out is None else out["hookSpecificOutput"]["permissionDecision"]
    assert got == decision
