"""SubagentStop, Stop and SessionEnd are registered like the tool events in every scope, kept in
step by ``phase``, removed by ``uninstall``, and missed by ``doctor`` when absent (ADR 0033)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli, registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "etc" / "managed-settings.json"))
    return root.resolve()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = cli.main(list(argv))
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def settings_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def file_of(scope: str, proj: Path) -> Path:
    return Path(sf.settings_path(scope, str(proj)))


@pytest.mark.parametrize("scope", ["project", "local", "user", "managed"])
def test_every_scope_registers_the_lifecycle_events_and_uninstall_removes_them(
    proj: Path, scope: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(
        capsys, "install", "--project", str(proj), "--scope", scope, "--phase", "enforce", "--force"
    )
    for event in registration.LIFECYCLE_EVENTS:
        assert f"added the {event} hook" in out
    hooks = settings_of(file_of(scope, proj))["hooks"]
    assert list(hooks) == list(registration.EVENTS)
    for event in registration.LIFECYCLE_EVENTS:
        [group] = hooks[event]
        assert "matcher" not in group
        [entry] = group["hooks"]
        assert "onFailure" not in entry and entry["timeout"] == se.HOOK_TIMEOUT_S
        assert shlex.split(entry["command"])[-2 if scope in ("project", "user") else -1] == event
    run(capsys, "uninstall", "--project", str(proj), "--scope", scope)
    assert not file_of(scope, proj).exists()


def test_phase_keeps_the_lifecycle_entries_in_step_and_never_adds_on_failure(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "install", "--project", str(proj), "--phase", "warn")
    run(capsys, "phase", "ask", "--project", str(proj))
    hooks = settings_of(file_of("project", proj))["hooks"]
    for event in registration.EVENTS:
        [entry] = hooks[event][0]["hooks"]
        assert registration.shim_phase(entry["command"]) == (event, "ask")
        want = "block" if event in registration.TOOL_EVENTS else None
        assert entry.get("onFailure") == want, (event, entry)


def test_doctor_finds_tool_hooks_without_the_lifecycle_hooks(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "install", "--project", str(proj), "--phase", "enforce", "--force")
    path = file_of("project", proj)
    data = settings_of(path)
    for event in registration.LIFECYCLE_EVENTS:  # as an install before these events wrote it
        del data["hooks"][event]
    path.write_text(json.dumps(data), encoding="utf-8")
    cli.main(["doctor", "--project", str(proj), "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["hooks"]["status"] == "warn"
    assert checks["hooks"]["message"].endswith(
        "but not SubagentStop, Stop, SessionEnd: delegation deliverables are not checked, there "
        "is no stop summary, and delegation state is only cleaned by its bounds"
    )
    assert checks["hooks"]["fix"] == f"run: orchestrator-boundary install --project {proj}"
    assert checks["onfailure"]["status"] == "ok"  # lifecycle entries never need the key
    run(capsys, "install", "--project", str(proj))
    cli.main(["doctor", "--project", str(proj), "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert (
        checks["hooks"]["status"] == "ok" and "SessionEnd registered" in checks["hooks"]["message"]
    )


def test_the_settings_example_is_what_install_writes_in_enforce() -> None:
    example = Path(__file__).resolve().parents[1] / ".claude" / "settings.example.json"
    written = se.with_hooks({}, entries=registration.entries("project", "enforce")).new
    assert settings_of(example) == written


def test_doctor_finds_a_plugin_without_the_lifecycle_hooks(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Path(__file__).resolve().parents[1]
    old = tmp_path / "old plugin"
    (old / "hooks").mkdir(parents=True)
    for name in (".claude-plugin", "src"):
        (old / name).symlink_to(repo / name)
    (old / "hooks" / "hook.py").symlink_to(repo / "hooks" / "hook.py")
    data = settings_of(repo / "hooks" / "hooks.json")
    for event in (*registration.OBSERVE_EVENTS, *registration.LIFECYCLE_EVENTS):  # an old plugin
        del data["hooks"][event]
    (old / "hooks" / "hooks.json").write_text(json.dumps(data), encoding="utf-8")
    cli.main(["doctor", "--project", str(proj), "--json", "--plugin-dir", str(old)])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["hooks"]["status"] == "warn"
    lacks = "hooks.json lacks PostToolUseFailure, SubagentStop, Stop, SessionEnd"
    assert lacks in checks["hooks"]["message"]
