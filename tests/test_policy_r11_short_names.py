"""Round eleven: Windows short (8.3) names in a payload judged here (ADR 0078).

``SETTIN~1.JSO`` is the short name Windows gives ``settings.json``, ``.CLAUD~1`` or
``CLAUDE~1`` the one of ``.claude``, ``PROGRA~1`` ``Program Files``. A payload recorded on
Windows and replayed on Linux cannot be resolved through that file system, so before round
eleven the short spelling was a name of its own: not the settings (no TAMPER, let through in
warn, and in every phase for a subagent whose scope held it), and not the excluded folder.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cmd_replay import judge_line
from orchestrator_boundary.protect_short import has_short, long_readings, stands_for, vocabulary

ROOT = "C:\\Users\\dev\\proj"
CONFIG = """
phase = "warn"

[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[agents.coder]
write_scope = ["**", "!src/secrets/**"]

[protect]
paths = ["infra/**"]
"""
ENV = {"HOME": "/nonexistent-home"}


def _payload(who: str, tool: str, tool_input: dict[str, Any], cwd: str = ROOT) -> str:
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000a",
        "transcript_path": "C:\\Users\\dev\\.claude\\projects\\C--Users-dev-proj\\6d1c5b2e.jsonl",
        "cwd": cwd,
        "permission_mode": "acceptEdits",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01WIN",
    }
    if who != "main":
        data["agent_id"] = "a1b2c3d4e5f607182"
        data["agent_type"] = who
    return json.dumps(data)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "boundary.toml"
    path.write_text(CONFIG)
    return path


def _judge(config: Path, who: str, tool: str, tool_input: dict[str, Any]) -> tuple[str, str | None]:
    args = argparse.Namespace(config=str(config), phase=None, project=None)
    row, _ = judge_line(_payload(who, tool, tool_input), ENV, args)
    assert row["error"] is None
    return row["decision"], row["code"]


# (id, who, path, decision in warn, code)
CASES: list[tuple[str, str, str, str, str | None]] = [
    ("settings-short-file", "coder", f"{ROOT}\\.claude\\SETTIN~1.JSO", "deny", "TAMPER"),
    ("settings-short-folder", "coder", f"{ROOT}\\.CLAUD~1\\settings.json", "deny", "TAMPER"),
    ("settings-both-short", "coder", f"{ROOT}\\CLAUDE~1\\SETTIN~1.JSO", "deny", "TAMPER"),
    ("main-settings-short", "main", f"{ROOT}\\.claude\\SETTIN~1.JSO", "deny", "TAMPER"),
    ("root-spelt-short", "coder", "C:\\Users\\dev\\PROJ~1\\.claude\\settings.json", "deny", "TAMPER"),
    ("user-folder-short", "coder", "C:\\Users\\DEV~1\\proj\\.claude\\agents\\x.md", "deny", "TAMPER"),
    ("managed-settings", "coder", "C:\\PROGRA~1\\ClaudeCode\\managed-settings.json", "deny", "TAMPER"),
    ("env-file", "coder", f"{ROOT}\\src\\ENV~1.PRO", "deny", "TAMPER"),
    ("agents-folder", "coder", f"{ROOT}\\.claude\\AGENTS~1\\x.md", "deny", "TAMPER"),
    ("protect-paths", "coder", f"{ROOT}\\INFRA~1\\main.tf", "deny", "TAMPER"),
    # a scope cannot place a short name: its exclusions may hold it (src\\secrets)
    ("excluded-folder", "coder", f"{ROOT}\\src\\SECRET~1\\key.pem", "warn", "SCOPE_VIOLATION"),
    # what stays: long names, and a short name that stands for nothing protected
    ("ordinary", "coder", f"{ROOT}\\src\\app.py", "none", None),
    ("tilde-not-short", "coder", f"{ROOT}\\src\\a~b.py", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "path", "decision", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_short_name_reads_as_the_names_it_may_stand_for(
    config: Path, who: str, path: str, decision: str, code: str | None
) -> None:
    assert _judge(config, who, "Write", {"file_path": path, "content": "x"}) == (decision, code)


def test_an_mcp_tools_relative_short_name(config: Path) -> None:
    given = {"path": ".CLAUD~1\\SETTIN~1.JSO", "content": "x"}
    assert _judge(config, "coder", "mcp__fs__write_file", given) == ("deny", "TAMPER")


@pytest.mark.parametrize(
    ("short", "long", "expected"),
    [
        ("settin~1.jso", "settings.json", True),
        ("settin~2.jso", "settings.local.json", True),
        ("claude~1", ".claude", True),
        (".claud~1", ".claude", True),
        ("progra~1", "program files", True),
        ("settin~1.jso", "settings.toml", False),
        ("agents~1", ".claude", False),
        ("plain", "plain", False),
    ],
)
def test_stands_for(short: str, long: str, expected: bool) -> None:
    assert stands_for(short, long) is expected


def test_long_readings_are_bounded_and_only_for_short_names() -> None:
    words = vocabulary([f"c:/w{n}/settings{n}.json" for n in range(50)])
    assert long_readings("C:\\x\\a.py", words) == []
    assert not has_short("C:\\x\\a~b.py")
    assert len(long_readings("C:\\SETTIN~1\\SETTIN~1\\SETTIN~1.JSO", words)) <= 64
