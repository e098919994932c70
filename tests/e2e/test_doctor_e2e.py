"""What ``doctor`` says, checked against what the real CLI does (issue 14, point 9).

- Both routes active: the CLI really runs our hooks twice for one call, and doctor says so.
- Claude Code's own permission rules refusing subagents' writes: the CLI really refuses the
  subagent's Write, and doctor's subagent-writes check says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text, marker
from harness import Harness, Hooks, Project

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]


def boundary(project: Project, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env.update(
        HOME=str(project.home),
        ORCHESTRATOR_BOUNDARY_MANAGED_SETTINGS=str(project.tmp / "managed.json"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary.cli", *argv, "--project", str(project.root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=False,
    )
    if check:
        assert done.returncode in (0, 1), done.stdout + done.stderr
    return done


def doctor(project: Project, *extra: str) -> dict[str, dict[str, Any]]:
    done = boundary(project, "doctor", "--json", *extra)
    return {c["name"]: c for c in json.loads(done.stdout)["checks"]}


def records(project: Project) -> list[dict[str, Any]]:
    trail = project.path(".claude/boundary/audit.jsonl")
    return [json.loads(x) for x in trail.read_text(encoding="utf-8").splitlines() if x]


def test_both_routes_judge_every_call_twice_and_doctor_says_so(harness: Harness) -> None:
    project = harness.project(Hooks.plugin(REPO), boundary_toml='phase = "warn"\n')
    boundary(project, "install")
    run = harness.run(
        project,
        {"main": [Call("Read", {"file_path": str(project.path(".claude/boundary.toml"))}), Text()]},
    )
    [call] = run.calls("main")
    pre = [
        r
        for r in records(project)
        if r.get("tool_use_id") == call.tool_use_id and r.get("event") == "PreToolUse"
    ]
    assert len(pre) == 2, run.explain(f"expected two PreToolUse records: {pre}")
    checks = doctor(project, "--plugin-dir", str(REPO))
    assert checks["hooks"]["status"] == "warn"
    assert "every call is judged twice" in checks["hooks"]["message"]


def test_a_deny_rule_that_refuses_subagents_writes_is_reported(harness: Harness) -> None:
    project = harness.project(boundary_toml='phase = "enforce"\n')
    boundary(project, "install")
    settings = project.path(".claude/settings.json")
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["permissions"] = {"deny": ["Write"]}
    settings.write_text(json.dumps(data), encoding="utf-8")
    target = project.path("src/by_subagent.py")
    run = harness.run(
        project,
        {
            "main": [
                Call(
                    "Agent",
                    {
                        "description": "Make the change",
                        "subagent_type": "general-purpose",
                        "prompt": f"Make the change. {marker('sub')}",
                    },
                ),
                Text(),
            ],
            "sub": [Call("Write", {"file_path": str(target), "content": "y = 2\n"}), Text()],
        },
    )
    got = run.result_for("sub", 0)
    assert got.is_error and "orchestrator-boundary" not in got.text, run.explain("not refused")
    assert not target.exists()
    checks = doctor(project)
    assert checks["subagent-writes"]["status"] == "fail", checks["subagent-writes"]
    assert "deny rule 'Write'" in checks["subagent-writes"]["message"]
