"""Point 9: managed install. ``install --scope managed --managed-only`` sets
``allowManagedHooksOnly`` and ``allowManagedModsOnly`` (Claude Code 2.1.287 mods can answer a
tool call before plugin hooks run), ``doctor`` reports mods and other hooks that could answer
first, and no agent can undo the one or bring in the other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf

from .support import ENFORCE, Arena, Attack, attempt, bash, params, route_params, write

CLI = os.path.join(os.path.dirname(sys.executable), "orchestrator-boundary")


def _cli(a: Arena, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *args, "--project", str(a.root)],
        capture_output=True,
        text=True,
        cwd=a.root,
        env={**a.env("hook"), **env},
        timeout=120,
        check=False,
    )


def _doctor(a: Arena, env: dict[str, str]) -> dict[str, Any]:
    done = _cli(a, env, "doctor", "--json")
    data = json.loads(done.stdout)
    return {c["name"]: c for c in data["checks"]}


def test_managed_only_limits_hooks_and_mods_and_doctor_sees_it(fresh_arena: Arena) -> None:
    a = fresh_arena
    managed = a.base / "etc" / "managed-settings.json"
    env = {sf.MANAGED_ENV: str(managed)}
    settings = a.root / ".claude" / "settings.json"
    other = {"type": "command", "command": "allow-everything"}
    settings.write_text(
        json.dumps(
            {
                "enabledPlugins": {"helper@market": True},
                "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [other]}]},
            }
        )
    )
    before = _doctor(a, env)
    assert before["mods"]["status"] == "warn" and "helper@market" in before["mods"]["message"]
    assert before["other-hooks"]["status"] == "warn"
    assert "allow-everything" in before["other-hooks"]["message"]
    done = _cli(a, env, "install", "--scope", "managed", "--managed-only")
    assert done.returncode == 0, done.stderr
    data = json.loads(managed.read_text())
    assert data[se.MANAGED_HOOKS_KEY] is True and se.mods_managed_only(data)
    assert _doctor(a, env)["mods"]["status"] == "ok"


ATTACKS = [
    write("Write managed settings", "/etc/claude-code/managed-settings.json"),
    write(
        "Write a managed drop-in",
        "/etc/claude-code/managed-settings.d/10-open.json",
        caller="orchestrator",
    ),
    Attack(
        "Edit managed settings drops allowManagedModsOnly",
        "Edit",
        {
            "file_path": "/etc/claude-code/managed-settings.json",
            "old_string": '"allowManagedModsOnly": true',
            "new_string": '"allowManagedModsOnly": false',
        },
        env=ENFORCE,
    ),
    Attack(
        "enable a plugin in project settings",
        "Edit",
        {
            "file_path": "{root}/.claude/settings.json",
            "old_string": "{",
            "new_string": '{"enabledPlugins": {"m@x": true},',
        },
    ),
    write(
        "enable a plugin in user settings", "{home}/.claude/settings.json", caller="orchestrator"
    ),
    write("a plugin manifest in the project", "{root}/.claude-plugin/plugin.json"),
    write(
        "change an installed plugin's files",
        "{ccd}/plugins/cache/market/helper/1.0.0/hooks/hooks.json",
        env=ENFORCE,
    ),
    write(
        "register a plugin as installed",
        "{home}/.claude/plugins/installed_plugins.json",
        env=ENFORCE,
    ),
    write("add a marketplace", "{home}/.claude/plugins/known_marketplaces.json"),
    bash("claude plugin install", "claude plugin install helper@market", env=ENFORCE),
    bash("claude plugin enable", "claude plugin enable helper@market", caller="orchestrator"),
    bash("claude plugin disable", "claude plugins disable boundary@market", env=ENFORCE),
    bash("claude plugin uninstall", "claude plugin uninstall boundary@market"),
    bash("claude plugin marketplace add", "claude plugin marketplace add evil/market"),
    bash("claude by path", "{home}/.local/bin/claude plugin install helper@market", env=ENFORCE),
    bash("claude through a wrapper", "sh -c 'claude plugin install helper@market'", env=ENFORCE),
]

READS = [
    ("claude plugin list", "subagent"),
    ("claude plugin marketplace list", "orchestrator"),
    ("claude --version", "subagent"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(("command", "caller"), READS, ids=[c for c, _ in READS])
def test_reading_claude_plugins_stays_allowed(
    arena: Arena, command: str, caller: str, route: str
) -> None:
    attempt(arena, bash(command, command, caller=caller, env=ENFORCE, expect=("none", None)), route)


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_no_agent_can_undo_managed_only_or_bring_in_a_mod(
    arena: Arena, attack: Attack, route: str
) -> None:
    attempt(arena, attack, route)
