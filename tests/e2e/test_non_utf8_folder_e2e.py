"""A project whose folder name is not UTF-8 (bytes a Linux file system allows), under the real
CLI 2.1.330 (round eleven, ADR 0079). ``install`` sets it up, but Claude Code itself refuses to
start there ("Can't access working directory"): Node reads the name as U+FFFD and finds no such
folder. No session runs, so no call goes unguarded. Should a later CLI start there, this test
fails, and the hook's reading of such paths needs checking again."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness

pytestmark = pytest.mark.e2e


def test_claude_code_does_not_start_in_a_folder_whose_name_is_not_utf8(harness: Harness) -> None:
    project = harness.project(files={"a.txt": ""}, boundary_toml='phase = "enforce"\n')
    odd = Path(os.fsdecode(os.fsencode(project.root) + b"-\xff\xfe"))
    shutil.copytree(project.root, odd)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env.update(HOME=str(project.home), ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary.cli", "install"],
        cwd=odd, env=env, capture_output=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = os.fsencode(odd / "new.txt").decode("utf-8", "replace")  # as Node reads the name
    with pytest.raises(AssertionError, match="Can't access working directory"):
        harness.run(
            dataclasses.replace(project, root=odd),
            {"main": [Call("Write", {"file_path": seen, "content": "x\n"}), Text()]},
        )
    assert not (odd / "new.txt").exists()
