"""Who is behind the evaluator's socket: the checks of ADR 0026.

The hook client believes an evaluator only when the process listening on the socket, and the
process that wrote every byte of its reply, is the evaluator ``start_daemon`` starts:
our uid, our pid namespace, this interpreter, exactly its command line. Like ``client``, this
imports nothing beyond ``os``, ``sys``, ``_socket`` and ``wire``: it runs in every hook call.
"""

from __future__ import annotations

import os
import sys

from orchestrator_boundary import wire

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    import _socket
    from collections.abc import Mapping


Impostor = wire.Impostor


def evaluator_argv(path: str) -> list[bytes]:
    """The exact command line ``start_daemon`` gives the evaluator for ``path`` (no root)."""
    daemon_py = os.path.join(wire.PACKAGE_DIR, "daemon.py")
    return [os.fsencode(sys.executable), b"-I", b"-S", os.fsencode(daemon_py), os.fsencode(path)]


def can_verify() -> bool:
    """Only where the peer's pid, executable and command line can be read (Linux: SO_PEERCRED
    and /proc). Elsewhere no evaluator is believed: every call is judged in process (ADR 0026)."""
    import _socket

    return getattr(_socket, "SO_PEERCRED", None) is not None and os.path.isdir("/proc/self")


def _read_proc(pid: int, name: str) -> bytes:
    fd = os.open("/proc/%d/%s" % (pid, name), os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def process_reason(pid: int, uid: int, path: str, root: str) -> str | None:
    """None when process ``pid`` (with ``uid``, as the kernel reported them) is our evaluator
    for ``path``, else why not (ADR 0026): our uid, our pid namespace, this interpreter
    (/proc/PID/exe) and exactly the command line ``start_daemon`` gives (/proc/PID/cmdline):
    this interpreter, ``-I -S``, this package's ``daemon.py``, this socket, this root."""
    if uid != os.getuid():
        return "peer pid %d has uid %d" % (pid, uid)
    try:
        ns = os.readlink("/proc/%d/ns/pid" % pid)
        exe = os.readlink("/proc/%d/exe" % pid)
        argv = _read_proc(pid, "cmdline").split(b"\0")
    except OSError as exc:
        return "peer pid %d unreadable (%s)" % (pid, exc.strerror)
    if ns != os.readlink("/proc/self/ns/pid"):
        return "peer pid %d is in another pid namespace (%s)" % (pid, ns)
    if exe != os.path.realpath(sys.executable):
        return "peer pid %d runs %s" % (pid, exe)
    if argv != [*evaluator_argv(path), os.fsencode(root), b""]:
        shown = b" ".join(argv).decode("utf-8", "backslashreplace")[:200]
        return "peer pid %d runs %s" % (pid, shown)
    return None


def _peer(sock: _socket.socket) -> tuple[int, int] | None:
    """(pid, uid) of the process that called ``listen()`` on the socket we connected to."""
    import _socket

    opt = getattr(_socket, "SO_PEERCRED", None)
    if opt is None:
        return None
    creds = sock.getsockopt(_socket.SOL_SOCKET, opt, 12)
    return int.from_bytes(creds[0:4], sys.byteorder), int.from_bytes(creds[4:8], sys.byteorder)


def verified_peer(sock: _socket.socket, path: str, root: str) -> int:
    """The pid of the process that listens behind the socket, once it is verified as our
    evaluator; raises Impostor otherwise.

    A same-user script that bound the socket in the evaluator's place fails the executable
    or the command line, and is never believed. That the listener passes is not enough on its
    own: ``SO_PEERCRED`` names the process that called ``listen()``, which may since have
    become the real evaluator and been stopped while a child answers on the same socket. So
    every byte of the reply must also come from that process (``read_reply``)."""
    peer = _peer(sock)
    if peer is None:
        raise Impostor("peer cannot be verified on this platform")
    reason = process_reason(peer[0], peer[1], path, root)
    if reason is not None:
        raise Impostor(reason)
    return peer[0]


def impostor_reason(sock: _socket.socket, path: str, root: str) -> str | None:
    """None when the listener behind the socket is our evaluator, else why not."""
    try:
        verified_peer(sock, path, root)
    except Impostor as exc:
        return str(exc)
    return None


def read_reply(sock: _socket.socket, writer: int, limit: int) -> bytes:
    """The whole reply, every byte of it written by process ``writer`` (ADR 0026).

    ``SO_PASSCRED``, set before connecting, makes the kernel attach to each message the pid of
    the process that wrote it (``SCM_CREDENTIALS``); a stream read never joins messages of
    two writers. A process can claim another pid only with ``CAP_SYS_ADMIN`` over its pid
    namespace, so a claim from a namespace of the agent's own fails the namespace check."""
    import _socket

    space = _socket.CMSG_SPACE(12)
    chunks: list[bytes] = []
    total = 0
    while True:
        data, ancillary, _flags, _addr = sock.recvmsg(65536, space)
        if not data:
            return b"".join(chunks)
        creds = [
            item
            for level, kind, item in ancillary
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_CREDENTIALS
        ]
        if len(creds) != 1 or len(creds[0]) < 12:
            raise Impostor("peer pid %d: a reply without its writer's credentials" % writer)
        pid = int.from_bytes(creds[0][0:4], sys.byteorder)
        if pid != writer:
            raise Impostor(
                "peer pid %d listens, but pid %d wrote the reply (%s)" % (writer, pid, _shown(pid))
            )
        chunks.append(data)
        total += len(data)
        if total > limit:
            raise ValueError("reply too large")


def _shown(pid: int) -> str:
    try:
        argv = _read_proc(pid, "cmdline").replace(b"\0", b" ").strip()
    except OSError as exc:
        return str(exc.strerror)
    return argv.decode("utf-8", "backslashreplace")[:200]


def connect(path: str, timeout: float) -> _socket.socket:
    """A connection to ``path`` that receives its writers' credentials with every reply."""
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_PASSCRED, 1)
        sock.connect(path)
    except BaseException:
        sock.close()
        raise
    return sock


def exchange(path: str, root: str, fields: list[bytes], timeout: float) -> bytes:
    """One request to the evaluator on ``path``: its whole reply, every byte of it written by
    the verified listener. Raises Impostor (nothing is sent to a listener that fails) and
    OSError (nothing listens, a timeout, a reset)."""
    import _socket

    sock = connect(path, timeout)
    try:
        writer = verified_peer(sock, path, root)
        sock.sendall(wire.REQUEST_MAGIC + wire.pack(fields))
        sock.shutdown(_socket.SHUT_WR)
        return read_reply(sock, writer, wire.MAX_REPLY_BYTES)
    finally:
        sock.close()


def starting(path: str) -> bool:
    """True when an evaluator holds the lock (it is importing the policy): don't start another.
    Many hooks run at once; without this each would start a process that only finds the lock
    taken. A probe that races with a starting evaluator costs one such process, nothing more."""
    import fcntl

    try:
        fd = os.open(wire.lock_path(path), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def start_daemon(path: str, root: str) -> None:
    """Start the evaluator for ``path`` in the background, detached from this hook's pipes.
    Double fork + setsid: it is nobody's child and holds none of Claude Code's pipes open.
    Two hooks may both try; the evaluator takes an exclusive lock first and the loser exits."""
    if starting(path):
        return
    env = {k: v for k, v in os.environb.items() if k != wire.BYPASS_ENV.encode()}
    argv = [*evaluator_argv(path), os.fsencode(root)]
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        try:  # noqa: SIM105 - no contextlib on the hook path (ADR 0009)
            os.waitpid(pid, 0)
        except OSError:
            pass
        return
    try:  # first child
        os.setsid()
        if os.fork():
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.closerange(3, 1024)
        os.chdir("/")
        os.execve(sys.executable, argv, env)  # noqa: S606 - the evaluator, by exact argv
    finally:
        os._exit(0)


# ---- the record of a call the policy could not judge (ADR 0079) ----

DEFAULT_AUDIT_PATH = ".claude/boundary/audit.jsonl"  # as config_values.DEFAULT_AUDIT_PATH
SPOOL_MAX_FILES = 4096  # as audit_lock.SPOOL_MAX_FILES


def unjudged_record(raw: bytes, event: str, error: str, phase: str, code: int, by: bool) -> bytes:
    """The audit line of a call the policy could not judge: who called which tool, as the
    payload says when it reads as JSON, and the answer given (``audit.failure_record``)."""
    import json
    import time

    now = time.time()
    rec: dict[str, object] = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))}
    rec["ts"] = "%s.%06d+00:00" % (rec["ts"], int(now % 1 * 1e6))
    try:
        sent = json.loads(raw) if len(raw) <= 1 << 20 else None
    except (ValueError, RecursionError):
        sent = None
    rec["event"] = event
    for key in ("session_id", "agent_id", "agent_type", "tool_name", "tool_use_id"):
        value = sent.get(key) if isinstance(sent, dict) else None
        if isinstance(value, str):
            rec[key] = value[:200]
    rec.update(decision="deny" if code == 2 else "none", would_deny=None, phase=phase or None)
    rec.update(bypassed=by, error=error, input_bytes=len(raw), unjudged=True)
    rec["version"] = wire.package_version()
    text = json.dumps(rec, ensure_ascii=False).replace("\n", " ")
    return text.encode("utf-8", "backslashreplace") + b"\n"


def spool_unjudged(environ: Mapping[str, str], line: bytes) -> str:
    """Leave the record of a call the policy could not judge (it cannot load) beside the
    project's trail, as ``audit_lock.spool`` does under a held lock: ``report`` reads it and
    the next line written merges it into the chain. The trail is placed as ``setups`` places
    it: ``[audit] path`` (read with ``tomllib``), else an absolute ``AUDIT_ENV``, else the
    default. '' when spooled, else a note that carries the line (ADR 0079)."""
    try:
        root, text = wire.project_config(environ)
        if not os.path.isdir(root):  # moved away: never made again here (ADR 0084)
            raise OSError("the project folder %r is gone" % root)
        try:
            import tomllib  # Python 3.11: an older one (``hook_main.too_old``) takes the default

            named = tomllib.loads(text.decode("utf-8-sig"))["audit"]["path"]
        except (ImportError, ValueError, KeyError, TypeError):
            named = environ.get(wire.AUDIT_ENV, "")
            named = named if os.path.isabs(named) else ""
        trail = os.path.join(
            root, named if isinstance(named, str) and named else DEFAULT_AUDIT_PATH
        )
        folder, base = os.path.split(trail)
        os.makedirs(folder, exist_ok=True)
        if sum(n.startswith(f".{base}-spool-") for n in os.listdir(folder)) >= SPOOL_MAX_FILES:
            raise OSError("too many lines wait beside the trail already")
        from time import time_ns

        stem = f"{time_ns():020d}-{os.getpid()}"
        partial = os.path.join(folder, f".{base}-partial-{stem}")
        fd = os.open(
            partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600
        )
        try:  # whole or not at all: a full disk writes short, then fails (ADR 0084)
            try:
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            os.replace(partial, os.path.join(folder, f".{base}-spool-{stem}"))
        except OSError:
            try:  # noqa: SIM105 - contextlib is not loaded on the hook path
                os.remove(partial)
            except OSError:
                pass
            raise
    except Exception as exc:  # noqa: BLE001 - the answer stands; the line goes to stderr
        return "orchestrator-boundary: audit trail not writable (%s); record: %s" % (
            exc,
            line.decode("utf-8", "replace"),
        )
    return ""


def drop_cut_bytecode() -> bool:
    """Remove this interpreter's cached bytecode files of the package that do not load (a
    ``.pyc`` cut short by a full disk fails its module's import on every later call, ADR
    0057); True when one was removed. Runs only once such a file was met."""
    import marshal

    tag = "." + sys.implementation.cache_tag + "."
    dropped = False
    for folder, _, names in os.walk(wire.PACKAGE_DIR):
        if os.path.basename(folder) != "__pycache__":
            continue
        for path in [os.path.join(folder, n) for n in names if tag in n and n.endswith(".pyc")]:
            try:
                with open(path, "rb") as cached:
                    marshal.loads(cached.read()[16:])  # noqa: S302 - our cache, as import reads it
            except (EOFError, ValueError, TypeError):
                try:
                    os.remove(path)
                    dropped = True
                except OSError:
                    pass
            except OSError:
                pass
    return dropped
