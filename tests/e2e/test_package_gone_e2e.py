"""A machine-local install (local, user or managed scope) whose package was uninstalled or
moved, under the real CLI: Python exits 2 when its script is missing, which Claude Code takes
for "block". The registered command's guard answers as the phase says instead, and the message
says what to do (ADR 0052; ADR 0079: exit 0 or 2 itself, no longer exit 1 for ``onFailure``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_fixtures import (  # noqa: F401 - fixtures
    claude_bin_fixture,
    harness_fixture,
    write_local_entries,
)
from fake_api import Call, Text
from harness import Harness, Project

from orchestrator_boundary import registration

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("phase", "blocked"),
    [("warn", False), ("enforce", True)],
    ids=["warn lets the call through", "enforce blocks and says what to do"],
)
def test_an_uninstalled_package_follows_the_phase(
    harness: Harness, phase: str, blocked: bool
) -> None:
    project = harness.project(boundary_toml=f'phase = "{phase}"\n')
    gone = project.tmp / "gone venv" / "orchestrator_boundary" / "launcher.py"
    entries = registration.entries("local", phase, launcher_py=str(gone))
    write_local_entries(project, entries)
    a_write_follows_the_phase(harness, project, phase, blocked, gone)


def a_write_follows_the_phase(
    harness: Harness, project: Project, phase: str, blocked: bool, gone: Path
) -> None:
    """The main agent's Write, with the registered entries' launcher ``gone``: let through
    in warn, blocked in enforce with the entry's own message (not Python's)."""
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]})
    got = run.result_for("main", 0)
    assert got.is_error is blocked, run.explain(f"phase {phase}")
    assert project.path("new.txt").exists() is not blocked
    if blocked:
        # the guard's own block (exit 2, ADR 0079): no onFailure needed, so CLIs before
        # 2.1.295 block it too
        assert f"orchestrator-boundary: {gone} is gone" in got.text
        assert "can't open file" not in got.text
