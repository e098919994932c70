"""The trail folder's lock, taken with a bound (ADR 0028).

A blocking lock had no bound: any process holding it (an agent's ``flock .claude/boundary
sleep 1e9 &``) made every later hook hang and record nothing. So a writer waits at most
``LOCK_WAIT_S``, then spools its line (``audit``). A process that serves calls one after
another (the evaluator) waited that long for each of them in turn while the lock stayed
held: 15 calls queued up to 3 s. After one wait runs out, the same process tries once, without
waiting, for the next second.

Lines that wait beside the trail live here too: spooled while the lock is held (ADR 0028), or
while the trail itself cannot be written (ADR 0063). Each is a file of its own
(``.audit.jsonl-spool-<ns>-<pid>``), written under a private name and renamed into place, so
no lock is needed to add one; the next writer that can append merges them into the chain.
"""

from __future__ import annotations

import os
import time

from orchestrator_boundary.fs import read_regular

# How long a writer waits for the trail's lock before it spools its line instead.
LOCK_WAIT_S = 0.2
BUSY_MEMORY_S = 1.0  # after a wait ran out, this long without waiting again
_WINDOWS = os.name == "nt"
_busy_until = 0.0


class LockBusy(OSError):
    """Someone else held the trail's lock for longer than LOCK_WAIT_S."""


def _try_lock(fd: int) -> bool:
    if _WINDOWS:
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def take(fd: int) -> None:
    """The lock on ``fd``, or ``LockBusy`` after at most ``LOCK_WAIT_S`` (no wait at all
    while this process found it held within the last ``BUSY_MEMORY_S``)."""
    global _busy_until
    now = time.monotonic()
    deadline = now + (LOCK_WAIT_S if now >= _busy_until else 0.0)
    delay = 0.0005
    while not _try_lock(fd):
        if time.monotonic() >= deadline:
            _busy_until = time.monotonic() + BUSY_MEMORY_S
            raise LockBusy(f"the audit trail stayed locked for {LOCK_WAIT_S:g} s")
        time.sleep(delay)
        delay = min(delay * 2, 0.005)


# ---- lines that wait beside the trail ----

SPOOL_MAX_BYTES = 8 * 1024 * 1024  # one spooled line; a larger "spool file" is not ours
SPOOL_MAX_FILES = 4096  # lines kept waiting while the trail itself cannot be written
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def beside(path: str, kind: str) -> str:
    """A hidden file beside the trail (``.audit.jsonl-lock``), never taken for a rotated one."""
    return os.path.join(os.path.dirname(path) or ".", f".{os.path.basename(path)}-{kind}")


def spooled(path: str) -> list[str]:
    """Lines that wait beside the trail, as files, oldest first."""
    folder = os.path.dirname(path) or "."
    prefix = os.path.basename(beside(path, "spool-"))
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return []
    return [os.path.join(folder, n) for n in sorted(names)]


def spool(path: str, data: bytes) -> None:
    """Write the line under a private name, then rename it into the spool: a merging writer
    never sees a spool file before its line is whole (it would read it empty, or cut, and
    remove it: the line was lost under load)."""
    stem = f"{time.time_ns():020d}-{os.getpid()}"
    partial = f"{beside(path, 'partial-')}{stem}"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _BINARY, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(partial, f"{beside(path, 'spool-')}{stem}")
    except OSError:  # a full disk: no empty private file left behind for each call
        try:  # noqa: SIM105 - contextlib is not imported here
            os.remove(partial)
        except OSError:
            pass
        raise


def keep_waiting(path: str, line: bytes, waiting: int, exc: OSError) -> None:
    """The trail cannot take ``line`` (read-only, a folder or a device in its place, a file
    size limit): it is spooled beside it, as under a held lock, so the next writer that can
    append merges it and nothing is lost, unless ``SPOOL_MAX_FILES`` wait already. Raises
    either way, so that the hook still says the trail is not writable (ADR 0063)."""
    if waiting >= SPOOL_MAX_FILES:
        raise exc
    try:
        spool(path, line + b"\n")
    except OSError:
        raise exc from None
    raise OSError(f"{exc}; the line waits beside the trail") from exc


def read_spooled(name: str) -> bytes:
    """A spool file's line; nothing for an entry that is not one (a FIFO, a link, a huge
    file: only this package writes there), which the merge then removes."""
    data = read_regular(name, SPOOL_MAX_BYTES) or b""
    return data if data.endswith(b"\n") or not data else data + b"\n"
