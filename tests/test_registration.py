"""What install registers, by scope, phase and platform (ADRs 0023, 0024), with Windows-shaped
paths: an absolute python.exe, exec form (no shell parses it, so spaces need no quoting)."""

from __future__ import annotations

import json
import ntpath
from typing import Any

import pytest

from orchestrator_boundary import registration as rg
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.cmd_install import plan

WIN_PY = r"C:\Users\Ann Lee\AppData\Local\Programs\Python\Python312\python.exe"
WIN_LAUNCHER = r"C:\Users\Ann Lee\proj env\Lib\site-packages\orchestrator_boundary\launcher.py"


@pytest.mark.parametrize(
    ("phase", "on_failure"),
    [("enforce", "block"), ("ask", "block"), ("warn", None), ("off", None)],
    ids=["enforce", "ask", "warn", "off"],
)
@pytest.mark.parametrize("scope", ["project", "local", "user", "managed"])
def test_on_failure_by_phase_on_the_tool_entries(
    scope: str, phase: str, on_failure: str | None
) -> None:
    entries = rg.entries(
        scope, phase, python="/v/bin/python", launcher_py="/v/orchestrator_boundary/launcher.py"
    )
    assert list(entries) == [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "SubagentStop",
        "Stop",
        "SessionEnd",
    ]
    for event, entry in entries.items():
        # never on an observed or lifecycle event: a failure there must not hold a stop (ADR 0033)
        assert entry.get("onFailure") == (on_failure if event in rg.TOOL_EVENTS else None)
        assert entry["timeout"] == 10 and entry["type"] == "command"
        assert se.is_ours(entry)


@pytest.mark.parametrize(
    ("scope", "tail"),
    [("local", ["PreToolUse"]), ("user", ["PreToolUse", "user"]), ("managed", ["PreToolUse"])],
    ids=["local", "user", "managed"],
)
def test_windows_entries_name_an_absolute_python_exe_in_exec_form(
    scope: str, tail: list[str]
) -> None:
    entry = rg.entries(scope, "enforce", python=WIN_PY, launcher_py=WIN_LAUNCHER, platform="win32")[
        "PreToolUse"
    ]
    assert entry == {
        "type": "command",
        "command": WIN_PY,
        "args": rg.exec_args(WIN_LAUNCHER, tail),
        "timeout": 10,
        "onFailure": "block",
    }
    assert ntpath.isabs(entry["command"]) and entry["command"].endswith("python.exe")
    assert se.is_ours(entry)  # found by the marker in args, so uninstall removes it


@pytest.mark.parametrize(
    ("given", "registered"),
    [
        (r"C:\Python312\python3.exe", r"C:\Python312\python.exe"),
        (r"C:\Python312\python3.12.exe", r"C:\Python312\python.exe"),
        (r"C:\Python312\pythonw.exe", r"C:\Python312\python.exe"),
        (r"D:\tools\my venv\Scripts\python.exe", r"D:\tools\my venv\Scripts\python.exe"),
        (r"\\server\share\py\python.exe", r"\\server\share\py\python.exe"),
    ],
    ids=["python3.exe", "python3.12.exe", "pythonw.exe", "spaces", "UNC"],
)
def test_windows_python_is_always_python_exe(given: str, registered: str) -> None:
    assert rg.windows_python(given) == registered


@pytest.mark.parametrize(
    "bad",
    [
        r"C:\Users\a\AppData\Local\Microsoft\WindowsApps\python3.exe",
        "python3",
        "python.exe",
    ],
    ids=["Store stub", "bare python3", "relative"],
)
def test_windows_python_refuses_the_store_stub_and_names(bad: str) -> None:
    with pytest.raises(ValueError):
        rg.windows_python(bad)


def test_posix_entries_are_quoted_for_sh() -> None:
    entry = rg.direct_entry(
        "post", python="/opt/my env/bin/python", launcher_py="/s p/launcher.py", platform="linux"
    )
    assert "args" not in entry
    assert entry["command"].startswith(  # the interpreter too (ADR 0084)
        '[ -f "/s p/launcher.py" ] && [ -x "/opt/my env/bin/python" ] || { [ -f "/s p/launcher.py" ] && echo '
    )
    assert rg.entry_argv(entry) == [
        "/opt/my env/bin/python",
        "-I",
        "-S",
        "/s p/launcher.py",
        "PostToolUse",
    ]
    odd = rg.direct_entry("pre", python='/a "b"/$x/python', launcher_py="/l.py", platform="linux")
    assert rg.entry_argv(odd)[0] == '/a "b"/$x/python'


def test_the_project_entry_holds_no_machine_path_and_works_in_both_windows_shells() -> None:
    command = rg.shim_command("pre", "warn")
    assert command == (
        'sh "${CLAUDE_PROJECT_DIR}/.claude/orchestrator-boundary/launch.sh" PreToolUse warn'
    )
    # braces: bash expands it; Claude Code rewrites ${CLAUDE_PROJECT_DIR} to
    # ${env:CLAUDE_PROJECT_DIR} for PowerShell, where $CLAUDE_PROJECT_DIR would be undefined
    assert "$CLAUDE_PROJECT_DIR" not in command.replace("${CLAUDE_PROJECT_DIR}", "")
    assert rg.shim_phase(command) == ("PreToolUse", "warn")
    assert rg.shim_phase('sh "/elsewhere/launch.sh" PreToolUse warn') is None


@pytest.mark.parametrize("phase", ["off", "warn", "ask", "enforce"])
def test_in_step_moves_the_phase_and_on_failure_only(phase: str) -> None:
    old: dict[str, Any] = {
        "type": "command",
        "command": rg.shim_command("PreToolUse", "warn"),
        "timeout": 7,
        "statusMessage": "guarding",
    }
    new = rg.in_step(old, phase)
    assert new["command"] == rg.shim_command("PreToolUse", phase)
    assert new.get("onFailure") == rg.on_failure(phase)
    assert {k: v for k, v in new.items() if k not in ("command", "onFailure")} == {
        "type": "command",
        "timeout": 7,
        "statusMessage": "guarding",
    }


def test_pointer_uses_forward_slashes_on_windows() -> None:
    assert rg.pointer_text(WIN_PY, WIN_LAUNCHER) == (
        "C:/Users/Ann Lee/AppData/Local/Programs/Python/Python312/python.exe\n"
        "C:/Users/Ann Lee/proj env/Lib/site-packages/orchestrator_boundary/launcher.py\n"
    )
    assert rg.pointer_text("/v/bin/python", "/v/l.py") == "/v/bin/python\n/v/l.py\n"


def test_a_windows_install_plan(tmp_path: Any) -> None:
    """``install --scope local`` planned as on Windows: exec form, python.exe, onFailure."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text('phase = "ask"\n')
    env = {"HOME": str(tmp_path / "home")}
    res = plan(
        "install", str(root), "local", environ=env, python=r"C:\Py\python3.exe", platform="win32"
    )
    settings = next(e for e in res.edits if e.what == "settings")
    data = json.loads(settings.new or "")
    [entry] = data["hooks"]["PreToolUse"][0]["hooks"]
    assert entry["command"] == r"C:\Py\python.exe" and entry["onFailure"] == "block"
    assert entry["args"][:2] == ["-I", "-S"] and entry["args"][-1] == "PreToolUse"
    pointer = next(e for e in res.edits if e.what == "pointer")
    assert (pointer.new or "").splitlines()[0] == "C:/Py/python.exe"
