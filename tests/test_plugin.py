"""The Claude Code plugin files: manifest and hooks.json shape, and the hook commands as sh runs
them, with ``${CLAUDE_PLUGIN_ROOT}`` pointing at a folder whose path has a space."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import __version__, registration
from orchestrator_boundary import settings_edit as se

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / ".claude-plugin" / "plugin.json"
HOOKS_JSON = REPO / "hooks" / "hooks.json"
EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStop", "Stop", "SessionEnd")
TOOL_EVENTS = ("PreToolUse", "PostToolUse")


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_manifest_shape() -> None:
    m = load(MANIFEST)
    assert m["name"] == "orchestrator-boundary"
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", m["name"])
    assert m["version"] == __version__
    assert isinstance(m["description"], str) and m["description"].strip()
    assert "hooks" not in m  # hooks/hooks.json is found by the standard layout


def test_hooks_json_shape() -> None:
    data = load(HOOKS_JSON)
    assert set(data) <= {"description", "hooks"}
    hooks = data["hooks"]
    assert list(hooks) == list(EVENTS) == list(registration.EVENTS)
    for event in EVENTS:
        groups = hooks[event]
        assert isinstance(groups, list) and len(groups) == 1
        group = groups[0]
        assert group.get("matcher") == registration.matcher(event) and len(group["hooks"]) == 1
        hook = group["hooks"][0]
        assert hook["type"] == "command"
        assert hook["timeout"] == se.HOOK_TIMEOUT_S
        # one entry script, the event as its argument; -I -S: the import-free client starts
        # like a bare interpreter (ADR 0009)
        assert hook["command"] == f'python3 -I -S "${{CLAUDE_PLUGIN_ROOT}}/hooks/hook.py" {event}'
        # a tool hook that cannot start blocks (ADR 0024), and the description says so; a
        # lifecycle hook never does (ADR 0033)
        assert hook.get("onFailure") == ("block" if event in TOOL_EVENTS else None)
    assert (REPO / "hooks" / "hook.py").is_file()
    assert sorted(p.name for p in (REPO / "hooks").iterdir() if p.suffix == ".py") == ["hook.py"]
    assert '"onFailure": "block"' in data["description"] and "2.1.295" in data["description"]


@pytest.fixture
def plugin_root(tmp_path: Path) -> Path:
    """A plugin folder with a space in its path, holding the checkout's hooks and src."""
    root = tmp_path / "plugin root"
    root.mkdir()
    for name in ("hooks", "src", ".claude-plugin"):
        (root / name).symlink_to(REPO / name)
    return root


@pytest.fixture
def python3_shim(tmp_path: Path) -> Path:
    """``python3`` on PATH = this interpreter (the one that has the dependencies)."""
    bin_dir = tmp_path / "shim"
    bin_dir.mkdir()
    shim = bin_dir / "python3"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    return bin_dir


@pytest.mark.parametrize("event", TOOL_EVENTS)
def test_plugin_commands_run_through_sh(
    event: str, plugin_root: Path, python3_shim: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    command = load(HOOKS_JSON)["hooks"][event][0]["hooks"][0]["command"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # prove the src fallback
    env.update(
        PATH=f"{python3_shim}{os.pathsep}{env.get('PATH', '')}",
        CLAUDE_PLUGIN_ROOT=str(plugin_root),
        CLAUDE_PROJECT_DIR=str(project),
        ORCHESTRATOR_BOUNDARY_PHASE="enforce",
    )
    payload: dict[str, Any] = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": event,
        "tool_name": "Write",
        "tool_input": {"file_path": str(project / "a.py"), "content": "x"},
    }
    if event == "PostToolUse":
        payload["tool_response"] = {}
    done = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload).encode(),
        env=env,
        capture_output=True,
        timeout=60,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    if event == "PreToolUse":
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert answer["decision"] == "block"
    assert (project / ".claude" / "boundary" / "audit.jsonl").exists()


@pytest.mark.parametrize("event", ["SubagentStop", "Stop", "SessionEnd"])
def test_plugin_lifecycle_commands_run_through_sh(
    event: str, plugin_root: Path, python3_shim: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    command = load(HOOKS_JSON)["hooks"][event][0]["hooks"][0]["command"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        PATH=f"{python3_shim}{os.pathsep}{env.get('PATH', '')}",
        CLAUDE_PLUGIN_ROOT=str(plugin_root),
        CLAUDE_PROJECT_DIR=str(project),
        ORCHESTRATOR_BOUNDARY_PHASE="enforce",
    )
    payload = {
        "session_id": "s",
        "transcript_path": "",
        "cwd": str(project),
        "hook_event_name": event,
        "stop_hook_active": False,
        **({"agent_id": "a1", "agent_type": "general-purpose"} if event == "SubagentStop" else {}),
    }
    done = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload).encode(),
        env=env,
        capture_output=True,
        timeout=60,
        cwd=project,
    )
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    trail = (project / ".claude" / "boundary" / "audit.jsonl").read_text(encoding="utf-8")
    assert json.loads(trail.splitlines()[-1])["event"] == event
