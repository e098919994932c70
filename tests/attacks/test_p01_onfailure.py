"""Point 1: ``"onFailure": "block"``. ``install`` and ``phase`` keep the key on both hook
entries in enforce and ask (Claude Code 2.1.295+ then blocks a call whose hook cannot start,
crashes, times out or prints invalid JSON), the plugin carries it, and no agent can take it
away. A hook whose own package is broken answers exit 2 itself, so even without the key the
call is blocked. (The real CLI blocking on a hook that cannot start: tests/e2e/test_team_e2e.py
``test_a_broken_hook_command_and_onfailure``.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import wire

from .support import (
    CANNOT_LOAD,
    ENFORCE,
    REPO,
    Arena,
    Attack,
    attempt,
    bash,
    params,
    route_params,
    until,
)

CLI = os.path.join(os.path.dirname(sys.executable), "orchestrator-boundary")


def _cli(a: Arena, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *args, "--project", str(a.root)],
        capture_output=True,
        text=True,
        cwd=a.root,
        env=a.env("hook"),
        timeout=120,
        check=False,
    )


def _entries(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text())
    return [
        h
        for event in ("PreToolUse", "PostToolUse")
        for g in data["hooks"][event]
        for h in g["hooks"]
    ]


def test_install_and_phase_keep_the_key_in_step(fresh_arena: Arena) -> None:
    a = fresh_arena
    (a.root / ".claude" / "boundary.toml").unlink()
    settings = a.root / ".claude" / "settings.json"
    done = _cli(a, "install", "--phase", "ask")
    assert done.returncode == 0, done.stderr
    assert [h.get("onFailure") for h in _entries(settings)] == ["block", "block"]
    assert _cli(a, "phase", "warn").returncode == 0
    assert [h.get("onFailure") for h in _entries(settings)] == [None, None]
    assert _cli(a, "phase", "enforce", "--force").returncode == 0
    assert [h.get("onFailure") for h in _entries(settings)] == ["block", "block"]
    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text())
    tool = ("PreToolUse", "PostToolUse")  # the events that can block (ADR 0033)
    hooks = [h for e in tool for g in plugin["hooks"][e] for h in g["hooks"]]
    assert hooks and all(h.get("onFailure") == "block" for h in hooks)
    others = [
        h for e, gs in plugin["hooks"].items() if e not in tool for g in gs for h in g["hooks"]
    ]
    assert others and not any("onFailure" in h for h in others)


SETTINGS = "{root}/.claude/settings.json"
ATTACKS = [
    Attack(
        "Edit drops the key",
        "Edit",
        {"file_path": SETTINGS, "old_string": '"onFailure": "block",', "new_string": ""},
        env=ENFORCE,
    ),
    Attack(
        "orchestrator Edit drops the key",
        "Edit",
        {"file_path": SETTINGS, "old_string": '"onFailure": "block",', "new_string": ""},
        caller="orchestrator",
    ),
    Attack(
        "Write local settings with hooks that fail open",
        "Write",
        {"file_path": "{root}/.claude/settings.local.json", "content": '{"hooks": {}}'},
    ),
    Attack(
        "MCP edit drops the key",
        "mcp__fs__edit_file",
        {"path": ".claude/settings.json", "edits": [{"oldText": "onFailure", "newText": "x"}]},
    ),
    bash("sed deletes the key", "sed -i '/onFailure/d' .claude/settings.json", env=ENFORCE),
    bash("phase warn drops the key", "orchestrator-boundary phase warn", env=ENFORCE),
    bash("break the interpreter", "mv {python_real} {python_real}.bak"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_no_agent_can_take_the_key_away(arena: Arena, attack: Attack, route: str) -> None:
    attempt(arena, attack, route)


@pytest.mark.parametrize("route", route_params())
def test_a_broken_package_blocks_and_never_exits_1(fresh_arena: Arena, route: str) -> None:
    """A copy of the package, installed in its own folder, is broken after the fact (as a
    program an agent ran could do). Through the registered command, with a warm evaluator of
    that copy or without one, the call is blocked with exit 2: never exit 1, which Claude Code
    lets through when the entry has no ``onFailure``."""
    a = fresh_arena
    site = a.base / "site"
    shutil.copytree(
        wire.PACKAGE_DIR,
        site / "orchestrator_boundary",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    client = site / "orchestrator_boundary" / "client.py"
    env = a.env(route, ENFORCE)
    payload = json.dumps(a.payload("Read", {"file_path": "{root}/src/app.py"})).encode()

    def call() -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-I", "-S", str(client), "PreToolUse"],
            input=payload,
            capture_output=True,
            cwd=a.root,
            env=env,
            timeout=60,
            check=False,
        )

    assert call().returncode == 0
    if route == "evaluator":  # the copy's evaluator is up and answering
        assert until(lambda: any(a.runtime.glob("*.sock")))
    policy = site / "orchestrator_boundary" / "policy.py"
    policy.write_text(policy.read_text() + "\n)broken(\n")
    got = call()
    assert (got.returncode, got.stdout) == (2, b""), got
    assert CANNOT_LOAD.encode() in got.stderr, got
