"""Files in Claude Code's worktrees are judged as the project's files (ADR 0053, issue 14).

Observed with 2.1.330 offline: EnterWorktree makes ``.claude/worktrees/NAME`` (a checkout of
the project on its own branch) and moves the session there, and an Agent with ``isolation:
"worktree"`` does the same for a subagent; ``CLAUDE_PROJECT_DIR`` stays the original root.
A profile's ``write_scope = ["src/**"]`` matched nothing there, so every subagent write in a
worktree was a SCOPE_VIOLATION, and the main agent lost its ``STATE.md``. The patterns now
also read a worktree's file relative to the worktree; exclusions on either reading still win,
and the worktree's own settings stay protected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
CONFIG = """
[orchestrator]
write_allow = ["STATE.md"]

[agents.coder]
write_scope = ["src/**", "!src/secrets/**"]
"""
WT = ".claude/worktrees/w1/"


def _w(rel: str) -> tuple[str, dict[str, Any]]:
    return "Write", {"file_path": rel, "content": "x"}


def _bash(command: str) -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": command}


# (id, subagent type or None for the main agent, (tool, input), decision, code); the
# session works in the worktree (its cwd), so a relative path in a command lands there
TABLE: list[tuple[str, str | None, tuple[str, dict[str, Any]], str, str | None]] = [
    ("sub-src", "coder", _w(WT + "src/a.py"), "none", None),
    ("sub-src-agent-worktree", "coder", _w(".claude/worktrees/agent-a1b2/src/a.py"), "none",
     None),
    ("sub-docs", "coder", _w(WT + "docs/a.md"), "deny", "SCOPE_VIOLATION"),
    ("sub-excluded", "coder", _w(WT + "src/secrets/k.txt"), "deny", "SCOPE_VIOLATION"),
    ("sub-rm-folder-holding-exclusion", "coder", _bash("rm -rf src"), "deny",
     "SCOPE_VIOLATION"),
    ("sub-bash-src", "coder", _bash("echo x > src/b.py"), "none", None),
    ("sub-worktree-settings", "coder", _w(WT + ".claude/settings.json"), "deny", "TAMPER"),
    ("sub-worktree-env", "coder", _w(WT + "src/.env"), "deny", "TAMPER"),
    ("sub-not-a-worktree-folder", "coder", _w(".claude/worktreesX/w1/src/a.py"), "deny",
     "SCOPE_VIOLATION"),
    ("sub-no-name", "coder", _w(".claude/worktrees/src/a.py"), "deny", "SCOPE_VIOLATION"),
    ("main-state", None, _w(WT + "STATE.md"), "none", None),
    ("main-state-nested", None, _w(WT + "docs/STATE.md"), "deny", "ORCHESTRATOR_WRITE"),
    ("main-src", None, _w(WT + "src/a.py"), "deny", "ORCHESTRATOR_WRITE"),
    # the root's own files keep their verdicts
    ("sub-root-src", "coder", _w("src/a.py"), "none", None),
    ("sub-root-docs", "coder", _w("docs/a.md"), "deny", "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    (p.root / WT / "src" / "secrets").mkdir(parents=True)
    (p.root / WT / ".claude").mkdir()
    p.configure(CONFIG)
    return p


@pytest.mark.parametrize(
    ("agent", "call", "decision", "code"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_a_worktree_file_is_judged_as_the_project_file(
    project: Project,
    agent: str | None,
    call: tuple[str, dict[str, Any]],
    decision: str,
    code: str | None,
) -> None:
    tool, tool_input = call
    if "file_path" in tool_input:
        tool_input = {**tool_input, "file_path": str(project.root / tool_input["file_path"])}
    data = project.payload(tool, tool_input, agent=agent, cwd=str(project.root / WT))
    _, rec = project.call(data, env=ENFORCE)
    assert (rec["decision"], rec["code"]) == (decision, code)
