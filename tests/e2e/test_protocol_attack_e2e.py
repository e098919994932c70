"""The hook's answers in the shapes the real CLI reads (ADR 0057), where a unit test cannot say:

- a deny that stdout cannot take (here: the command closes it, ``>&-``) still blocks, as exit
  2 with its reason on stderr; before, the hook crashed with exit 1 and the Write went through;
- PostToolUse's ``{"decision": "block", "reason": ...}`` reaches the model after a write the
  PreToolUse hook never saw.

The product's registered command (``python -I -S .../launcher.py EVENT``) is written into the
project's settings by hand, so each test chooses which events it hears.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Hooks

import orchestrator_boundary

pytestmark = pytest.mark.e2e

LAUNCHER = Path(orchestrator_boundary.__file__).parent / "launcher.py"
BRAND = "orchestrator-boundary"
ENFORCE = 'phase = "enforce"\n'


def registered(event: str, tail: str = "") -> str:
    """The command ``install`` registers for ``event``, plus shell text after it."""
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), event]
    return " ".join(shlex.quote(a) for a in argv) + tail


def test_a_deny_with_stdout_closed_still_blocks_the_write(harness: Harness) -> None:
    project = harness.project(
        Hooks.commands(pre=[registered("PreToolUse", " >&-")]), boundary_toml=ENFORCE
    )
    target = project.path("main_wrote.py")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    got = run.result_for("main", 0)
    assert got.is_error and f"{BRAND} blocked Write" in got.text, run.explain("not blocked")
    assert not target.exists()


def test_a_post_tool_use_block_reaches_the_model(harness: Harness) -> None:
    project = harness.project(
        Hooks.commands(post=[registered("PostToolUse")]), boundary_toml=ENFORCE
    )
    target = project.path("main_wrote.py")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    assert target.exists()  # no PreToolUse hook: the Write ran
    told = run.context_after("main", 0)
    assert "already ran although the boundary does not allow it" in told, run.explain("no block")
    assert f"{BRAND} blocked Write" in told


def test_moving_the_project_away_does_not_switch_the_guard_off(harness: Harness) -> None:
    """ADR 0063. The main agent runs a program (opaque: allowed by default) that renames the
    project's folder. Claude Code keeps ``CLAUDE_PROJECT_DIR`` on the old path, where no
    config is; the hook judged every later call as a project without one (warn), and the
    main agent's Write into the moved project went through in enforce."""
    project = harness.project(
        Hooks.commands(pre=[registered("PreToolUse")]),
        boundary_toml=ENFORCE,
        files={"tools/mv.py": "import os\nos.rename(os.getcwd(), os.getcwd() + '-moved')\n"},
    )
    moved = Path(f"{project.root}-moved")
    moved.mkdir()  # empty: the rename takes its place; Claude Code may write there (--add-dir)
    target = moved / "src" / "main_wrote.py"
    run = harness.run(
        project,
        {
            "main": [
                Call("Bash", {"command": "python3 tools/mv.py"}),
                Call("Write", {"file_path": str(target), "content": "x\n"}),
                Text(),
            ]
        },
        extra_args=["--allowedTools", "Bash,Write", "--add-dir", str(moved)],
    )
    assert (moved / "tools" / "mv.py").exists(), run.explain("the folder was not moved")
    got = run.result_for("main", 1)
    assert got.is_error and "is gone (moved or removed" in got.text, run.explain("not blocked")
    assert not target.exists()
