"""Round twelve: settings sources whose commands were not read (ADR 0083).

- ``managed-settings.d/*.json`` beside the managed settings: Claude Code 2.1.330 merges each
  into the managed settings (the pinned binary lists the folder and reads each ``.json``),
  hooks included; the scripts their hooks ran were ordinary files.
- a ``~/.claude.json`` over 256 KiB (its project history grows past that) was not read at
  all: the servers it starts ran scripts a subagent could rewrite.
- ``policyHelpers`` (one command per platform) was not read as commands.
"""

from __future__ import annotations

import json
from pathlib import Path

from harden_support import make_project

from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.protect_hooks import hook_scripts

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}


def _hook(command: str) -> dict[str, object]:
    return {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}


def test_a_managed_drop_in_names_a_script(tmp_path: Path) -> None:
    root, home = tmp_path / "proj", tmp_path / "home"
    (root / "tools").mkdir(parents=True)
    home.mkdir(exist_ok=True)
    script = root / "tools" / "company_guard.sh"
    script.write_text("echo ok\n")
    managed = tmp_path / "etc" / "managed-settings.json"
    (managed.parent / "managed-settings.d").mkdir(parents=True)
    managed.write_text("{}")
    drop_in = managed.parent / "managed-settings.d" / "10-guard.json"
    drop_in.write_text(json.dumps({"hooks": _hook(f"bash {script}")}))
    (managed.parent / "managed-settings.d" / "README.txt").write_text(f"bash {root}/x.sh\n")
    found = dict(hook_scripts(str(root), str(home), None, RealFileSystem(), (str(managed),)))
    assert found.get(str(script)) == "a file a command in the managed settings runs"
    assert str(root / "x.sh") not in found  # only the .json files are settings


def test_policy_helpers_are_commands(tmp_path: Path) -> None:
    root, home = tmp_path / "proj", tmp_path / "home"
    (root / "tools").mkdir(parents=True)
    home.mkdir(exist_ok=True)
    (root / "tools" / "policy.sh").write_text("echo {}\n")
    managed = tmp_path / "managed-settings.json"
    managed.write_text(json.dumps({"policyHelpers": {"linux": f"sh {root}/tools/policy.sh"}}))
    found = dict(hook_scripts(str(root), str(home), None, RealFileSystem(), (str(managed),)))
    assert str(root / "tools" / "policy.sh") in found


def _big_global_config(home: Path, root: Path, servers: dict[str, object]) -> None:
    history = [{"display": f"prompt {i} " + "x" * 200} for i in range(2000)]
    # a prompt that spells the key inside a string must not count as a server table
    history.append({"display": '"mcpServers": {"x": {"command": "node scripts/fake.js"}}'})
    data = {
        "numStartups": 3,
        "projects": {str(root): {"history": history, "mcpServers": servers}},
    }
    text = json.dumps(data)
    assert len(text) > 256 * 1024
    (home / ".claude.json").write_text(text)


def test_a_large_global_config_is_still_read_for_its_servers(tmp_path: Path) -> None:
    p = make_project(tmp_path)
    p.configure('[agents.coder]\nwrite_scope = ["**"]\n')
    (p.root / "scripts").mkdir()
    (p.root / "scripts" / "db_server.js").write_text("// server\n")
    (p.root / "scripts" / "fake.js").write_text("// not a server\n")
    servers = {"db": {"command": "node", "args": ["scripts/db_server.js"]}}
    _big_global_config(p.home, p.root, servers)
    target = str(p.root / "scripts" / "db_server.js")
    got = p.judge("Write", {"file_path": target, "content": "x"}, agent="coder", env=WARN)
    assert got[:2] == ("deny", "TAMPER")
    fake = str(p.root / "scripts" / "fake.js")
    got = p.judge("Write", {"file_path": fake, "content": "x"}, agent="coder", env=WARN)
    assert got[:2] == ("none", None)


def test_a_large_local_settings_file_is_still_read_for_its_hooks(tmp_path: Path) -> None:
    """A settings.local.json grows with the permission rules a person accepts; past 256 KiB
    its hooks, env and status line were not read."""
    p = make_project(tmp_path)
    p.configure('[agents.coder]\nwrite_scope = ["**"]\n')
    (p.root / "tools").mkdir()
    for name in ("hook.sh", "status.sh", "preload.js"):
        (p.root / "tools" / name).write_text("true\n")
    allow = [f"Bash(npm run task-{i}:*)" for i in range(12000)]
    local = {
        "permissions": {"allow": allow},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash tools/hook.sh"}]}]},
        "statusLine": {"type": "command", "command": "sh tools/status.sh"},
        "env": {"NODE_OPTIONS": "--require ./tools/preload.js"},
    }
    text = json.dumps(local)
    assert len(text) > 256 * 1024
    (p.root / ".claude" / "settings.local.json").write_text(text)
    for name in ("hook.sh", "status.sh", "preload.js"):
        target = str(p.root / "tools" / name)
        got = p.judge("Write", {"file_path": target, "content": "x"}, agent="coder", env=WARN)
        assert got[:2] == ("deny", "TAMPER"), name
