"""A new team's journey, attacked, under the real CLI (ADR 0058).

Windows machine-local entries are exec form (``command`` + ``args``, no shell). The CLI starts
exec form the same way on Linux, so the entry's ``args`` run here exactly as written for
Windows, with this machine's paths.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Project
from test_package_gone_e2e import a_write_follows_the_phase
from test_team_e2e import BARE_PATH, two_machines

from orchestrator_boundary import registration

pytestmark = pytest.mark.e2e


def exec_form_project(harness: Harness, phase: str, launcher_py: str) -> Project:
    """A project whose local settings hold Windows-shaped exec-form entries for ``phase``."""
    project = harness.project(boundary_toml=f'phase = "{phase}"\n')
    hooks: dict[str, list[dict[str, object]]] = {}
    for event in registration.EVENTS:
        args = registration.exec_args(launcher_py, [event])
        base = {"type": "command", "command": sys.executable, "args": args}
        entry = registration.hook_entry(base, phase, 10, event)
        group = {"matcher": "*"} if registration.matcher(event) else {}
        hooks[event] = [{**group, "hooks": [entry]}]
    text = json.dumps({"hooks": hooks})
    project.path(".claude/settings.local.json").write_text(text, encoding="utf-8")
    return project


@pytest.mark.parametrize(
    ("phase", "blocked"),
    [("warn", False), ("enforce", True)],
    ids=["warn lets the call through", "enforce blocks and says what to do"],
)
def test_an_exec_form_entry_whose_package_is_gone_follows_the_phase(
    harness: Harness, phase: str, blocked: bool
) -> None:
    gone = harness.base / "gone venv" / "orchestrator_boundary" / "launcher.py"
    project = exec_form_project(harness, phase, str(gone))
    a_write_follows_the_phase(harness, project, phase, blocked, gone)


def test_an_exec_form_entry_runs_the_hook(harness: Harness) -> None:
    project = exec_form_project(harness, "enforce", registration.LAUNCHER_PY)
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]})
    got = run.result_for("main", 0)
    assert got.is_error and "ORCHESTRATOR_WRITE" in got.text, run.explain("exec form")
    assert not project.path("new.txt").exists()


@pytest.mark.parametrize(
    ("phase", "blocked"),
    [("warn", False), ("enforce", True)],
    ids=["warn lets the call through", "enforce says how to install"],
)
def test_a_teammate_whose_git_checks_out_crlf_gets_a_launcher_sh_can_run(
    harness: Harness, phase: str, blocked: bool
) -> None:
    """Git for Windows checks text out with CRLF by default (core.autocrlf=true); sh then
    failed on the committed launcher with a syntax error and exit 2, blocking every call of
    every phase. Install commits a .gitattributes line that keeps it LF (ADR 0058)."""
    _, b = two_machines(harness, phase, ("-c", "core.autocrlf=true"))
    assert b"\r\n" in b.path("README.md").read_bytes()  # the clone really is CRLF
    write = Call("Write", {"file_path": str(b.path("new.txt")), "content": "x\n"})
    run = harness.run(b, {"main": [write, Text()]}, env={"PATH": BARE_PATH})
    got = run.result_for("main", 0)
    assert got.is_error is blocked, run.explain(f"phase {phase}")
    assert "syntax error" not in got.text.lower() and "unexpected" not in got.text
    if blocked:
        assert "orchestrator-boundary is not installed on this machine" in got.text
    attrs = subprocess.run(
        ["git", "check-attr", "eol", "--", ".claude/orchestrator-boundary/launch.sh"],
        cwd=b.root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert attrs.stdout.strip().endswith("eol: lf")
