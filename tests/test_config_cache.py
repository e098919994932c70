"""The compiled config a hook process leaves for the next one (ADR 0030): the same value as
validating the file, used only when verified, ignored otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from orchestrator_boundary import config
from orchestrator_boundary.config import (
    ConfigProblem,
    compiled_entry,
    compiled_folder,
    compiled_key,
    entry_name,
    from_data,
    load_compiled,
    load_config,
    parse_config,
    to_data,
)

FULL = """\
phase = "enforce"

[orchestrator]
write_allow = ["STATE.md", "docs/plans/**", "~/notes/**"]
allow_tools = ["mcp__tracker__*", "TodoWrite"]

[subagents]
write_outside_root = ["/tmp/**"]

[agents.coder]
tools = ["Write", "Edit", "Read", "coordinate"]
write_scope = ["src/**", "!**/*.lock"]
requires = ["write", { deliverable = "TaskCreate", min = 2 }]

[agents."*"]
tools = ["Read"]

[tools]
"mcp__x__y" = "read"

[bash]
opaque = "deny"
read_only_commands = ["mytool"]

[audit]
path = "logs/audit.jsonl"
keep = 3

[protect]
paths = ["secrets/**"]

[report]
stop_summary = true

[intents."login-fix"]
owned_scope = ["src/auth/**"]
agent_types = ["coder"]

[delegation]
leases = "warn"
"""
TEXTS = {
    "empty": "",
    "full": FULL,
    "example": (REPO / "examples" / "boundary.toml").read_text(),
    "broken": 'phase = "block"\n',
}


@pytest.mark.parametrize("name", list(TEXTS), ids=list(TEXTS))
def test_compiled_form_turns_back_into_the_same_value(name: str) -> None:
    loaded = parse_config(TEXTS[name], "/p/.claude/boundary.toml", home="/home/u")
    again = from_data(json.loads(json.dumps(to_data(loaded))))
    assert again == loaded
    if not isinstance(loaded, ConfigProblem):
        assert not isinstance(again, ConfigProblem)
        assert again.model_fields_set == loaded.model_fields_set
        assert again.audit.model_fields_set == loaded.audit.model_fields_set


def _folder(tmp_path: Path) -> str:
    folder = compiled_folder(str(tmp_path / "rt"))
    assert folder is not None
    return folder


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "boundary.toml"
    path.write_text(text)
    return str(path)


def test_second_load_is_answered_from_the_entry(tmp_path: Path) -> None:
    folder, path = _folder(tmp_path), _write(tmp_path, FULL)
    first = load_compiled(path, "/home/u", folder)
    assert first == load_config(path, "/home/u")
    key = compiled_key(path, "/home/u", FULL.encode())
    entry = Path(folder) / entry_name(key)
    assert entry.is_file() and entry.stat().st_mode & 0o777 == 0o600
    assert compiled_entry(folder, key) == first
    # another home folder, or other bytes, are other keys
    assert compiled_entry(folder, compiled_key(path, "/home/v", FULL.encode())) is None
    assert compiled_entry(folder, compiled_key(path, "/home/u", b"phase = 'off'\n")) is None


def _tamper_content(entry: Path) -> None:
    data = json.loads(entry.read_text())
    data["config"]["phase"] = "off"
    data["key"]["sha256"] = "0" * 64
    entry.write_text(json.dumps(data))


def _tamper_mode(entry: Path) -> None:
    data = json.loads(entry.read_text())
    data["config"]["phase"] = "off"
    entry.write_text(json.dumps(data))
    entry.chmod(0o620)


def _tamper_link(entry: Path) -> None:
    data = json.loads(entry.read_text())
    data["config"]["phase"] = "off"
    other = entry.with_name("elsewhere")
    other.write_text(json.dumps(data))
    other.chmod(0o600)
    entry.unlink()
    entry.symlink_to(other)


def _tamper_garbage(entry: Path) -> None:
    entry.write_text("{not json")


@pytest.mark.parametrize(
    "tamper",
    [_tamper_content, _tamper_mode, _tamper_link, _tamper_garbage],
    ids=["another-key", "group-writable", "symlink", "garbage"],
)
def test_an_entry_that_does_not_verify_is_ignored(tmp_path: Path, tamper: object) -> None:
    folder, path = _folder(tmp_path), _write(tmp_path, FULL)
    load_compiled(path, None, folder)
    key = compiled_key(path, None, FULL.encode())
    entry = Path(folder) / entry_name(key)
    tamper(entry)  # type: ignore[operator]
    assert compiled_entry(folder, key) is None
    got = load_compiled(path, None, folder)
    assert not isinstance(got, ConfigProblem) and got.phase == "enforce"
    assert compiled_entry(folder, key) == got  # the fresh result replaced it


def test_no_cache_in_a_folder_others_can_enter(tmp_path: Path) -> None:
    rt = tmp_path / "rt"
    rt.mkdir(mode=0o755)
    rt.chmod(0o755)
    assert compiled_folder(str(rt)) is None
    rt.chmod(0o700)
    (rt / config.COMPILED_SUBDIR).mkdir(mode=0o777)
    (rt / config.COMPILED_SUBDIR).chmod(0o777)
    assert compiled_folder(str(rt)) is None


def test_missing_and_unreadable_files_answer_as_before(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    missing = str(tmp_path / "none.toml")
    assert load_compiled(missing, None, folder) == load_config(missing, None)
    assert os.listdir(folder) == []


def test_a_hook_process_with_an_entry_imports_neither_pydantic_nor_tomllib(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(FULL)
    rt = tmp_path / "rt"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ORCHESTRATOR_BOUNDARY")},
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(rt),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
    }
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(root / "a.py")},
    }
    launcher = str(REPO / "src" / "orchestrator_boundary" / "launcher.py")
    probe = "\n".join(
        [
            "import sys, runpy",
            f"sys.argv = [{launcher!r}, 'PreToolUse']",
            "try:",
            f"    runpy.run_path({launcher!r}, run_name='__main__')",
            "except SystemExit as exc:",
            "    code = exc.code",
            "names = ('pydantic', 'tomllib', 'orchestrator_boundary.bash.analysis')",
            "heavy = ','.join(sorted(m for m in names if m in sys.modules))",
            "sys.stderr.write(f'HEAVY={heavy} CODE={code}\\n')",
        ]
    )
    seen = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", probe],
            input=json.dumps(payload).encode(),
            env=env,
            cwd=root,
            capture_output=True,
            timeout=60,
            check=False,
        )
        seen.append(done.stderr.decode().strip().splitlines()[-1])
    assert seen[0] == "HEAVY=pydantic,tomllib CODE=0"  # the first process validates
    assert seen[1] == "HEAVY= CODE=0"  # the next one reads the compiled form
