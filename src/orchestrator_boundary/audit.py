"""The audit trail: one JSON line per hook invocation, rendered by structlog. ADR 0008.

Hooks run in parallel (and several Claude Code sessions may share a project), so each line is
written with one ``write`` on an ``O_APPEND`` descriptor while holding an exclusive ``flock``:
lines never interleave and none is lost. The lock is taken on the trail's folder, which is
never rotated, not on the file: with a per-file lock a writer that waited while the file was
rotated had to reopen and queue again, and under many writers and a small ``max_bytes`` it
could be rotated away again and again until it gave up (the line was lost from the trail).
Rotation happens under the same lock: the file is renamed to ``audit.jsonl.1`` (older ones
shift up, the one at ``keep`` is removed), so no line ever lands in a rotated file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Mapping, MutableMapping
from typing import Any

import structlog

# The order the fields appear in; anything else follows.
FIELDS = (
    "ts",
    "event",
    "session_id",
    "session_kind",
    "agent_id",
    "agent_type",
    "tool_name",
    "tool_class",
    "tool_use_id",
    "paths",
    "decision",
    "would_deny",
    "phase",
    "phase_source",
    "rule",
    "code",
    "bypassed",
    "post_block",
    "error",
    "duration_ms",
)


def _order(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> dict[str, Any]:
    ordered = {k: event_dict.pop(k) for k in FIELDS if k in event_dict}
    ordered.update(event_dict)
    return ordered


_RENDER = structlog.processors.JSONRenderer(sort_keys=False, ensure_ascii=False)

# How long a writer waits for the trail's lock. A blocking flock had no bound: any process
# holding the folder's lock (an agent's `flock .claude/boundary sleep 1e9 &`) made every later
# hook hang until Claude Code's timeout, and a timed-out hook fails open. Far below the
# registered 10 s; past it the verdict is still delivered and the line goes to stderr.
LOCK_WAIT_S = 3.0


def _lock(fd: int) -> None:
    deadline = time.monotonic() + LOCK_WAIT_S
    delay = 0.0005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OSError(f"the audit trail stayed locked for {LOCK_WAIT_S:g} s") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.005)


class LockedAppender:
    """A structlog 'logger' whose ``msg`` appends one line under an exclusive lock."""

    def __init__(self, path: str, *, max_bytes: int = 0, keep: int = 20) -> None:
        self.path, self.max_bytes, self.keep = path, max_bytes, keep

    def _open(self) -> int:
        # O_NONBLOCK: a FIFO put in the trail's place fails at once (ENXIO) instead of
        # blocking the hook until its timeout; for a regular file it changes nothing.
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
        return os.open(self.path, flags, 0o600)

    def _rotate(self) -> None:
        # shift only the files that exist (up to the first gap), not keep-1 blind renames
        top = 1
        while top < self.keep and os.path.exists(f"{self.path}.{top}"):
            top += 1
        if top == self.keep:
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{self.path}.{self.keep}")
        for n in range(top - 1, 0, -1):
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{self.path}.{n}", f"{self.path}.{n + 1}")
        os.replace(self.path, f"{self.path}.1")

    def msg(self, message: str) -> None:
        data = (message.replace("\n", " ") + "\n").encode("utf-8", "surrogatepass")
        folder = os.path.dirname(self.path) or "."
        os.makedirs(folder, exist_ok=True)
        lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            _lock(lock)
            fd = self._open()
            try:
                size = os.fstat(fd).st_size
                if self.max_bytes and size and size + len(data) > self.max_bytes:
                    os.close(fd)
                    fd = -1
                    self._rotate()
                    fd = self._open()
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
            finally:
                if fd >= 0:
                    os.close(fd)
        finally:
            os.close(lock)  # closing releases the lock

    info = msg


def write(path: str, record: Mapping[str, Any], *, max_bytes: int = 0, keep: int = 20) -> None:
    """Append ``record`` (with ``event`` as the hook event) to the trail at ``path``."""
    fields = dict(record)
    event = fields.pop("event", "")
    log = structlog.wrap_logger(
        LockedAppender(path, max_bytes=max_bytes, keep=keep),
        processors=[_order, _RENDER],
        wrapper_class=structlog.BoundLogger,
    )
    log.info(event, **fields)


def trail_files(path: str) -> list[str]:
    """The trail and its rotated files, oldest first."""
    rotated = []
    n = 1
    while os.path.exists(f"{path}.{n}"):
        rotated.append(f"{path}.{n}")
        n += 1
    return [*reversed(rotated), *([path] if os.path.exists(path) else [])]
