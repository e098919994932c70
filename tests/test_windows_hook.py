"""Issue 15, point 1: the hooks start, judge and keep their audit trail on (simulated) Windows.

Every hook here is the real entry point run as a new process, as Claude Code runs it
(``python -I -S <script>``, the payload on stdin), under the Windows simulation of
tests/windows_sim.py: no ``fcntl`` or other POSIX-only module, no ``AF_UNIX``, an ``msvcrt``
stand-in with the CRT's locking semantics, ``ntpath`` rules on a project at
``C:\\Users\\dev\\proj`` (a folder of this test's tmp dir mapped as drive ``C:``).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from windows_sim import LK_LOCK, LK_NBLCK, LK_NBRLCK, LK_RLCK, Simulation, python_argv, sim_env

ROOT = "C:\\Users\\dev\\proj"
HOOKS = REPO / "hooks"
CLIENT = REPO / "src" / "orchestrator_boundary" / "client.py"
# the entry points a Windows install may register: the checkout's scripts, the package's client
ENTRIES = {
    "hooks-pre": ([str(HOOKS / "hook.py"), "PreToolUse"], "PreToolUse"),
    "hooks-post": ([str(HOOKS / "hook.py"), "PostToolUse"], "PostToolUse"),
    "client-pre": ([str(CLIENT), "PreToolUse"], "PreToolUse"),
    "client-post": ([str(CLIENT), "PostToolUse"], "PostToolUse"),
}
LOCK_MODES = {str(m) for m in (LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK)}


@pytest.fixture
def drive_c(tmp_path: Path) -> Path:
    """Drive C: with the project and the user's home on it."""
    c = tmp_path / "C"
    proj = c / "Users" / "dev" / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / "src").mkdir()
    (proj / "src" / "a.py").write_text("x = 1\n")
    (c / "Users" / "dev" / "AppData" / "Local" / "Temp").mkdir(parents=True)
    return c


def payload(
    tool: str = "Read",
    file: str = "src\\a.py",
    *,
    event: str = "PreToolUse",
    subagent: bool = False,
    tool_use_id: str = "toolu_01WIN",
) -> bytes:
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000b",
        "transcript_path": "C:\\Users\\dev\\.claude\\projects\\C--Users-dev-proj\\6d1c5b2e.jsonl",
        "cwd": ROOT,
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": {"file_path": f"{ROOT}\\{file}"},
        "tool_use_id": tool_use_id,
    }
    if tool == "Write":
        data["tool_input"]["content"] = "y = 2\n"
    if subagent:
        data["agent_id"] = "a1b2c3d4e5f607182"
        data["agent_type"] = "general-purpose"
    if event == "PostToolUse":
        data["tool_response"] = {"success": True}
    return json.dumps(data).encode()


def hook_env(drive_c: Path, *, daemon: bool = False, phase: str = "enforce") -> dict[str, str]:
    """What Claude Code hands a hook on Windows (the parts the package reads)."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CLAUDE_PROJECT_DIR": ROOT,
        "HOME": "C:\\Users\\dev",
        "USERPROFILE": "C:\\Users\\dev",
        "TEMP": "C:\\Users\\dev\\AppData\\Local\\Temp",
        "TMP": "C:\\Users\\dev\\AppData\\Local\\Temp",
        "ORCHESTRATOR_BOUNDARY_PHASE": phase,
    }
    if not daemon:
        env["ORCHESTRATOR_BOUNDARY_NO_DAEMON"] = "1"
    return env


def run_windows_hook(
    drive_c: Path, argv: list[str], raw: bytes, env: dict[str, str], report: Path
) -> subprocess.CompletedProcess[bytes]:
    full_env = sim_env(env, drives={"C:": str(drive_c)}, cwd=ROOT, report=str(report))
    return subprocess.run(
        python_argv(*argv), input=raw, env=full_env, capture_output=True, timeout=120, check=False
    )


def trail_lines(drive_c: Path) -> list[bytes]:
    """Every line of the project's audit trail, rotated files included, oldest first."""
    folder = drive_c / "Users" / "dev" / "proj" / ".claude" / "boundary"
    files = sorted(folder.glob("audit.jsonl.*"), key=lambda p: -int(p.suffix[1:]))
    files.append(folder / "audit.jsonl")
    return [line for f in files if f.exists() for line in f.read_bytes().splitlines(True)]


# ---- no POSIX-only module at start-up ----


@pytest.mark.parametrize("entry", list(ENTRIES), ids=list(ENTRIES))
def test_hook_starts_without_posix_only_modules(drive_c: Path, tmp_path: Path, entry: str) -> None:
    """A Read by the orchestrator: no answer (it breaks no rule), exit 0, one audit line; and
    no POSIX-only module was even tried (a failed ``import fcntl`` still searches every
    ``sys.path`` entry at start-up: the platform decides which module to import)."""
    argv, event = ENTRIES[entry]
    report = tmp_path / "report.json"
    done = run_windows_hook(drive_c, argv, payload(event=event), hook_env(drive_c), report)
    err = done.stderr.decode()
    assert (done.returncode, done.stdout, err) == (0, b"", ""), err[-1500:]
    tried = json.loads(report.read_text())["blocked"]
    assert tried == [], f"tried POSIX-only modules {tried}: choose by os.name, do not try"
    lines = trail_lines(drive_c)
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert (rec["event"], rec["tool_name"], rec["session_kind"], rec["decision"]) == (
        event,
        "Read",
        "main",
        "none",
    )


@pytest.mark.parametrize(
    "module",
    ["orchestrator_boundary.shell", "orchestrator_boundary.client", "orchestrator_boundary.cli"],
)
def test_package_imports_without_posix_only_modules(windows_sim: Simulation, module: str) -> None:
    """In this process: importing the hook's modules (and the CLI's) under Windows tries no
    POSIX-only module."""
    import importlib

    importlib.import_module(module)
    tried = windows_sim.blocked
    assert tried == [], f"tried POSIX-only modules {tried}: choose by os.name, do not try"


# ---- the audit trail locks with msvcrt: no line lost, none interleaved ----


def test_audit_write_locks_with_msvcrt(windows_sim: Simulation, tmp_path: Path) -> None:
    """In this process: one audit line written under Windows, locked with msvcrt."""
    import windows_sim as sim_module

    before = sum(sim_module.LOCK_CALLS.get(int(m), 0) for m in LOCK_MODES)
    from orchestrator_boundary import audit

    trail = tmp_path / "boundary" / "audit.jsonl"
    audit.write(str(trail), {"event": "PreToolUse", "tool_name": "Read", "decision": "none"})
    after = sum(sim_module.LOCK_CALLS.get(int(m), 0) for m in LOCK_MODES)
    assert after > before, "the audit trail was not locked with msvcrt.locking"
    rec = json.loads(trail.read_bytes())
    assert (rec["event"], rec["tool_name"]) == ("PreToolUse", "Read")


EVALUATOR = textwrap.dedent(
    """
    import json, os, sys
    from orchestrator_boundary.shell import evaluate

    worker, count = sys.argv[1], int(sys.argv[2])
    for i in range(count):
        raw = json.dumps({
            "session_id": "s-%s" % worker,
            "cwd": os.environ["CLAUDE_PROJECT_DIR"],
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": os.environ["CLAUDE_PROJECT_DIR"] + "\\\\src\\\\w%s.py" % worker,
                           "content": "x" * (i % 7) * 50},
            "tool_use_id": "toolu_%s_%d" % (worker, i),
        }).encode()
        answer = evaluate(raw, os.environ)
        if answer.exit_code != 0 or "audit trail not writable" in answer.stderr:
            sys.exit("call %d: exit %d %s" % (i, answer.exit_code, answer.stderr))
    """
)


def test_concurrent_hooks_lose_and_interleave_no_audit_line(drive_c: Path, tmp_path: Path) -> None:
    """4 processes judging 40 calls each and 6 whole hooks, all at once, on a trail that rotates
    every 16 KiB: every line lands exactly once, whole (valid JSON, one per line, ``\\n``
    endings as on Linux, so trails from mixed machines read the same), and every process that
    wrote locked with msvcrt."""
    (drive_c / "Users" / "dev" / "proj" / ".claude" / "boundary.toml").write_text(
        "[audit]\nmax_bytes = 16384\nkeep = 200\n"
    )
    script = tmp_path / "evaluator.py"
    script.write_text(EVALUATOR)
    workers, calls, hooks = 4, 40, 6
    env = hook_env(drive_c, phase="warn")
    started = []  # (name, argv, stdin file or None); all run at once, output to files
    for w in range(workers):
        started.append((f"w{w}", python_argv(str(script), f"w{w}", str(calls)), None))
    for h in range(hooks):
        stdin = tmp_path / f"h{h}.in"
        stdin.write_bytes(payload("Write", f"src\\h{h}.py", tool_use_id=f"toolu_h{h}"))
        started.append((f"h{h}", python_argv(str(HOOKS / "hook.py"), "PreToolUse"), stdin))
    procs = []
    with contextlib.ExitStack() as stack:
        for name, argv, stdin in started:
            report = tmp_path / f"report-{name}.json"
            full_env = sim_env(env, drives={"C:": str(drive_c)}, cwd=ROOT, report=str(report))
            err = stack.enter_context(open(tmp_path / f"{name}.err", "wb"))
            inp = stack.enter_context(open(stdin, "rb")) if stdin else subprocess.DEVNULL
            p = subprocess.Popen(
                argv, env=full_env, stdin=inp, stdout=subprocess.DEVNULL, stderr=err
            )
            stack.callback(p.wait)  # (callbacks run last first: kill, then wait)
            stack.callback(p.kill)  # only does something if the test gave up on it
            procs.append((name, report, p))
        for name, report, p in procs:
            p.wait(timeout=300)
            err_text = (tmp_path / f"{name}.err").read_text(errors="replace")
            assert p.returncode == 0 and not err_text, f"{name}: {err_text[-2000:]}"
            locking = json.loads(report.read_text())["locking"]
            assert LOCK_MODES & set(locking), f"{name}: no msvcrt lock taken ({locking})"
    lines = trail_lines(drive_c)
    assert all(line.endswith(b"\n") and not line.endswith(b"\r\n") for line in lines)
    ids = Counter(json.loads(line)["tool_use_id"] for line in lines)
    expected = {f"toolu_w{w}_{i}" for w in range(workers) for i in range(calls)}
    expected |= {f"toolu_h{h}" for h in range(hooks)}
    assert set(ids) == expected and set(ids.values()) == {1}
    boundary = drive_c / "Users" / "dev" / "proj" / ".claude" / "boundary"
    assert len(list(boundary.glob("audit.jsonl.*"))) >= 2  # it did rotate meanwhile


# ---- no evaluator where AF_UNIX does not exist: skipped cleanly ----

# (id, payload, the answer's key path and value, or None for no answer); exit 0 throughout
CALLS: list[tuple[str, bytes, tuple[str, ...] | None]] = [
    ("main-read", payload("Read"), None),
    ("main-write", payload("Write"), ("hookSpecificOutput", "permissionDecision", "deny")),
    ("subagent-write", payload("Write", subagent=True), None),
    ("main-write-post", payload("Write", event="PostToolUse"), ("decision", "block")),
]


@pytest.mark.parametrize(("raw", "answer"), [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_evaluator_is_skipped_cleanly_without_af_unix(
    drive_c: Path, tmp_path: Path, raw: bytes, answer: tuple[str, ...] | None
) -> None:
    """The evaluator is not disabled: with no Unix sockets the hook judges in its own process,
    answers as it would anywhere, with nothing on stderr, and leaves no socket behind; twice in
    a row (a first call must not leave anything that breaks the next)."""
    event = json.loads(raw)["hook_event_name"]
    argv, _ = ENTRIES["hooks-pre" if event == "PreToolUse" else "hooks-post"]
    env = hook_env(drive_c, daemon=True)
    for attempt in range(2):
        report = tmp_path / f"report{attempt}.json"
        done = run_windows_hook(drive_c, argv, raw, env, report)
        err = done.stderr.decode()
        assert (done.returncode, err) == (0, ""), err[-1500:]
        if answer is None:
            assert done.stdout == b""
        else:
            out = json.loads(done.stdout)
            for key in answer[:-1]:
                out = out[key]
            assert out == answer[-1]
        assert json.loads(report.read_text())["blocked"] == []
    assert [p.name for p in tmp_path.rglob("*.sock")] == []
    assert len(trail_lines(drive_c)) == 2


# ---- a package that cannot load still fails closed ----


@pytest.mark.parametrize(("phase", "code"), [("enforce", 2), ("warn", 0)])
def test_broken_install_blocks_on_windows(
    drive_c: Path, tmp_path: Path, phase: str, code: int
) -> None:
    """The client alone, without the policy beside it (a broken install): exit 2 with one line
    in enforce, 0 in warn; never exit 1 or a traceback, which would let the call through."""
    broken = tmp_path / "site" / "orchestrator_boundary"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('__version__ = "0"\n')
    (broken / "client.py").write_bytes(CLIENT.read_bytes())
    (broken / "wire.py").write_bytes(
        (CLIENT.parent / "wire.py").read_bytes()
    )  # its import-free leaf
    env = hook_env(drive_c, phase=phase)
    done = run_windows_hook(
        drive_c, [str(broken / "client.py"), "PreToolUse"], payload("Write"), env, tmp_path / "r"
    )
    err = done.stderr.decode()
    assert (done.returncode, done.stdout) == (code, b""), err[-1500:]
    assert err.startswith("orchestrator-boundary: cannot load the policy") and err.count("\n") == 1
