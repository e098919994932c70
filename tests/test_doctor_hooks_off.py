"""``doctor``'s hooks-off check: the settings keys that keep Claude Code from running our hooks
at all (``doctor_hooks_off``; the CLI's own behaviour: tests/e2e/test_hooks_off_e2e.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli
from orchestrator_boundary import settings_files as sf


def hooks_off(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    cli.main(["doctor", "--json", "--project", str(root)])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "hooks-off")
    return found


def put(path: Path, **keys: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.update(keys)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def managed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "managed" / "managed-settings.json"
    monkeypatch.setenv(sf.MANAGED_ENV, str(path))
    return path


@pytest.mark.parametrize(
    ("phase", "keys", "status", "says"),
    [
        ("enforce", {}, "ok", "no settings file switches the hooks off"),
        ("enforce", {"local": True}, "fail", "settings.local.json switches off every hook"),
        ("warn", {"project": True}, "fail", "in phase warn nothing is blocked, recorded or said"),
        ("off", {"user": True}, "warn", "switches off every hook"),
        ("enforce", {"user": True, "project": False}, "ok", "settings.json sets it false"),
        ("enforce", {"project": False, "local": True}, "fail", "settings.local.json"),
        ("enforce", {"local": False, "managed": True}, "fail", "managed-settings.json switches"),
    ],
    ids=[
        "not set",
        "local true",
        "project true in warn",
        "user true in off",
        "project false beats user true",
        "local true beats project false",
        "managed beats local",
    ],
)
def test_disable_all_hooks_from_the_file_that_decides(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    phase: str,
    keys: dict[str, bool],
    status: str,
    says: str,
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n', encoding="utf-8")
    assert cli.main(["install", "--project", str(root)]) == 0
    files = {
        "user": Path(os.environ["HOME"]) / ".claude" / "settings.json",
        "project": root / ".claude" / "settings.json",
        "local": root / ".claude" / "settings.local.json",
        "managed": managed,
    }
    for scope, value in keys.items():
        put(files[scope], disableAllHooks=value)
    capsys.readouterr()
    check = hooks_off(root, capsys)
    assert check["status"] == status, check
    assert says in check["message"], check


def test_managed_hooks_only_leaves_ours_in_project_settings_unrun(
    tmp_path: Path, managed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert cli.main(["install", "--project", str(root)]) == 0
    put(managed, allowManagedHooksOnly=True)
    capsys.readouterr()
    check = hooks_off(root, capsys)
    assert check["status"] == "fail"
    assert check["message"] == (
        f'"allowManagedHooksOnly": true in {managed}: only managed hooks run, so ours in '
        f"{root / '.claude' / 'settings.json'} never run"
    )
    # registered in managed settings too: those run
    assert cli.main(["uninstall", "--project", str(root)]) == 0
    assert cli.main(["install", "--project", str(root), "--scope", "managed"]) == 0
    capsys.readouterr()
    assert hooks_off(root, capsys)["status"] == "ok"


def settings_env(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    cli.main(["doctor", "--json", "--project", str(root)])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "settings-env")
    return found


@pytest.mark.parametrize(
    ("envs", "status", "says"),
    [
        ({}, "ok", "no settings file sets the boundary's variables"),
        ({"local": {"AMPLIFIER_BYPASS_BOUNDARY": "yes"}}, "fail", "bypasses the boundary"),
        ({"local": {"AMPLIFIER_BYPASS_BOUNDARY": "0"}}, "ok", "no settings file sets"),
        (
            {
                "user": {"AMPLIFIER_BYPASS_BOUNDARY": "1"},
                "local": {"AMPLIFIER_BYPASS_BOUNDARY": ""},
            },
            "ok",
            "no settings file sets",
        ),
        ({"project": {"ORCHESTRATOR_BOUNDARY_PHASE": "off"}}, "warn", "overrides the config's"),
        ({"user": {"ORCHESTRATOR_BOUNDARY_CONFIG": "/x.toml"}}, "warn", "which config the hooks"),
    ],
    ids=[
        "none",
        "bypass in local",
        "bypass off",
        "local clears the user's bypass",
        "phase in project",
        "config in user",
    ],
)
def test_the_settings_env_the_hooks_get(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    envs: dict[str, dict[str, str]],
    status: str,
    says: str,
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert cli.main(["install", "--project", str(root)]) == 0
    files = {
        "user": Path(os.environ["HOME"]) / ".claude" / "settings.json",
        "project": root / ".claude" / "settings.json",
        "local": root / ".claude" / "settings.local.json",
    }
    for scope, env in envs.items():
        put(files[scope], env=env)
    capsys.readouterr()
    check = settings_env(root, capsys)
    assert check["status"] == status and says in check["message"], check
