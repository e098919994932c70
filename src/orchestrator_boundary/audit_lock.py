"""The trail folder's lock, taken with a bound (ADR 0028).

A blocking lock had no bound: any process holding it (an agent's ``flock .claude/boundary
sleep 1e9 &``) made every later hook hang and record nothing. So a writer waits at most
``LOCK_WAIT_S``, then spools its line (``audit``). A process that serves calls one after
another (the evaluator) waited that long for each of them in turn while the lock stayed
held: 15 calls queued up to 3 s. After one wait runs out, the same process tries once, without
waiting, for the next second.
"""

from __future__ import annotations

import os
import time

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
