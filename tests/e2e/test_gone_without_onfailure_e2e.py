"""A machine-local entry whose package is gone, registered without ``"onFailure"`` (as Claude
Code before 2.1.295 reads every entry: it ignores the key), under the real CLI. The guard exited
1, which such a CLI lets through: an enforce project's writes went through, unrecorded. It now
answers as the phase says by itself (ADR 0079)."""

from __future__ import annotations

import pytest
from e2e_fixtures import (  # noqa: F401 - fixtures
    claude_bin_fixture,
    harness_fixture,
    write_local_entries,
)
from fake_api import Call, Text
from harness import Harness

from orchestrator_boundary import registration

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("config", "env", "blocked"),
    [
        ('phase = "enforce"\n', {}, True),
        ('phase = "warn"\n', {}, False),
        ('phase = "enforce"\n', {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, False),
    ],
    ids=["enforce: blocked by the guard itself", "warn: through", "the bypass: through"],
)
def test_a_gone_package_without_onfailure_follows_the_phase(
    harness: Harness, config: str, env: dict[str, str], blocked: bool
) -> None:
    project = harness.project(boundary_toml=config)
    gone = project.tmp / "gone venv" / "orchestrator_boundary" / "launcher.py"
    entries = registration.entries("user", "warn", launcher_py=str(gone))  # no onFailure
    assert not any("onFailure" in e for e in entries.values())
    write_local_entries(project, entries)
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]}, env=env)
    got = run.result_for("main", 0)
    assert got.is_error is blocked, run.explain(config)
    assert project.path("new.txt").exists() is not blocked
    if blocked:
        assert f"orchestrator-boundary: {gone} is gone" in got.text
        assert "onFailure" not in got.text  # the guard's own answer, on every CLI version
