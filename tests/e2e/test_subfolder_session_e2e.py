"""A session started in a subfolder of a guarded project, under the real CLI (ADR 0054).

Claude Code 2.1.330 reads ``.claude/settings.json`` only in the folder a session starts in: a
session started in ``src/`` runs none of the project's hooks. The project's own install cannot
reach it; a user-scope install can, and its hook takes the project's config from the nearest
folder above with ``.claude/boundary.toml``.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness
from test_team_e2e import boundary_cli, venv_python

pytestmark = pytest.mark.e2e


def test_a_user_scope_install_guards_a_session_started_in_a_subfolder(harness: Harness) -> None:
    project = harness.project(boundary_toml='phase = "enforce"\n', files={"src/a.py": "a\n"})
    python = venv_python(project.home.parent / "tools" / "venv")
    boundary_cli(python, project.home, "install", "--project", str(project.root))
    below = dataclasses.replace(project, root=project.root / "src")

    def write(name: str) -> Call:
        return Call("Write", {"file_path": str(below.path(name)), "content": "new\n"})

    # the project's hooks do not run in a session started below it: Claude Code's behaviour
    run = harness.run(below, {"main": [write("unguarded.py"), Text()]})
    assert not run.result_for("main", 0).is_error, run.explain("the project's hooks ran")
    assert below.path("unguarded.py").exists()

    boundary_cli(python, project.home, "install", "--project", str(project.root), "--scope", "user")
    run = harness.run(below, {"main": [write("guarded.py"), Text()]})
    got = run.result_for("main", 0)
    assert got.is_error and "orchestrator-boundary" in got.text, run.explain(got.text)
    assert not below.path("guarded.py").exists()
    trails = list((project.home / ".claude/orchestrator-boundary/projects").glob("*/audit.jsonl"))
    assert len(trails) == 1, trails  # one trail: the project's, not one for src/
    lines = [json.loads(line) for line in trails[0].read_text("utf-8").splitlines()]
    assert any(line.get("decision") == "deny" for line in lines), lines
