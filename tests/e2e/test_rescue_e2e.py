"""A package too broken for its own client (``wire`` does not compile) under the real CLI
2.1.330, with the entry ``install`` registers and without ``onFailure`` (Claude Code before
2.1.295 ignores it): round twelve, ADR 0084. Before, the launcher died with a traceback, exit 1,
and the Write went through in enforce, unrecorded."""

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


@pytest.mark.parametrize(("phase", "blocked"), [("warn", False), ("enforce", True)])
def test_a_package_whose_wire_does_not_compile_answers_by_phase_and_records(
    harness: Harness, phase: str, blocked: bool
) -> None:
    project = harness.project(boundary_toml=f'phase = "{phase}"\n')
    broken = project.tmp / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, broken, ignore=shutil.ignore_patterns("__pycache__"))
    wire = broken / "wire.py"
    wire.write_text(wire.read_text() + "\ndef (\n")
    entries = registration.entries("local", phase, launcher_py=str(broken / "launcher.py"))
    for entry in entries.values():
        entry.pop("onFailure", None)  # as a Claude Code before 2.1.295 reads it
    write_local_entries(project, entries)
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]}, env={})
    got = run.result_for("main", 0)
    assert got.is_error is blocked, run.explain(phase)
    assert project.path("new.txt").exists() is not blocked
    if blocked:
        assert "cannot load the package (SyntaxError" in got.text
    spool = sorted(project.path(".claude/boundary").glob(".audit.jsonl-spool-*"))
    records = [json.loads(p.read_text()) for p in spool]
    pre = [r for r in records if r["event"] == "PreToolUse"]
    assert [(r["tool_name"], r["decision"], r["unjudged"]) for r in pre] == [
        ("Write", "deny" if blocked else "none", True)
    ], records
