"""A session started in a subfolder of a guarded project that is a git repository, under the
real CLI 2.1.330 (round eleven, ADR 0079): does Claude Code take the project's
``.claude/settings.json`` from the repository's top when it starts below it? It does not: the
subfolder session runs none of the project's hooks, git or no git, and ``doctor`` says so."""

from __future__ import annotations

import dataclasses

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness
from test_start_folder_e2e import boundary, start_check

pytestmark = pytest.mark.e2e


def test_a_subfolder_session_in_a_git_repository_is_unguarded_and_doctor_says_so(
    harness: Harness,
) -> None:
    project = harness.project(
        files={"src/app.py": ""}, boundary_toml='phase = "enforce"\n', git=True
    )
    boundary(project, project.root, "install")
    src = project.path("src")
    seen = {}
    for started in (project.root, src):
        target = src / f"from-{started.name}.py"
        run = harness.run(
            dataclasses.replace(project, root=started),
            {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]},
        )
        seen[started.name] = (run.result_for("main", 0).is_error, target.exists())
    assert seen == {project.root.name: (True, False), "src": (False, True)}
    assert start_check(project, src)["status"] == "fail"
