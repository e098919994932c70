"""Point 3: the evaluator cannot be impersonated. A same-user process that binds a socket in
the evaluator's place and answers "no objection" is never believed: the call is judged in
process, and the hook says so. (The impostor in the audit line and in ``doctor``:
``test_impostor_record.py``.)"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator_boundary import wire

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


def _start(a: Arena, disguise: str) -> subprocess.Popen[bytes]:
    """The impostor, fed on stdin, started as ``python - SOCK ROOT [PADDING]``."""
    sock = a.socket()
    code = ANSWER_ALL.format(src=str(Path(wire.PACKAGE_DIR).parent), disguise=DISGUISES[disguise])
    argv = [sys.executable, "-", str(sock), str(a.root)]
    if DISGUISES[disguise]:  # "-I", "-S", daemon.py take the place of "-" and the padding
        argv.append("x" * (len(os.path.join(wire.PACKAGE_DIR, "daemon.py")) + 4))
    with open(a.base / "impostor.log", "wb") as log:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=log, stderr=log, env=a.env("evaluator")
        )
    assert proc.stdin is not None
    proc.stdin.write(code.encode())
    proc.stdin.close()
    return proc


@pytest.fixture
def impostor(fresh_arena: Arena, request: pytest.FixtureRequest) -> Iterator[Arena]:
    """A warm evaluator, then an impostor in its place on the socket."""
    a = fresh_arena
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
        proc.kill()
        proc.wait()


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
    for disguise in DISGUISES
    for route in ("hook", "evaluator")
    for marks in [[SPOOF_HOLE] if (DISGUISES[disguise] and route == "evaluator") else []]
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
