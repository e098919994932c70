"""The audit trail: one JSON line per hook invocation, chained to the one before. ADR 0008.

Each line is rendered with ``json`` directly (fixed field order, as ``FIELDS`` says), not by
a logging library: the hook imports only what a call needs (issue 15). Under the lock each
line gets its sequence number and hash chain (``trail_chain``, ADR 0031); the trail's head
record (``.audit.jsonl-head``: the last ``seq`` and ``chain``) is what the next line links to,
and what tells a trail whose end was cut off.

Hooks run in parallel (and several Claude Code sessions may share a project), so each line is
written with one ``write`` on an ``O_APPEND`` descriptor while holding an exclusive ``flock``:
lines never interleave and none is lost. The lock is taken on the trail's folder, which is
never rotated, not on the file: with a per-file lock a writer that waited while the file was
rotated had to reopen and queue again, and under many writers and a small ``max_bytes`` it
could be rotated away again and again until it gave up (the line was lost from the trail).
Rotation happens under the same lock: the file is renamed to ``audit.jsonl.1`` (older ones
shift up, the one at ``keep`` is removed), so no line ever lands in a rotated file.

Nobody can silence the trail by holding its lock (ADR 0028): a writer waits at most
``LOCK_WAIT_S``, then spools its line to a file of its own beside the trail (``O_EXCL``, no lock
needed), and the next writer that gets the lock appends the spooled lines first. On Windows,
where a folder cannot be opened, the lock is ``msvcrt.locking`` on ``<trail>.lock``; no
POSIX-only module is imported at start-up (issue 15).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Mapping

from orchestrator_boundary import trail_chain, wire
from orchestrator_boundary.audit_lock import LOCK_WAIT_S as LOCK_WAIT_S  # re-exported
from orchestrator_boundary.audit_lock import SPOOL_MAX_BYTES as SPOOL_MAX_BYTES  # re-exported
from orchestrator_boundary.audit_lock import LockBusy
from orchestrator_boundary.audit_lock import beside as _beside
from orchestrator_boundary.audit_lock import keep_waiting as _keep_waiting
from orchestrator_boundary.audit_lock import read_spooled as _read
from orchestrator_boundary.audit_lock import spool as _spool
from orchestrator_boundary.audit_lock import spooled as spooled  # re-exported
from orchestrator_boundary.audit_lock import take as _lock
from orchestrator_boundary.config import DEFAULT_AUDIT_PATH
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.session import detect
from orchestrator_boundary.verdict import POST, Verdict

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any

# The order the fields appear in; anything else follows.
FIELDS = (
    "ts",
    "event",
    "session_id",
    "session_kind",
    "agent_id",
    "agent_type",
    "tool_name",
    "mcp_server",
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
    "evaluator_impostor",
    "duration_ms",
)


def render(record: Mapping[str, Any]) -> str:
    """One record as its JSON line (no newline): ``FIELDS`` first, in order, then the rest;
    ``event`` always present; a value JSON cannot hold is written as its ``repr``. ``seq``
    and ``chain`` are the trail's own (added under the lock), never the caller's."""
    rest = {k: v for k, v in record.items() if k not in _SEALED}
    rest.setdefault("event", "")
    ordered = {k: rest.pop(k) for k in FIELDS if k in rest}
    ordered.update(rest)
    return json.dumps(ordered, ensure_ascii=False, default=repr).replace("\n", " ")


_SEALED = ("seq", "chain", "spooled")


_WINDOWS = os.name == "nt"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _open_lock(folder: str, path: str) -> int:
    """The descriptor the lock is taken on: the folder itself, or ``<trail>.lock`` on Windows."""
    if _WINDOWS:
        return os.open(_beside(path, "lock"), os.O_RDWR | os.O_CREAT | _BINARY, 0o600)
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)


class LockedAppender:
    """Appends lines to the trail under an exclusive lock, each sealed into the chain."""

    def __init__(self, path: str, *, max_bytes: int = 0, keep: int = 20) -> None:
        self.path, self.max_bytes, self.keep = path, max_bytes, keep

    def _open(self) -> tuple[int, int]:
        """The trail, open to append (and to read its last byte), and its size. Only a
        regular file is written: a link to ``/dev/null`` in the trail's place would swallow
        every line without an error (ADR 0063)."""
        # O_NONBLOCK: a FIFO put in the trail's place fails at once (ENXIO) instead of
        # blocking the hook until its timeout; for a regular file it changes nothing.
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | _CLOEXEC | _BINARY
        fd = os.open(self.path, flags | _NONBLOCK, 0o600)
        st = os.fstat(fd)
        if (st.st_mode & 0o170000) != wire.S_IFREG:
            os.close(fd)
            raise OSError(f"{self.path} is not a regular file")
        return fd, st.st_size

    def _rotate(self) -> None:
        # shift only the files that exist (up to the first gap), not keep-1 blind renames;
        # every file from .keep up goes: with ``keep`` lowered, a file past it that stayed
        # was listed before the shifted ones, so each rotation cut a hole in the chain
        top = 1
        while os.path.exists(f"{self.path}.{top}"):
            top += 1
        for n in range(top - 1, self.keep - 1, -1):
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{self.path}.{n}")
        for n in range(min(top, self.keep) - 1, 0, -1):
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{self.path}.{n}", f"{self.path}.{n + 1}")
        os.replace(self.path, f"{self.path}.1")

    def msg(self, message: str) -> None:
        """Append one rendered line (``render``): sealed under the lock, or spooled unsealed
        when the lock stays busy (the next writer seals and merges it, ADR 0028 and 0031)."""
        # A lone surrogate (``"\\ud800"`` in a payload) cannot be UTF-8: written as the JSON
        # escape it came in as, the line stays valid UTF-8 and reads back to the same value.
        line = message.replace("\n", " ").encode("utf-8", "backslashreplace")
        folder = os.path.dirname(self.path) or "."
        os.makedirs(folder, exist_ok=True)
        lock = _open_lock(folder, self.path)
        try:
            try:
                _lock(lock)
            except LockBusy:
                _spool(self.path, line + b"\n")  # never lost: the next writer merges it
                return
            waiting = spooled(self.path)
            head = _open_head(self.path)
            try:
                last = trail_chain.parse_head(_read_fd(head)) if head >= 0 else None
                out = []
                for data in map(_read, waiting):
                    for waited in data.splitlines():
                        sealed, last = trail_chain.seal_line(waited, last, spooled=True)
                        out.append(sealed)
                sealed, last = trail_chain.seal_line(line, last)
                try:
                    self._append([*out, sealed])
                except OSError as exc:
                    _keep_waiting(self.path, line, len(waiting), exc)
                if head >= 0 and last is not None:
                    _write_head(head, last)
            finally:
                if head >= 0:
                    os.close(head)
            for name in waiting:
                with contextlib.suppress(OSError):
                    os.remove(name)
        finally:
            os.close(lock)  # closing releases the lock

    def _append(self, lines: list[bytes]) -> None:
        """Append the lines in order; the trail rotates between two lines whenever the next
        would take a non-empty file past ``max_bytes``, so merged spool lines keep the cap too
        (a single line longer than the cap gets a file of its own)."""
        fd, size = self._open()
        try:
            torn = _ends_torn(fd, size)
            for data in lines:
                if self.max_bytes and size and size + len(data) > self.max_bytes:
                    os.close(fd)
                    fd = -1
                    self._rotate()
                    fd, size = self._open()
                    torn = _ends_torn(fd, size)
                if torn:  # the torn line stays one bad line; ours is not glued to it
                    data, torn = b"\n" + data, False
                _write_whole(fd, data)
                size += len(data)
        finally:
            if fd >= 0:
                os.close(fd)


def _ends_torn(fd: int, size: int) -> bool:
    """True when the trail's last line has no newline (cut by a crash, a power loss, an older
    writer or an editor): a line appended to it would be glued on, and both lost to every
    reader (ADR 0063)."""
    if not size:
        return False
    os.lseek(fd, size - 1, os.SEEK_SET)
    return os.read(fd, 1) != b"\n"


def _write_whole(fd: int, data: bytes) -> None:
    """Append ``data`` whole or not at all: a write cut short (disk full, a file size limit)
    is taken back, or the next line would be glued to the cut one and both be lost."""
    start = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
        raise


def write(path: str, record: Mapping[str, Any], *, max_bytes: int = 0, keep: int = 20) -> None:
    """Append ``record`` (with ``event`` as the hook event) to the trail at ``path``."""
    LockedAppender(path, max_bytes=max_bytes, keep=keep).msg(render(record))


def head_path(path: str) -> str:
    """The trail's head record: the ``seq`` and ``chain`` of the last line written."""
    return _beside(path, "head")


def read_head(path: str) -> trail_chain.Head | None:
    """The trail's head record, or None when there is none (or it is not one)."""
    try:
        # O_NONBLOCK: a FIFO in the head's place reads as nothing instead of waiting forever
        fd = os.open(head_path(path), os.O_RDONLY | _CLOEXEC | _BINARY | _NONBLOCK)
    except OSError:
        return None
    try:
        return trail_chain.parse_head(_read_fd(fd))
    finally:
        os.close(fd)


def _open_head(path: str) -> int:
    """The head record, opened to read and rewrite; -1 when it cannot be (the line is then
    written all the same, starting a new chain: a lost line is worse than a restart)."""
    flags = os.O_RDWR | os.O_CREAT | _CLOEXEC | _BINARY | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(head_path(path), flags | getattr(os, "O_NONBLOCK", 0), 0o600)
    except OSError:
        return -1


def _read_fd(fd: int) -> bytes:
    try:
        return os.read(fd, 256)
    except OSError:  # not a file (a FIFO put in its place): no head, a new chain
        return b""


def _write_head(fd: int, head: trail_chain.Head) -> None:
    """Overwrite the head record in place (fixed width); a failure costs the check of the
    trail's end, never the line, which is already written."""
    data = trail_chain.format_head(head)
    with contextlib.suppress(OSError):
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, data)
        os.ftruncate(fd, len(data))


def trail_files(path: str) -> list[str]:
    """The trail and its rotated files, oldest first, then lines still spooled."""
    rotated = []
    n = 1
    while os.path.exists(f"{path}.{n}"):
        rotated.append(f"{path}.{n}")
        n += 1
    return [*reversed(rotated), *([path] if os.path.exists(path) else []), *spooled(path)]


def trail_path(root: str, configured: str = DEFAULT_AUDIT_PATH) -> str:
    """The trail's file: ``[audit] path`` relative to the project root unless absolute (with
    no root known, the hook's working folder takes its place)."""
    return configured if os.path.isabs(configured) else os.path.join(root, configured)


def iso(ts: float) -> str:
    """An audit timestamp: ISO 8601 in UTC, to the microsecond; what
    ``datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")`` gives, rounded the
    same way, without importing ``datetime`` on every hook call."""
    frac, whole = math.modf(ts)
    micro = round(frac * 1e6)
    if micro >= 1_000_000:
        whole, micro = whole + 1, micro - 1_000_000
    elif micro < 0:
        whole, micro = whole - 1, micro + 1_000_000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{micro:06d}+00:00"


def mcp_server(sent: object) -> dict[str, str] | None:
    """The MCP server a tool call went to, as Claude Code named it (``name``, ``source``):
    string fields only, each cut to 200 characters; None when the payload has none."""
    if not isinstance(sent, dict):
        return None
    kept = {k: sent[k][:200] for k in ("name", "source") if isinstance(sent.get(k), str)}
    return kept or None


def record(payload: HookPayload | None, verdict: Verdict | None, **extra: Any) -> dict[str, Any]:
    """The audit record of one judged call (``extra`` must hold ``ts``, a clock time)."""
    rec: dict[str, Any] = {"ts": iso(extra.pop("ts")), "event": extra.pop("event", "")}
    if payload is not None:
        s = detect(payload)
        rec.update(
            event=payload.hook_event_name,
            session_id=payload.session_id,
            session_kind=s.kind.value,
            agent_id=s.agent_id,
            agent_type=s.agent_type,
            tool_name=payload.tool_name,
            tool_use_id=payload.tool_use_id,
        )
        server = mcp_server(payload.mcp_server)
        if server is not None:
            rec["mcp_server"] = server
    if verdict is not None:
        a, v = verdict.assessment, verdict.violation
        rec.update(
            tool_class=a.classification.tool_class.value,
            paths=list(a.paths),
            decision=verdict.decision.value,
            would_deny=verdict.would_deny,
            phase=verdict.phase.value,
            phase_source=verdict.phase_source,
            rule=v.rule if v else None,
            code=v.code.value if v else None,
            bypassed=verdict.bypassed,
            post_block=verdict.post_block,
        )
        if a.bash is not None:
            rec["bash_status"] = a.bash.status.value
        if payload is not None and payload.hook_event_name == POST and v is not None:
            rec["went_through"] = True
    rec.setdefault("error", None)
    rec.update(extra)
    rec["version"] = wire.package_version()  # the metadata's (ADR 0079)
    return rec


def mark_impostor(rec: dict[str, Any], environ: Mapping[str, str]) -> None:
    """Record why the process on the evaluator's socket was not believed, when the client
    found one and judged the call here (``wire.IMPOSTOR_ENV``, set only by the client,
    ADR 0026)."""
    reason = environ.get(wire.IMPOSTOR_ENV)
    if reason:
        rec["evaluator_impostor"] = reason[:300]


def failure_record(
    event: str, phase: Phase, error: str, input_bytes: int, *, blocks: bool
) -> dict[str, Any]:
    """The record of a call that could not be judged (the shell's guard answered it)."""
    return {
        "event": event,
        "decision": "deny" if blocks else "none",
        "phase": phase.value,
        "error": error,
        "input_bytes": input_bytes,
        "would_deny": None,
    }
