"""The hook process attacked, round ten (ADR 0072): the plugin's entry on a ``python3`` that
cannot import the package."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _plugin_without_package(tmp_path: Path) -> Path:
    """The plugin's ``hooks/hook.py`` beside a ``src/orchestrator_boundary`` that cannot be
    imported: what ``python3 -I -S hook.py`` meets on a machine whose python3 lacks the
    package (or has a broken copy of it)."""
    plugin = tmp_path / "plugin"
    shutil.copytree(REPO / "hooks", plugin / "hooks")
    broken = plugin / "src" / "orchestrator_boundary"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("")
    (broken / "hook_main.py").write_text("import a_module_that_is_not_there  # noqa\n")
    return plugin / "hooks" / "hook.py"


@pytest.mark.parametrize(
    ("event", "phase", "code"),
    [
        ("PreToolUse", "", 2),
        ("PostToolUse", "", 2),
        ("PreToolUse", "enforce", 2),
        ("PreToolUse", "warn", 0),
        ("PreToolUse", "off", 0),
        ("PostToolUseFailure", "", 0),
        ("SubagentStop", "", 0),
        ("Stop", "", 0),
        ("SessionEnd", "", 0),
    ],
)
def test_the_plugin_entry_without_the_package_blocks_tool_calls(
    tmp_path: Path, event: str, phase: str, code: int
) -> None:
    """A traceback exits 1: Claude Code before 2.1.295 ignores ``onFailure`` and lets the call
    through, unguarded and unrecorded. Now a tool call gets exit 2 with one line saying what
    to install (exit 0 under ORCHESTRATOR_BOUNDARY_PHASE=warn/off, the documented rollback);
    a stop or an observed event is never held."""
    hook = _plugin_without_package(tmp_path)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    if phase:
        env["ORCHESTRATOR_BOUNDARY_PHASE"] = phase
    payload = {"session_id": "s", "hook_event_name": event, "tool_name": "Write"}
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(hook), event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    err = done.stderr.decode()
    assert "Traceback" not in err
    assert err.startswith("orchestrator-boundary: ") and err.count("\n") == 1, err
    assert "cannot import the package" in err


def test_the_plugin_entry_with_the_package_still_answers(tmp_path: Path) -> None:
    """Control: the checkout's own entry judges a call (a main agent's Read: no answer)."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(root / "a.py")},
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "hooks" / "hook.py"), "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "CLAUDE_PROJECT_DIR": str(root),
            "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        },
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, b""), done.stderr


@pytest.mark.parametrize(
    ("event", "phase", "code"),
    [
        ("PreToolUse", "", 2),
        ("PostToolUse", "", 2),
        ("PreToolUse", "warn", 0),
        ("Stop", "", 0),
        ("PostToolUseFailure", "", 0),
    ],
)
def test_the_registered_launcher_of_a_half_installed_package_never_exits_1(
    tmp_path: Path, event: str, phase: str, code: int
) -> None:
    """``pip install --upgrade`` removes the old files before it writes the new ones: a hook
    started in between finds ``launcher.py`` but not ``hook_main.py``. The launcher died with
    a traceback, exit 1, which lets the call through wherever ``onFailure`` is not set."""
    package = Path(__import__("orchestrator_boundary").__file__).parent
    copy = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "hook_main.py").unlink()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    if phase:
        env["ORCHESTRATOR_BOUNDARY_PHASE"] = phase
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), event],
        input=b"{}",
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    err = done.stderr.decode()
    assert err.startswith("orchestrator-boundary: cannot load the package") and err.count("\n") == 1


SLOW_JUDGE = """
import sys, time
from orchestrator_boundary import client, shell
client.DEADLINE_S = float(sys.argv[2])
if sys.argv[3] == "slow":  # a judgement that takes longer than any hook timeout
    judge = shell.judge
    shell.judge = lambda *a, **k: (time.sleep(60), judge(*a, **k))[1]
sys.exit(client.run(sys.argv[1]))
"""


def _judged_late(
    tmp_path: Path, phase: str, raw: bytes, deadline: float, slow: str
) -> tuple[subprocess.CompletedProcess[bytes], float, list[dict[str, object]]]:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n')
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "PYTHONPATH": str(REPO / "src"),
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", SLOW_JUDGE, "PreToolUse", str(deadline), slow],
        input=raw,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    trail = root / ".claude" / "boundary" / "audit.jsonl"
    lines = [json.loads(x) for x in trail.read_text().splitlines()] if trail.exists() else []
    return done, time.monotonic() - started, lines


def _main_call(tmp_path: Path, command: str) -> bytes:
    root = tmp_path / "proj"
    return json.dumps(
        {
            "session_id": "s",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_1",
        }
    ).encode()


@pytest.mark.parametrize(("phase", "code"), [("enforce", 2), ("ask", 2), ("warn", 0), ("off", 0)])
def test_a_judgement_past_the_deadline_gets_a_deliberate_answer_and_a_line(
    tmp_path: Path, phase: str, code: int
) -> None:
    """Claude Code kills a hook at its timeout (10 s as installed) and lets the call through
    unless ``onFailure`` is set (2.1.295+, enforce and ask only): in warn the call's audit line
    was lost, on an older CLI an enforce project's call went through. Past ``DEADLINE_S`` the
    hook now answers as for an internal error: blocked in enforce and ask, let through in warn
    and off, and recorded."""
    raw = _main_call(tmp_path, "echo hi > src/a.py")
    done, took, lines = _judged_late(tmp_path, phase, raw, 1.0, "slow")
    assert took < 20, took
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    assert b"took more than 1 s" in done.stderr
    assert len(lines) == 1 and "HookDeadline" in str(lines[0]["error"]), lines


def test_a_judgement_within_the_deadline_is_untouched(tmp_path: Path) -> None:
    """Control: a call judged in time gets its verdict, and no timer is left to fire."""
    raw = _main_call(tmp_path, "echo hi > src/a.py")
    done, _took, lines = _judged_late(tmp_path, "enforce", raw, 8.0, "fast")
    assert done.returncode == 0 and b'"permissionDecision": "deny"' in done.stdout, done.stderr
    assert [line["code"] for line in lines] == ["BASH_WRITE"]


def test_a_command_that_takes_the_analysis_past_any_timeout_is_answered_in_time(
    tmp_path: Path,
) -> None:
    """A main agent's Bash write padded with a one-word megabyte took 11 s to judge (the
    tamper check's guessed spellings of the word), past the 10 s Claude Code gives the hook.
    Whatever the analysis costs, the answer now comes in time: a deny, or a block."""
    raw = _main_call(tmp_path, "echo " + "a" * 1_000_000 + " > src/a.py")
    done, took, lines = _judged_late(tmp_path, "enforce", raw, 2.0, "fast")
    assert took < 8, took
    denied = done.returncode == 0 and b'"permissionDecision": "deny"' in done.stdout
    assert denied or done.returncode == 2, done.stderr[-500:]
    assert len(lines) == 1


def test_the_deadline_leaves_a_callers_sigalrm_as_it_found_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``client.run`` also runs in process (tests, the pytest plugin): the deadline's timer is
    disarmed and the caller's SIGALRM handler put back once the call is judged."""
    import signal

    from orchestrator_boundary import client

    def mine(_signum: int, _frame: object) -> None:  # pragma: no cover - never fires
        raise AssertionError

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    old = signal.signal(signal.SIGALRM, mine)
    try:
        client.judge_in_time(b"", "Stop", "", 0.0)
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, old)
