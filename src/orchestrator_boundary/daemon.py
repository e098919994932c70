"""The resident evaluator: one process per user and project keeps the policy imported. ADR 0009.

Started on demand by ``peer.start_daemon`` as ``python -I -S daemon.py SOCKET ROOT``. It
answers each request with ``shell.evaluate`` (so its verdicts are the in-process ones), using
the environment and working folder the hook process sent, never its own. It

- takes an exclusive lock beside the socket before anything else: a second copy exits;
- binds the socket 0600 in a 0700 folder and answers only peers with its own uid (SO_PEERCRED);
- answers a request from another version with ``MISMATCH`` and quits at once (the hook then
  judges in-process and the next call starts a current evaluator);
- quits after ``ORCHESTRATOR_BOUNDARY_DAEMON_IDLE`` seconds without a request (default 600),
  or when its socket file was removed or replaced.
- keeps its resources bounded (issue 13 point 5): at most ``wire.MAX_CONNECTIONS`` at once
  (the rest are closed at accept and judged in the hook's process), each request read within
  ``READ_TIMEOUT`` into buffers of the announced field sizes, refused as soon as a length is
  over ``wire.MAX_EVALUATOR_PAYLOAD_BYTES`` (or the whole over that plus the environment's
  ``wire.MAX_EVALUATOR_ENV_BYTES``).

The client verifies this process before it sends anything (ADR 0026): its executable and its
exact command line, as ``peer.start_daemon`` gives it.

Evaluations run one at a time (a lock): the policy keeps per-process caches and the working
folder is process-wide. Reading requests and writing replies happen in a thread per connection.
"""

from __future__ import annotations

import contextlib
import os
import sys

if __name__ == "__main__":  # run by path with -S: find the package the way the client does
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from orchestrator_boundary import wire

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    import socket

DEFAULT_IDLE = 600.0
READ_TIMEOUT = 5.0  # for the whole request: a slow sender cannot hold a connection slot
MAX_FIELD_DIGITS = 10
# An evaluation is begun only while the client still waits at least this long (or half its
# timeout): the hook's own evaluations take milliseconds, so one begun then is answered in time.
EVALUATION_MARGIN = 1.0


class Refused(Exception):
    """A request over a limit (size, time): the connection is closed without an answer."""


def read_request(conn: socket.socket, deadline: float) -> list[bytes]:
    """The request's fields, each read into a buffer of its announced size.

    A field announced over ``wire.MAX_EVALUATOR_PAYLOAD_BYTES``, or fields over that plus
    ``wire.MAX_EVALUATOR_ENV_BYTES`` together, are refused as soon as the length prefix is
    read: nothing more of them is read or buffered."""
    import time

    limit = wire.MAX_EVALUATOR_PAYLOAD_BYTES + wire.MAX_EVALUATOR_ENV_BYTES
    pending = bytearray()

    def more() -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Refused("too slow")
        conn.settimeout(left)
        chunk = conn.recv(65536)
        pending.extend(chunk)
        return bool(chunk)

    while len(pending) < len(wire.REQUEST_MAGIC):
        if not more():
            raise Refused("short")
    if pending[: len(wire.REQUEST_MAGIC)] != wire.REQUEST_MAGIC:
        raise Refused("not a request")
    del pending[: len(wire.REQUEST_MAGIC)]
    fields: list[bytes] = []
    total = 0
    while True:
        colon = pending.find(b":", 0, MAX_FIELD_DIGITS + 1)
        while colon < 0:
            if len(pending) > MAX_FIELD_DIGITS:
                raise Refused("bad length")
            if not more():
                if pending:
                    raise Refused("truncated")
                return fields
            colon = pending.find(b":", 0, MAX_FIELD_DIGITS + 1)
        digits = bytes(pending[:colon])
        if not digits.isdigit():
            raise Refused("bad length")
        size = int(digits)
        total += size
        if size > wire.MAX_EVALUATOR_PAYLOAD_BYTES or total > limit:
            raise Refused("too large")
        del pending[: colon + 1]
        if len(pending) >= size:
            fields.append(bytes(pending[:size]))
            del pending[:size]
            continue
        fields.append(_read_rest(conn, deadline, pending, size))
        pending.clear()


def _read_rest(conn: socket.socket, deadline: float, start: bytearray, size: int) -> bytes:
    """A field of ``size`` bytes that begins with ``start``: the rest read into one buffer."""
    import time

    buf = bytearray(size)
    got = len(start)
    buf[:got] = start
    view = memoryview(buf)
    try:
        while got < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Refused("too slow")
            conn.settimeout(left)
            n = conn.recv_into(view[got:])
            if not n:
                raise Refused("truncated")
            got += n
    finally:
        view.release()
    return bytes(buf)


def given_up(conn: socket.socket, read: float, timeout: float) -> bool:
    """True when the client that sent the request read at ``read`` is gone (it closed the
    connection: ``POLLHUP``) or will be before an evaluation begun now could answer (less
    than ``EVALUATION_MARGIN`` of its ``timeout`` is left). Its call is then judged in the
    hook's own process, with its own audit line and state: judged here as well, it would be
    recorded twice, the second time perhaps seconds later under a changed config. A request
    dropped here gets no reply, so a client still waiting judges its call at once. ADR 0063."""
    import select
    import time

    if time.monotonic() > read + timeout - min(EVALUATION_MARGIN, timeout / 2):
        return True
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLERR) for _, events in poller.poll(0))


def peer_allowed(peer_uid: int, own_uid: int) -> bool:
    """Only the user who owns the evaluator may use it (root included: no exceptions)."""
    return peer_uid == own_uid


def peer_uid(conn: socket.socket) -> int | None:
    """The connecting process's uid from SO_PEERCRED (Linux); None when unavailable."""
    import socket
    import struct

    opt = getattr(socket, "SO_PEERCRED", None)
    if opt is None:
        return None
    raw = conn.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return int(uid)


class Evaluator:
    def __init__(self, path: str, root: str, idle: float) -> None:
        import threading

        self.path, self.root, self.idle = path, root, idle
        self.version = wire.version_tag()
        self.eval_lock = threading.Lock()
        self.state_lock = threading.Lock()
        self.active = 0
        self.last = 0.0
        self.ino: int | None = None
        self.lock_fd = -1
        self.listener: socket.socket | None = None

    # -- start --

    def acquire(self) -> bool:
        import fcntl

        fd = os.open(wire.lock_path(self.path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self.lock_fd = fd
        return True

    def warm_up(self) -> None:
        """Import and exercise the policy once, so the first real call is fast too."""
        import datetime  # noqa: F401 - the audit timestamp imports it lazily
        import json  # noqa: F401

        from orchestrator_boundary.payload import payload_from_obj
        from orchestrator_boundary.setups import setup
        from orchestrator_boundary.shell import judge

        env = {"CLAUDE_PROJECT_DIR": self.root}
        for tool, tool_input in (
            ("Bash", {"command": "echo hi > out.txt"}),
            ("Write", {"file_path": os.path.join(self.root, "x"), "content": ""}),
        ):
            try:
                payload = payload_from_obj(
                    {
                        "session_id": "warm-up",
                        "transcript_path": "",
                        "cwd": self.root,
                        "hook_event_name": "PreToolUse",
                        "tool_name": tool,
                        "tool_input": tool_input,
                    }
                )
                judge(payload, setup(payload.cwd, env))
            except Exception:  # noqa: BLE001, S112 - warming up is best effort
                continue

    def bind(self) -> None:
        import socket
        import time

        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # stale: we hold the lock, so no live evaluator owns it
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(self.path)
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        sock.listen(128)
        sock.settimeout(min(1.0, max(self.idle / 4, 0.05)))
        self.ino = os.stat(self.path).st_ino
        self.listener = sock
        self.last = time.monotonic()

    # -- stop --

    def cleanup(self) -> None:
        try:
            if self.ino is not None and os.stat(self.path).st_ino == self.ino:
                os.unlink(self.path)
        except OSError:
            pass
        if self.lock_fd >= 0:
            os.close(self.lock_fd)  # releases the lock: a fresh evaluator may start now
            self.lock_fd = -1

    def quit(self) -> None:
        """Stop now, but never in the middle of an evaluation (an audit line half written)."""
        self.eval_lock.acquire()
        self.cleanup()
        os._exit(0)

    def socket_is_ours(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.ino
        except OSError:
            return False

    # -- serve --

    def serve(self) -> None:
        import threading
        import time

        listener = self.listener
        assert listener is not None, "bind() first"
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                with self.state_lock:
                    idle = self.active == 0 and time.monotonic() - self.last > self.idle
                if idle or not self.socket_is_ours():
                    self.quit()
                continue
            except OSError:
                continue
            with self.state_lock:
                full = self.active >= wire.MAX_CONNECTIONS
                if not full:
                    self.active += 1
                    self.last = time.monotonic()
            if full:  # refused at once: the client judges in process
                with contextlib.suppress(OSError):
                    conn.close()
                continue
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn: socket.socket) -> None:
        import time

        try:
            self.answer(conn)
        except Exception:  # noqa: BLE001, S110 - the client falls back when the reply is missing
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.close()
            with self.state_lock:
                self.active -= 1
                self.last = time.monotonic()

    def answer(self, conn: socket.socket) -> None:
        uid = peer_uid(conn)
        if uid is not None and not peer_allowed(uid, os.getuid()):
            return
        import time

        try:
            fields = read_request(conn, time.monotonic() + READ_TIMEOUT)
        except (Refused, ValueError, OSError):
            return
        read = time.monotonic()
        if not fields:
            return
        if fields[0] != self.version:
            conn.sendall(wire.MISMATCH + wire.pack([self.version]))
            self.quit()
        if fields[1:] == [wire.PING]:  # doctor: who writes the replies (ADR 0026)
            conn.sendall(wire.REPLY_MAGIC + wire.pack([b"0", b"", b""]))
            return
        event, cwd = fields[1].decode(), fields[2]
        end = fields.index(b"", 3)
        if event not in wire.EVENTS or len(fields) != end + 2:
            return
        environ = {}
        for item in fields[3:end]:
            key, sep, value = item.partition(b"=")
            if sep:
                environ[os.fsdecode(key)] = os.fsdecode(value)
        environ.pop(wire.IMPOSTOR_ENV, None)  # only the client's in-process route sets it
        raw = fields[end + 1]
        from orchestrator_boundary.shell import evaluate

        with self.eval_lock:
            if given_up(conn, read, wire.client_timeout(environ.get(wire.TIMEOUT_ENV))):
                return  # judged in the hook's own process: judged here too, it is there twice
            try:
                os.chdir(cwd or b"/")
            except OSError:
                os.chdir("/")
            result = evaluate(raw, environ, event=event)
        code, out, err = result.encoded()
        conn.sendall(wire.REPLY_MAGIC + wire.pack([b"%d" % code, out, err]))


def idle_seconds() -> float:
    try:
        return float(os.environ.get(wire.IDLE_ENV, "") or DEFAULT_IDLE)
    except ValueError:
        return DEFAULT_IDLE


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: daemon.py SOCKET ROOT\n")
        return 2
    path, root = argv
    if not wire.private_dir(os.path.dirname(path), create=False):
        return 1
    ev = Evaluator(path, root, idle_seconds())
    if not ev.acquire():
        return 0  # another evaluator runs (or is starting) for this socket
    try:
        wire.import_path()
        ev.warm_up()
        ev.bind()
    except BaseException:
        ev.cleanup()
        raise
    import gc

    gc.freeze()  # the imported policy is long-lived: keep it out of every collection
    try:
        ev.serve()
    finally:
        ev.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
