"""Claude Code 2.1.330 reads project settings only from the folder it starts in: a session
started in ``src/`` of a guarded project runs none of its hooks. ``doctor`` run there says so
and names the folder to start in (ADR 0052)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Project

pytestmark = pytest.mark.e2e


def boundary(project: Project, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env.update(HOME=str(project.home), ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    env["ORCHESTRATOR_BOUNDARY_MANAGED_SETTINGS"] = str(project.tmp / "managed.json")
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=180,
        check=False,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done


def start_check(project: Project, cwd: Path) -> dict[str, Any]:
    checks = json.loads(boundary(project, cwd, "doctor", "--json").stdout)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "start-folder")
    return found


def test_a_session_started_in_a_subfolder_is_unguarded_and_doctor_says_so(
    harness: Harness,
) -> None:
    project = harness.project(files={"src/app.py": ""}, boundary_toml='phase = "enforce"\n')
    boundary(project, project.root, "install")
    src = project.path("src")
    for started, guarded in ((project.root, True), (src, False)):
        target = src / f"from-{started.name}.py"
        run = harness.run(
            dataclasses.replace(project, root=started),
            {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]},
        )
        assert run.result_for("main", 0).is_error is guarded, run.explain(f"started in {started}")
        assert target.exists() is not guarded
    trail = project.path(".claude/boundary/audit.jsonl").read_text(encoding="utf-8")
    assert "from-src.py" not in trail  # the subfolder session left no line: no hook ran
    check = start_check(project, src)
    assert check["status"] == "fail", check
    assert check["message"].startswith(
        f"Claude Code started in {src} runs none of the hooks of {project.root} (phase enforce)"
    )
    assert check["fix"] == f"start claude in the project's folder: cd {project.root} && claude"
    assert start_check(project, project.root)["status"] == "ok"
