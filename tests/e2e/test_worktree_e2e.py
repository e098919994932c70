"""A second checkout of a guarded repository under the real CLI 2.1.330 (round twelve, ADR
0084): the main agent moves its session into a git worktree with Claude Code's own
``EnterWorktree`` tool, then writes there. Checked, no change needed: the hooks keep the session's project
(``CLAUDE_PROJECT_DIR`` stays the main checkout), so the write is judged by its config and
recorded in its trail; the worktree gets no trail of its own."""

from __future__ import annotations

import json
import subprocess

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness
from test_start_folder_e2e import boundary

pytestmark = pytest.mark.e2e


def git(root: object, *argv: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=a", "-c", "user.email=a@b", *argv],
        check=True,
        capture_output=True,
        timeout=60,
    )


def test_a_session_moved_into_a_worktree_is_still_guarded(harness: Harness) -> None:
    project = harness.project(
        files={"src/app.py": ""}, boundary_toml='phase = "enforce"\n', git=True
    )
    boundary(project, project.root, "install", "--project", str(project.root), "--force")
    git(project.root, "add", "-A")
    git(project.root, "commit", "-qm", "guarded")
    tree = project.root / ".claude" / "worktrees" / "feat"
    steps = [
        Call("EnterWorktree", {"name": "feat"}),
        Call("Write", {"file_path": str(tree / "src" / "new.py"), "content": "x\n"}),
        Text(),
    ]
    run = harness.run(project, {"main": steps})
    assert not run.result_for("main", 0).is_error, run.explain("EnterWorktree failed")
    wrote = run.result_for("main", 1)
    assert wrote.is_error and "ORCHESTRATOR_WRITE" in wrote.text, run.explain("not guarded")
    assert not (tree / "src" / "new.py").exists()
    # judged as the main checkout's call: its config, its trail; the worktree has none
    trail = project.root / ".claude" / "boundary" / "audit.jsonl"
    lines = [json.loads(line) for line in trail.read_text().splitlines()]
    assert [(r["tool_name"], r["decision"]) for r in lines if r["event"] == "PreToolUse"] == [
        ("EnterWorktree", "none"),
        ("Write", "deny"),
    ]
    assert not (tree / ".claude" / "boundary").exists()
