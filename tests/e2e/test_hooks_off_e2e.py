"""A settings key that switches every hook off, checked against the real CLI: Claude Code
2.1.330 honours ``disableAllHooks`` from the most specific settings file that sets it, and
``doctor`` fails exactly when the boundary is off that way (ADR 0052)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Project
from test_doctor_e2e import boundary

pytestmark = pytest.mark.e2e


def hooks_off_check(project: Project) -> dict[str, Any]:
    checks = json.loads(boundary(project, "doctor", "--json").stdout)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "hooks-off")
    return found


def set_key(path: Any, value: bool) -> None:
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data["disableAllHooks"] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("files", "guarded"),
    [
        ({"local": True}, False),
        ({"user": True}, False),
        ({"user": True, "project": False}, True),
    ],
    ids=[
        "settings.local.json switches it off",
        "user settings switch it off",
        "project overrides user",
    ],
)
def test_disable_all_hooks_and_doctor_agree_with_the_cli(
    harness: Harness, files: dict[str, bool], guarded: bool
) -> None:
    project = harness.project(boundary_toml='phase = "enforce"\n')
    boundary(project, "install")
    where = {
        "local": project.path(".claude/settings.local.json"),
        "project": project.path(".claude/settings.json"),
        "user": project.home / ".claude" / "settings.json",
    }
    for scope, value in files.items():
        set_key(where[scope], value)
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]})
    got = run.result_for("main", 0)
    assert got.is_error is guarded, run.explain("the CLI did not do what doctor assumes")
    assert project.path("new.txt").exists() is not guarded
    check = hooks_off_check(project)
    if guarded:
        assert check["status"] == "ok", check
    else:
        deciding = where["local" if "local" in files else "user"]
        assert check["status"] == "fail", check
        assert check["message"].startswith(f'"disableAllHooks": true in {deciding} switches off')
        assert check["fix"] == f'remove "disableAllHooks" from {deciding}'


def settings_env_check(project: Project) -> dict[str, Any]:
    checks = json.loads(boundary(project, "doctor", "--json").stdout)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "settings-env")
    return found


@pytest.mark.parametrize(
    ("env", "status", "says"),
    [
        ({"AMPLIFIER_BYPASS_BOUNDARY": "1"}, "fail", "bypasses the boundary in every session"),
        ({"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}, "warn", "overrides the config's phase"),
    ],
    ids=["the bypass", "a phase override"],
)
def test_the_env_of_settings_local_json_reaches_the_hooks_and_doctor_says_so(
    harness: Harness, env: dict[str, str], status: str, says: str
) -> None:
    project = harness.project(boundary_toml='phase = "enforce"\n')
    boundary(project, "install")
    local = project.path(".claude/settings.local.json")
    local.write_text(json.dumps({"env": env}) + "\n", encoding="utf-8")
    write = Call("Write", {"file_path": str(project.path("new.txt")), "content": "x\n"})
    run = harness.run(project, {"main": [write, Text()]})
    assert not run.result_for("main", 0).is_error, run.explain("the env did not reach the hook")
    assert project.path("new.txt").exists()
    check = settings_env_check(project)
    assert check["status"] == status and says in check["message"], check
    assert str(local) in check["message"]
