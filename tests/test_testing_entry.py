"""The test helpers (``testing``, and so the pytest plugin) run exactly the command ``install``
registers, for every event it registers, lifecycle events included (ADR 0033)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator_boundary import registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.cmd_install import plan
from orchestrator_boundary.testing import hook_command, run_hook


def test_the_helpers_run_what_a_local_install_registers(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    res = plan("install", str(project), "local", environ={"HOME": str(tmp_path / "home")})
    [settings] = [e for e in res.edits if e.what == "settings"]
    registered = se.registered(se.parse_settings(settings.new or "", settings.path))
    for event in registration.EVENTS:
        [entry] = registered[event]
        assert hook_command(event) == registration.entry_argv(entry)
    with pytest.raises(ValueError, match="Notification"):
        hook_command("Notification")


def test_a_lifecycle_payload_through_the_helpers(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    payload = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(project),
        "hook_event_name": "SubagentStop",
        "agent_id": "a123",
        "agent_type": "coder",
        "stop_hook_active": False,
        "last_assistant_message": "done",
    }
    config = 'phase = "enforce"\n[agents.coder]\nrequires = ["write"]\n'
    answer = run_hook(payload, project=project, config=config, env={"HOME": str(tmp_path)})
    assert (answer.exit_code, answer.decision) == (0, "block")
    assert "a coder subagent must deliver 1 file change (has 0)" in answer.reason
    assert answer.command == hook_command("SubagentStop")
