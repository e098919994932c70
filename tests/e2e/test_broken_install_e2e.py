"""A broken installation (the policy cannot be imported) under the real CLI 2.1.330 (round
eleven, ADR 0079): the call is answered by the phase, let through under the bypass, and each
call leaves its record beside the trail for ``report``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from e2e_fixtures import (  # noqa: F401 - fixtures
    claude_bin_fixture,
    harness_fixture,
    write_local_entries,
)
from fake_api import Call, Text
from harness import Harness

from orchestrator_boundary import client, registration

pytestmark = pytest.mark.e2e
PACKAGE = Path(client.__file__).parent


@pytest.mark.parametrize(
    ("phase", "env", "blocked"),
    [
        ("warn", {}, False),
        ("enforce", {}, True),
        ("enforce", {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, False),
    ],
    ids=["warn: through", "enforce: blocked", "enforce under the bypass: through"],
)
def test_a_broken_installation_answers_by_phase_and_leaves_a_record(
    harness: Harness, phase: str, env: dict[str, str], blocked: bool
) -> None:
    project = harness.project(boundary_toml=f'phase = "{phase}"\n')
    broken = project.tmp / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, broken, ignore=shutil.ignore_patterns("__pycache__"))
    shell = broken / "shell.py"
    shell.write_text(shell.read_text().replace("\nimport os\n", "\nimport not_there_at_all\n", 1))
    entries = registration.entries("local", phase, launcher_py=str(broken / "launcher.py"))
    write_local_entries(project, entries)
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]}, env=env)
    got = run.result_for("main", 0)
    assert got.is_error is blocked, run.explain(phase)
    assert project.path("new.txt").exists() is not blocked
    if blocked:
        assert "cannot load the policy: ModuleNotFoundError" in got.text
    spool = sorted(project.path(".claude/boundary").glob(".audit.jsonl-spool-*"))
    records = [json.loads(p.read_text()) for p in spool]
    pre = [r for r in records if r["event"] == "PreToolUse"]
    assert [(r["tool_name"], r["decision"], r["unjudged"]) for r in pre] == [
        ("Write", "deny" if blocked else "none", True)
    ], records
    assert pre[0]["bypassed"] is bool(env)
