"""Round twelve: ``\\\\?\\Volume{GUID}\\`` and ``\\\\?\\GLOBALROOT\\Device\\...`` paths in a
payload recorded on Windows (ADR 0083).

A volume's GUID path (or a device's, below GLOBALROOT) names a drive by an identity this
machine cannot look up: it may be the project's own drive. Before, such a path was only
"outside the project": SCOPE_VIOLATION for a subagent, ORCHESTRATOR_WRITE for the main agent,
both let through in warn (and by a scope that reaches outside the project in every phase),
where the same write spelt ``C:\\...`` is TAMPER. Now the rest after the volume is also read
on the project's drive, for the protected set; for a scope the path stays placed nowhere.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cmd_replay import judge_line

ROOT = "C:\\Users\\dev\\proj"
WIDE = """
phase = "warn"

[agents.coder]
write_scope = ["**", "/**", "C:/**"]

[subagents]
write_outside_root = ["/**", "C:/**"]
"""
GUID = "Volume{26a21bda-a627-11d7-9931-806e6f6e6963}"


def _judge(tmp_path: Path, who: str, path: str) -> tuple[str, str | None]:
    config = tmp_path / "boundary.toml"
    config.write_text(WIDE)
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000b",
        "transcript_path": "C:\\Users\\dev\\.claude\\projects\\C--Users-dev-proj\\6d1c5b2e.jsonl",
        "cwd": ROOT,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "{}"},
        "tool_use_id": "toolu_01VOL",
    }
    if who != "main":
        data.update(agent_id="a1b2c3d4e5f607183", agent_type=who)
    args = argparse.Namespace(config=str(config), phase=None, project=None)
    row, _ = judge_line(json.dumps(data), {"HOME": "/nonexistent-home"}, args)
    assert row["error"] is None
    return row["decision"], row["code"]


SETTINGS = "\\Users\\dev\\proj\\.claude\\settings.json"
TAMPERED = [
    ("volume", f"\\\\?\\{GUID}{SETTINGS}"),
    ("volume-dot", f"\\\\.\\{GUID}{SETTINGS}"),
    ("volume-slashes", f"//?/{GUID}{SETTINGS}".replace("\\", "/")),
    ("volume-lower", f"\\\\?\\{GUID.lower()}{SETTINGS}"),
    ("globalroot-device", f"\\\\?\\GLOBALROOT\\Device\\HarddiskVolume3{SETTINGS}"),
    ("volume-agents", f"\\\\?\\{GUID}\\Users\\dev\\proj\\.claude\\agents\\x.md"),
    ("volume-user-settings", f"\\\\?\\{GUID}\\Users\\dev\\.claude\\settings.json"),
]


@pytest.mark.parametrize("who", ["coder", "main"])
@pytest.mark.parametrize("path", [t[1] for t in TAMPERED], ids=[t[0] for t in TAMPERED])
def test_a_volume_path_to_a_protected_file_is_tamper(tmp_path: Path, who: str, path: str) -> None:
    assert _judge(tmp_path, who, path) == ("deny", "TAMPER")


def test_a_volume_path_to_an_ordinary_file_is_not_tamper(tmp_path: Path) -> None:
    path = f"\\\\?\\{GUID}\\Users\\dev\\proj\\src\\app.py"
    assert _judge(tmp_path, "coder", path)[1] != "TAMPER"
