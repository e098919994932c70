"""The resident evaluator and its client (ADR 0009): same verdicts, and never fail open.

Every test gets its own runtime folder (ORCHESTRATOR_BOUNDARY_RUNTIME_DIR) and kills the
evaluators it started. "Through the evaluator" runs use an entry that cannot import the policy
itself (``site`` blocked), so an answer that did not come from the evaluator shows up as
"cannot load the policy" instead of silently passing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))
_loaded = sys.modules.get("orchestrator_boundary")
if _loaded is not None and not str(getattr(_loaded, "__file__", "")).startswith(str(SRC)):
    # another checkout was imported first (an installed pytest plugin): test this one
    for _name in [m for m in sys.modules if m.split(".")[0] == "orchestrator_boundary"]:
        del sys.modules[_name]

from orchestrator_boundary import client, daemon, peer, registration, setups, wire  # noqa: E402
from orchestrator_boundary.shell import evaluate  # noqa: E402

HOOK = REPO / "hooks" / "hook.py"  # the checkout's one entry script: hook.py EVENT
# The entry script with `site` made unimportable: only the evaluator can answer.
RUN_SCRIPT = (
    "sys.argv = sys.argv[1:]; src = open(sys.argv[0]).read(); "
    "exec(compile(src, sys.argv[0], 'exec'), {'__name__': '__main__', '__file__': sys.argv[0]})"
)
DAEMON_ONLY = "import sys; sys.modules['site'] = None; " + RUN_SCRIPT


@pytest.fixture
def rt() -> Iterator[Path]:
    """A short runtime folder (socket paths are limited to ~100 bytes); evaluators killed after."""
    path = Path(tempfile.mkdtemp(prefix="obd-", dir="/tmp"))
    path.chmod(0o700)
    try:
        yield path
    finally:
        for lock in path.glob("*.lock"):
            _kill(lock)
        shutil.rmtree(path, ignore_errors=True)


def _pid(lock: Path) -> int | None:
    try:
        return int(lock.read_text().strip() or 0) or None
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"daemon.py" in fh.read()
    except OSError:
        return False


def _kill(lock: Path, sig: int = signal.SIGTERM) -> None:
    pid = _pid(lock)
    if pid and _alive(pid):
        os.kill(pid, sig)
        _until(lambda: not _alive(pid), 5)


def _until(cond: Any, timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return bool(cond())


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n")
    (tmp_path / "home").mkdir(exist_ok=True)
    return root


def base_env(proj: Path, rt: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(proj.parent / "home"),
        "CLAUDE_PROJECT_DIR": str(proj),
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(rt),
        "ORCHESTRATOR_BOUNDARY_DAEMON_IDLE": "60",
    }
    env.update(extra)
    return env


def run_hook(
    event: str,
    raw: bytes,
    env: dict[str, str],
    cwd: Path,
    *,
    daemon_only: bool = False,
    script: str = str(HOOK),
) -> subprocess.CompletedProcess[bytes]:
    argv = (
        [sys.executable, "-I", "-S", "-c", DAEMON_ONLY, script, event]
        if daemon_only
        else [sys.executable, "-I", "-S", script, event]
    )
    return subprocess.run(
        argv, input=raw, env=env, cwd=cwd, capture_output=True, timeout=60, check=False
    )


def expected(event: str, raw: bytes, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    a = evaluate(raw, env, event=event)
    out = (a.stdout + "\n").encode() if a.stdout else b""
    return a.exit_code, out, a.stderr.encode()


def sock_of(proj: Path, rt: Path) -> Path:
    return Path(wire.socket_path(str(proj), {b"ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": bytes(rt)}))


def start_and_wait(proj: Path, rt: Path, env: dict[str, str]) -> Path:
    """One call starts the evaluator; wait until it listens and answers."""
    run_hook("PreToolUse", b"{}", env, proj)
    sock = sock_of(proj, rt)
    assert _until(sock.exists), "the evaluator did not start"
    probe = _payload(proj, "Read", {"file_path": str(proj / "src" / "app.py")})
    assert _until(
        lambda: run_hook("PreToolUse", probe, env, proj, daemon_only=True).returncode == 0
    ), "the evaluator does not answer"
    return sock


def _payload(
    proj: Path,
    tool: str,
    tool_input: dict[str, Any],
    *,
    event: str = "PreToolUse",
    agent: str | None = None,
    agent_type: str | None = None,
    **more: Any,
) -> bytes:
    data: dict[str, Any] = {
        "session_id": "sess-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(proj),
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }
    if agent:
        data["agent_id"] = agent
    if agent_type:
        data["agent_type"] = agent_type
    data.update(more)
    return json.dumps(data).encode()


def cases(proj: Path) -> list[tuple[str, str, bytes, dict[str, str]]]:
    """About fifty varied calls: (label, event, raw payload, extra env)."""
    app, new = str(proj / "src" / "app.py"), str(proj / "src" / "new.py")
    tools: list[tuple[str, dict[str, Any]]] = [
        ("Read", {"file_path": app}),
        ("Write", {"file_path": new, "content": "y = 2\n"}),
        ("Edit", {"file_path": app, "old_string": "1", "new_string": "2"}),
        ("MultiEdit", {"file_path": app, "edits": [{"old_string": "1", "new_string": "3"}]}),
        ("NotebookEdit", {"notebook_path": str(proj / "n.ipynb"), "new_source": "1"}),
        ("Bash", {"command": "echo hi > out.txt"}),
        ("Bash", {"command": "ls -la"}),
        ("Glob", {"pattern": "**/*.py"}),
        ("mcp__acme__frobnicate", {"x": 1}),
        ("Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"}),
        ("Write", {"file_path": str(proj / ".claude" / "settings.json"), "content": "{}"}),
        ("Write", {"file_path": "/etc/passwd", "content": ""}),
        ("Write", {"file_path": "relative/path.py", "content": ""}),
    ]
    out: list[tuple[str, str, bytes, dict[str, str]]] = []
    for who, agent, agent_type in (
        ("main", None, None),
        ("sub", "a1b2", "general-purpose"),
        ("main-agent-type", None, "planner"),
    ):
        for tool, ti in tools:
            out.append(
                (
                    f"{who}:{tool}",
                    "PreToolUse",
                    _payload(proj, tool, ti, agent=agent, agent_type=agent_type),
                    {},
                )
            )
    write = _payload(proj, "Write", {"file_path": app, "content": "x = 1\n"})
    post = _payload(
        proj,
        "Write",
        {"file_path": app, "content": "x = 1\n"},
        event="PostToolUse",
        tool_response={"filePath": app, "success": True},
    )
    post_bash = _payload(
        proj,
        "Bash",
        {"command": "echo hi > out.txt"},
        event="PostToolUse",
        tool_response={"stdout": "", "stderr": ""},
    )
    out += [
        ("post:Write", "PostToolUse", post, {}),
        (
            "post:Write sub",
            "PostToolUse",
            post.replace(b'"tool_name"', b'"agent_id": "a9", "tool_name"'),
            {},
        ),
        ("post:Bash", "PostToolUse", post_bash, {}),
        ("invalid json", "PreToolUse", b"{not json", {}),
        ("empty", "PreToolUse", b"", {}),
        ("whitespace", "PostToolUse", b"  \n", {}),
        ("json list", "PreToolUse", b"[1, 2]", {}),
        ("wrong type", "PreToolUse", b'{"hook_event_name": "PreToolUse", "tool_input": 5}', {}),
        ("non-tool event", "PreToolUse", b'{"hook_event_name": "Stop", "cwd": "/"}', {}),
        (
            "unicode path",
            "PreToolUse",
            _payload(proj, "Write", {"file_path": str(proj / "é ü.py"), "content": "ß"}),
            {},
        ),
    ]
    for phase in ("off", "warn", "ask", "enforce", "bogus"):
        out.append((f"phase {phase}", "PreToolUse", write, {"ORCHESTRATOR_BOUNDARY_PHASE": phase}))
    out.append(
        (
            "bypass",
            "PreToolUse",
            write,
            {"AMPLIFIER_BYPASS_BOUNDARY": "1", "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
        )
    )
    out.append(
        (
            "bypass protected",
            "PreToolUse",
            _payload(
                proj, "Write", {"file_path": str(proj / ".claude" / "boundary.toml"), "content": ""}
            ),
            {"AMPLIFIER_BYPASS_BOUNDARY": "yes", "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
        )
    )
    out.append(
        (
            "missing config file env",
            "PreToolUse",
            write,
            {"ORCHESTRATOR_BOUNDARY_CONFIG": "nope.toml", "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
        )
    )
    return out


def test_identical_verdicts_in_process_and_through_the_evaluator(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt)
    start_and_wait(proj, rt, env)
    all_cases = cases(proj)
    assert len(all_cases) >= 45
    for label, event, raw, extra in all_cases:
        e = {**env, **extra}
        code, out, err = expected(event, raw, e)
        got = run_hook(event, raw, e, proj, daemon_only=True)
        assert (got.returncode, got.stdout) == (code, out), label
        assert b"cannot load the policy" not in got.stderr, label
        assert got.stderr == err, label


def test_in_process_fallback_gives_the_same_verdicts(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    for label, event, raw, extra in cases(proj)[::6]:
        e = {**env, **extra}
        code, out, err = expected(event, raw, e)
        got = run_hook(event, raw, e, proj)
        assert (got.returncode, got.stdout, got.stderr) == (code, out, err), label
    # the compiled configs (ADR 0030) may be there; no evaluator's socket or lock
    assert not [p for p in rt.iterdir() if p.name != "configs"], "opted out: no evaluator"


def test_no_project_dir_means_in_process(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt)
    del env["CLAUDE_PROJECT_DIR"]
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    e = {**env, "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    got = run_hook("PreToolUse", raw, e, proj)
    assert (got.returncode, got.stdout) == expected("PreToolUse", raw, e)[:2]
    assert not list(rt.glob("*.sock"))


def test_permissions_of_folder_and_socket(proj: Path, rt: Path) -> None:
    sub = rt / "nested"  # the client creates the folder itself, 0700
    env = base_env(proj, sub)
    run_hook("PreToolUse", b"{}", env, proj)
    sock = sock_of(proj, sub)
    assert _until(sock.exists)
    assert stat.S_IMODE(sub.stat().st_mode) == 0o700
    assert stat.S_ISSOCK(sock.stat().st_mode)
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    for lock in sub.glob("*.lock"):
        _kill(lock)


def test_an_open_runtime_folder_is_not_used(proj: Path, rt: Path) -> None:
    rt.chmod(0o755)
    assert not wire.private_dir(str(rt), create=False)
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj)
    assert (got.returncode, got.stdout) == expected("PreToolUse", raw, env)[:2]
    time.sleep(0.5)
    assert not list(rt.iterdir())


def test_version_mismatch_falls_back_and_the_old_evaluator_quits(
    proj: Path, rt: Path, tmp_path: Path
) -> None:
    """An evaluator of another version at this socket (the package upgraded in place: the same
    folder, so it passes verification) gets MISMATCH, quits, and the call is judged here."""
    pkg = tmp_path / "inst" / "orchestrator_boundary"
    shutil.copytree(
        SRC / "orchestrator_boundary", pkg, ignore=shutil.ignore_patterns("__pycache__")
    )
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})

    def call() -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-I", "-S", str(pkg / "client.py"), "PreToolUse"],
            input=raw, env=env, cwd=proj, capture_output=True, timeout=60, check=False,
        )  # fmt: skip

    call()  # starts the evaluator of the copy
    assert _until(lambda: any(_alive(_pid(lk) or 0) for lk in rt.glob("*.lock")))
    lock = next(rt.glob("*.lock"))
    old_pid = _pid(lock)
    assert old_pid and _alive(old_pid)
    assert _until(lambda: lock.with_suffix(".sock").exists())
    init = pkg / "__init__.py"
    init.write_text(init.read_text().replace('__version__ = "', '__version__ = "0.0.0-new+'))
    got = call()
    assert (got.returncode, got.stdout) == expected("PreToolUse", raw, env)[:2]
    assert got.returncode == 0 and b'"deny"' in got.stdout
    assert b"not the evaluator" not in got.stderr
    assert _until(lambda: not _alive(old_pid), 10), "the old evaluator must quit"
    # the next calls start a current evaluator
    assert _until(lambda: call() is not None and (_pid(lock) or old_pid) != old_pid)


def test_killed_evaluator_leaves_a_stale_socket_fallback_then_fresh(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sock = start_and_wait(proj, rt, env)
    lock = sock.with_suffix(".lock")
    first = _pid(lock)
    assert first
    os.kill(first, signal.SIGKILL)
    assert _until(lambda: not _alive(first), 5)
    assert sock.exists(), "SIGKILL leaves the socket file behind"
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj)
    assert (got.returncode, got.stdout) == expected("PreToolUse", raw, env)[:2]
    assert b'"deny"' in got.stdout
    assert _until(lambda: (_pid(lock) or first) != first and _alive(_pid(lock) or 0))
    want = expected("PreToolUse", raw, env)[:2]

    def fresh_answers() -> bool:  # it holds the lock before it listens
        got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
        return (got.returncode, got.stdout) == want

    assert _until(fresh_answers)


def _fake_server(path: Path, behaviour: str, held: list[socket.socket]) -> socket.socket:
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(str(path))
    srv.listen(8)
    import threading

    def loop() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            if behaviour == "garbage":
                with contextlib.suppress(OSError):  # the client may hang up first
                    conn.recv(1 << 20)
                    conn.sendall(b"OBA1" + b"999:nonsense")
                conn.close()
            elif behaviour == "drop":
                conn.close()
            else:  # "silent": keep the connection open and never answer
                held.append(conn)

    threading.Thread(target=loop, daemon=True).start()
    return srv


@pytest.mark.parametrize("behaviour", ["garbage", "drop", "silent"])
def test_a_broken_evaluator_never_decides(proj: Path, rt: Path, behaviour: str) -> None:
    env = base_env(
        proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce", ORCHESTRATOR_BOUNDARY_DAEMON_TIMEOUT="0.5"
    )
    held: list[socket.socket] = []
    srv = _fake_server(sock_of(proj, rt), behaviour, held)
    try:
        for raw in (
            _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""}),
            _payload(proj, "Read", {"file_path": str(proj / "a.py")}),
            b"nonsense",
        ):
            got = run_hook("PreToolUse", raw, env, proj)
            assert (got.returncode, got.stdout) == expected("PreToolUse", raw, env)[:2]
    finally:
        srv.close()
        for conn in held:
            conn.close()


def test_config_change_reaches_a_running_evaluator(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt)
    cfg = proj / ".claude" / "boundary.toml"
    cfg.parent.mkdir()
    env["ORCHESTRATOR_BOUNDARY_PHASE"] = "enforce"
    cfg.write_text('[orchestrator]\nwrite_allow = ["a.py"]\n')
    start_and_wait(proj, rt, env)
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
    assert (got.returncode, got.stdout) == (0, b"")
    cfg.write_text('[orchestrator]\nwrite_allow = ["docs/**"]\n')
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
    assert got.returncode == 0 and b'"deny"' in got.stdout
    assert (got.returncode, got.stdout) == expected("PreToolUse", raw, env)[:2]
    cfg.write_text("phase = [broken\n")
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
    assert (got.returncode, got.stdout, got.stderr) == expected("PreToolUse", raw, env)


def test_idle_evaluator_quits_and_removes_its_socket(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_DAEMON_IDLE="1")
    sock = start_and_wait(proj, rt, env)
    pid = _pid(sock.with_suffix(".lock"))
    assert pid
    assert _until(lambda: not _alive(pid), 15)
    assert not sock.exists()


def test_a_second_evaluator_for_the_same_socket_exits(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt)
    sock = start_and_wait(proj, rt, env)
    second = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            str(SRC / "orchestrator_boundary" / "daemon.py"),
            str(sock),
            str(proj),
        ],
        env=env,
        timeout=30,
        check=False,
    )
    assert second.returncode == 0
    assert _alive(_pid(sock.with_suffix(".lock")) or 0)


def test_peer_check() -> None:
    me = os.getuid()
    assert daemon.peer_allowed(me, me)
    assert not daemon.peer_allowed(me + 1, me)
    assert not daemon.peer_allowed(0, 1000)
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        assert daemon.peer_uid(a) in (me, None)
    finally:
        a.close()
        b.close()


# (id, what the client did after its request, seconds since the request was read, timeout,
# has it given up): the evaluator judges only a request whose client will take the answer
GIVEN_UP = [
    ("waits", "shut-wr", 0.0, 2.5, False),
    ("closed", "close", 0.0, 2.5, True),
    ("waits-too-long", "shut-wr", 1.6, 2.5, True),
    ("waits-short-timeout", "shut-wr", 0.3, 0.5, True),
    ("waits-long-timeout", "shut-wr", 5.0, 10.0, False),
]


@pytest.mark.parametrize(
    ("client_did", "ago", "timeout", "gone"),
    [c[1:] for c in GIVEN_UP],
    ids=[c[0] for c in GIVEN_UP],
)
def test_a_request_whose_client_gave_up_is_not_judged(
    client_did: str, ago: float, timeout: float, gone: bool
) -> None:
    """ADR 0063: the client judges its call itself after ``timeout``; the evaluator must not
    judge it again (the call would stand twice in the trail)."""
    them, us = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        them.sendall(b"request")
        them.shutdown(socket.SHUT_WR)
        if client_did == "close":
            them.close()
        assert daemon.given_up(us, time.monotonic() - ago, timeout) is gone
    finally:
        them.close()
        us.close()


def test_both_sides_read_the_clients_timeout_alike() -> None:
    assert wire.client_timeout(None) == wire.client_timeout(b"") == wire.DEFAULT_TIMEOUT
    assert wire.client_timeout(b"0.5") == wire.client_timeout("0.5") == 0.5
    assert wire.client_timeout("soon") == wire.DEFAULT_TIMEOUT


def test_framing_round_trip_and_rejects_truncation() -> None:
    fields = [b"", b"a", b"x" * 1000, b"k=v\x00\xff", b"12:34"]
    assert wire.unpack(wire.pack(fields)) == fields
    with pytest.raises(ValueError):
        wire.unpack(wire.pack(fields)[:-1])
    with pytest.raises(ValueError):
        wire.unpack(b"abc")


def test_the_registered_command_runs_through_the_shell(proj: Path, rt: Path) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    want = expected("PreToolUse", raw, env)
    for _ in range(2):  # the first call starts the evaluator, the second may use it
        got = subprocess.run(
            ["sh", "-c", registration.direct_entry("PreToolUse")["command"]],
            input=raw,
            env=env,
            cwd=proj,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert (got.returncode, got.stdout, got.stderr) == want


def test_client_imports_stay_small(proj: Path, rt: Path) -> None:
    probe = (  # the answered call leaves by os._exit (ADR 0039): look at sys.modules there
        "import os, sys; before = set(sys.modules); leave = os._exit\n"
        "bad = {'json', 're', 'socket', 'pydantic', 'structlog', 'orchestrator_boundary.hook'}\n"
        "def seen(code):\n"
        " print(sorted(bad & (set(sys.modules) - before)), file=sys.stderr, flush=True)\n"
        " leave(code)\n"
        "os._exit = seen\n"
        f"{RUN_SCRIPT}\n"
    )
    env = base_env(proj, rt)
    start_and_wait(proj, rt, env)
    raw = _payload(proj, "Read", {"file_path": str(proj / "a.py")})
    got = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(HOOK), "PreToolUse"],
        input=raw,
        env=env,
        cwd=proj,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert got.stderr.strip().splitlines()[-1] == b"[]"


def test_edited_source_retires_the_evaluator_and_installed_form_works(
    proj: Path, rt: Path, tmp_path: Path
) -> None:
    """Run from a copy by path (the installed command form); touching a module retires it."""
    pkg = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(
        SRC / "orchestrator_boundary", pkg, ignore=shutil.ignore_patterns("__pycache__")
    )
    argv = [sys.executable, "-I", "-S", str(pkg / "client.py"), "PreToolUse"]
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    want = expected("PreToolUse", raw, env)[:2]

    def call() -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            argv, input=raw, env=env, cwd=proj, capture_output=True, timeout=60, check=False
        )

    assert (call().returncode, call().stdout) == want
    assert _until(lambda: any(_alive(_pid(lk) or 0) for lk in rt.glob("*.lock")))
    lock = next(rt.glob("*.lock"))
    first = _pid(lock)
    assert first
    # It holds the lock while it imports; the edit must meet it listening, else the next call
    # is judged in process and nothing ever asks the old evaluator (it would idle out).
    assert _until(lambda: lock.with_suffix(".sock").exists())
    later = time.time() + 5
    os.utime(pkg / "policy.py", (later, later))
    got = call()
    assert (got.returncode, got.stdout) == want
    assert _until(lambda: not _alive(first), 10), "an evaluator running old code must quit"


def test_the_registered_command_survives_the_shell(tmp_path: Path) -> None:
    odd = tmp_path / 'it\'s a $HOME "dir" `x`'
    odd.mkdir()
    (odd / "launcher.py").write_text("")  # the guard for a removed package looks for it
    for event in wire.EVENTS:
        cmd = registration.direct_entry(
            event, launcher_py=str(odd / "launcher.py"), platform="linux"
        )["command"]
        echo = subprocess.run(
            ["sh", "-c", cmd.replace("; exec ", "; printf '%s\\n' ").replace(" -I -S ", " ")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        assert echo == [sys.executable, str(odd / "launcher.py"), event]


def test_a_listener_that_is_not_the_evaluator_is_never_asked(proj: Path, rt: Path) -> None:
    """A well-formed "no objection" from some other process must not be taken for a verdict."""
    held: list[socket.socket] = []
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(str(sock_of(proj, rt)))
    srv.listen(8)
    import threading

    def lenient() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            held.append(conn)
            with contextlib.suppress(OSError):  # the client hangs up without asking
                conn.recv(1 << 20)
                conn.sendall(b"OBA1" + wire.pack([b"0", b"", b""]))

    threading.Thread(target=lenient, daemon=True).start()
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    try:
        got = run_hook("PreToolUse", raw, env, proj)
        assert got.returncode == 0 and b'"deny"' in got.stdout
    finally:
        srv.close()
        for conn in held:
            conn.close()


# With no phase named, the default phase (warn) is known by then: the call goes through, with
# the message and an audit line, as any failure in warn does.
@pytest.mark.parametrize(("phase", "code"), [("", 0), ("enforce", 2), ("warn", 0), ("off", 0)])
def test_a_broken_install_blocks_instead_of_crashing(
    proj: Path, rt: Path, phase: str, code: int
) -> None:
    """No evaluator and the installation's packages cannot be found (`site` blocked): exit 2
    (or 0 in warn/off, named in the environment), never 1. The policy itself may load (it
    imports no installed package) and fail later, when a write is checked against the
    protected set, which holds the interpreter's paths and needs `site` (a Read never asks
    for the set, ADR 0042, and is judged)."""
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1", ORCHESTRATOR_BOUNDARY_PHASE=phase)
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)  # `site` blocked
    assert got.returncode == code
    assert got.stdout == b""
    assert got.stderr.startswith(
        (b"orchestrator-boundary: cannot load the policy", b"orchestrator-boundary: cannot judge")
    )


@pytest.mark.parametrize(("named", "code"), [("", 2), ("ask", 2), ("warn", 0), ("off", 0)])
def test_a_call_that_cannot_even_be_set_up_blocks_unless_a_phase_is_named(
    proj: Path, monkeypatch: pytest.MonkeyPatch, named: str, code: int
) -> None:
    """When even the setup fails (nothing tells the phase), the call is blocked, never let
    through by a crash; naming warn or off in the environment (the documented rollback) lets
    it through. (Blocking ``site`` used to reach this path; the setup no longer needs it.)"""
    import orchestrator_boundary.shell as shell_module

    def broken(*_args: object) -> None:
        raise OSError("the installation cannot be read")

    monkeypatch.setattr(shell_module, "setup", broken)
    env = {
        "CLAUDE_PROJECT_DIR": str(proj),
        **({"ORCHESTRATOR_BOUNDARY_PHASE": named} if named else {}),
    }
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    answer = evaluate(raw, env, event="PreToolUse")
    assert (answer.exit_code, answer.stdout) == (code, ""), named
    assert "cannot judge this call: internal error (OSError" in answer.stderr


# ---- the real payloads, both ways ----

CORPUS_CONFIG = """\
[orchestrator]
write_allow = ["STATE.md", "docs/plans/**"]

[agents.explorer]
tools = ["Glob", "Grep", "Read", "Bash"]

[agents.coder]
tools = ["Write", "Edit", "MultiEdit", "Read", "Glob", "Grep", "Bash", "coordinate"]
write_scope = ["src/**", "tests/**", "!**/*.lock"]

[agents."*"]
write_scope = ["src/**"]
"""


def _corpus_sample(proj: Path, every: int) -> list[tuple[str, bytes]]:
    """Every ``every``-th corpus payload as (event, raw), its cwd moved into ``proj`` so that
    relative Bash targets land inside the project and meet the write rules and scopes."""
    import gzip

    from conftest import corpus_dir

    corpus = corpus_dir()
    if corpus is None:
        pytest.skip("../shared/corpus is absent")
    out = []
    n = 0
    for path in sorted((corpus / "payloads").glob("*.jsonl.gz")):
        with gzip.open(path, "rb") as lines:
            for line in lines:
                n += 1
                if n % every:
                    continue
                try:
                    data = json.loads(line)
                except ValueError:
                    out.append(("PreToolUse", line))  # malformed input is part of the contract
                    continue
                event = "PreToolUse"
                if isinstance(data, dict):
                    if data.get("hook_event_name") == "PostToolUse":
                        event = "PostToolUse"
                    data["cwd"] = str(proj)
                out.append((event, json.dumps(data).encode()))
    return out


def _forget_decisions() -> None:
    """Empty what a long-lived process remembers of earlier calls (Setups, Bash analyses):
    the next call is judged like a new process would judge it. The file-system facts stay:
    they expire by themselves within FS_TTL and nothing on disk changes here."""
    from orchestrator_boundary import bash

    bash.clear_memo()
    setups.CACHE.setups.clear()


@pytest.mark.corpus
def test_a_long_lived_evaluator_answers_the_corpus_as_a_new_process_would(
    proj: Path, rt: Path
) -> None:
    """A third of the 17,520 real payloads through one running evaluator (its Setup cache,
    Bash memo and file-system facts warm and shared across calls, as in a session) and, for
    each, in this process with every cache emptied first: exit code, stdout and stderr must be
    the same bytes."""
    (proj / ".claude").mkdir()
    (proj / ".claude" / "boundary.toml").write_text(CORPUS_CONFIG)
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sample = _corpus_sample(proj, every=3)
    sock = str(start_and_wait(proj, rt, env))
    head = [wire.version_tag()]
    tail = [os.fsencode(proj), *(f"{k}={v}".encode() for k, v in env.items()), b""]
    decisions: dict[bytes, int] = {}
    for event, raw in sample:
        got = client.request(sock, str(proj), [*head, event.encode(), *tail, raw], 30.0)
        assert got is not None, raw[:200]
        _forget_decisions()
        code, out, err = expected(event, raw, env)
        assert (int(got[0]), got[1], got[2]) == (code, out, err), raw[:300]
        kind = b"deny" if b'"deny"' in out else b"block" if b'"block"' in out else b"other"
        decisions[kind] = decisions.get(kind, 0) + 1
    assert len(sample) > 5000
    # the sample reaches the deciding paths, not only "no objection"
    print(f"\nevaluator vs new process over {len(sample)} corpus payloads: {decisions}")
    assert decisions.get(b"deny", 0) > 500 and decisions.get(b"block", 0) > 100, decisions


def test_the_evaluator_answers_a_ping_itself_and_judges_nothing(proj: Path, rt: Path) -> None:
    """``doctor``'s ping: the reply's writer (SCM_CREDENTIALS) is the verified listener, the
    evaluator's own pid from its lock file, and no audit line is written for it."""
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sock = start_and_wait(proj, rt, env)
    trail = proj / ".claude" / "boundary" / "audit.jsonl"
    before = trail.read_bytes() if trail.exists() else b""
    conn = peer.connect(str(sock), 5.0)
    try:
        writer = peer.verified_peer(conn, str(sock), str(proj))
        conn.sendall(wire.REQUEST_MAGIC + wire.pack([wire.version_tag(), wire.PING]))
        conn.shutdown(socket.SHUT_WR)
        reply = peer.read_reply(conn, writer, wire.MAX_REPLY_BYTES)
    finally:
        conn.close()
    assert writer == _pid(sock.with_suffix(".lock"))
    assert reply == wire.REPLY_MAGIC + wire.pack([b"0", b"", b""])
    assert (trail.read_bytes() if trail.exists() else b"") == before
    with pytest.raises(peer.Impostor, match=f"but pid {os.getpid()} wrote the reply"):
        left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with left, right:
            left.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
            right.sendall(b"OBA1")
            right.shutdown(socket.SHUT_WR)
            peer.read_reply(left, writer, wire.MAX_REPLY_BYTES)


@pytest.mark.parametrize(("phase", "code"), [("enforce", 2), ("warn", 0)])
def test_the_client_and_wire_alone_block_with_the_evaluator_route_on(
    proj: Path, rt: Path, tmp_path: Path, phase: str, code: int
) -> None:
    """A broken install that kept only ``client.py`` and ``wire.py``, on Linux with the
    evaluator route enabled: the route's own modules (``peer``) are missing too, and the call
    still ends in "cannot load the policy" with exit 2 (0 in warn), never exit 1."""
    broken = tmp_path / "site" / "orchestrator_boundary"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('__version__ = "0"\n')
    for name in ("client.py", "wire.py"):
        (broken / name).write_bytes((Path(client.__file__).parent / name).read_bytes())
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE=phase)
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj, script=str(broken / "client.py"))
    assert (got.returncode, got.stdout) == (code, b""), got.stderr[-1500:]
    assert got.stderr.startswith(b"orchestrator-boundary: cannot load the policy"), got.stderr
    assert got.stderr.count(b"\n") == 1, got.stderr
