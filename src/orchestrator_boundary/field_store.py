"""The field check's state (ADR 0029): each tool call's window (when it began and ended) and
the tree snapshot a Bash call's PreToolUse left for its PostToolUse.

Shell side. Two more tables in the state store's file (ADR 0027), with its guarantees: one short
transaction per operation, a bounded wait for the lock, and a deliberate answer
(``UNAVAILABLE``, False) instead of an exception. The tables are made on first use, so the
store's own schema is untouched. Bounded: a snapshot waits at most ``SNAPSHOT_TTL_S`` and at
most ``MAX_SNAPSHOTS`` wait at once; a window is kept ``CALLS_KEPT_S`` after it closed, for
the overlap test of the calls that ran beside it, and never more than ``state.MAX_ROWS``.
"""

from __future__ import annotations

import sqlite3

from orchestrator_boundary.delegation import UNAVAILABLE, Unavailable
from orchestrator_boundary.state import MAX_ROWS, Store
from orchestrator_boundary.stores import kept
from orchestrator_boundary.values import frozen

SNAPSHOT_TTL_S = 11 * 60  # a Bash call runs 10 minutes at most
MAX_SNAPSHOTS = 64
CALLS_KEPT_S = 60 * 60

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS calls (session TEXT NOT NULL, tool_use_id TEXT NOT NULL, "
    "start REAL NOT NULL, end REAL, expires REAL NOT NULL, ts REAL NOT NULL, "
    "PRIMARY KEY (session, tool_use_id))",
    "CREATE TABLE IF NOT EXISTS snapshots (session TEXT NOT NULL, tool_use_id TEXT NOT NULL, "
    "snap BLOB NOT NULL, ts REAL NOT NULL, PRIMARY KEY (session, tool_use_id))",
)
_OVERLAP = (
    "SELECT 1 FROM calls WHERE NOT (session = ? AND tool_use_id = ?) AND start < ? "
    "AND COALESCE(end, MIN(expires, ?)) > ? LIMIT 1"
)


@frozen
class CallWindow:
    """What the store knew of a call at its PostToolUse (``FieldStore.ended``)."""

    snapshot: bytes | None  # the tree as its PreToolUse saw it; None when none was taken
    start: float | None  # when its window began; None when its PreToolUse left no row
    overlapped: bool  # another call's window overlapped this one


class FieldStore(Store):
    """The state file, with the field check's two tables."""

    _made: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        conn = super()._connect()
        if self._made is not conn:  # a new connection (first use, or the file was replaced)
            for sql in _SCHEMA:
                conn.execute(sql)
            self._made = conn
        return conn

    def started(
        self, session: str, tool_use_id: str, start: float, expires: float, snap: bytes | None
    ) -> bool:
        """A call that may change files began at ``start``; its window stays open until its
        PostToolUse or ``expires``. ``snap``: the tree as it was, for its PostToolUse."""
        now = self.clock()
        row = (session, tool_use_id, start, expires, now)

        def run(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM calls WHERE COALESCE(end, expires) < ?", (now - CALLS_KEPT_S,))
            c.execute("DELETE FROM snapshots WHERE ts < ?", (now - SNAPSHOT_TTL_S,))
            c.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, NULL, ?, ?)", row)
            _keep_newest(c, "calls", MAX_ROWS)
            if snap is not None:
                c.execute(
                    "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)",
                    (session, tool_use_id, snap, now),
                )
                _keep_newest(c, "snapshots", MAX_SNAPSHOTS)

        return self._write(run)

    def ended(
        self, session: str, tool_use_id: str, *, still_running: bool = False
    ) -> CallWindow | Unavailable:
        """The call's PostToolUse: its snapshot (taken out of the store), when its window
        began, and whether another call's window overlapped it. ``still_running``: a
        background command goes on after its PostToolUse; its window stays open until it
        lapses."""
        now = self.clock()
        key = (session, tool_use_id)
        found: list[CallWindow] = []

        def run(c: sqlite3.Connection) -> None:
            got = c.execute(
                "SELECT snap FROM snapshots WHERE session = ? AND tool_use_id = ?", key
            ).fetchone()
            c.execute("DELETE FROM snapshots WHERE session = ? AND tool_use_id = ?", key)
            snap = bytes(got[0]) if got else None
            row = c.execute(
                "SELECT start FROM calls WHERE session = ? AND tool_use_id = ?", key
            ).fetchone()
            if row is None:
                found.append(CallWindow(snap, None, False))
                return
            if not still_running:
                c.execute(
                    "UPDATE calls SET end = ? WHERE session = ? AND tool_use_id = ?", (now, *key)
                )
            other = c.execute(_OVERLAP, (*key, now, now, row[0])).fetchone()
            found.append(CallWindow(snap, float(row[0]), other is not None))

        if not self._write(run) or not found:
            return UNAVAILABLE
        return found[0]


def _keep_newest(c: sqlite3.Connection, table: str, limit: int) -> None:
    """At most ``limit`` rows, the newest (both tables stay small: they are pruned by age)."""
    (n,) = c.execute(f"SELECT COUNT(*) FROM {table}").fetchone()  # noqa: S608 - ours
    if n > limit:
        c.execute(
            f"DELETE FROM {table} WHERE rowid IN "  # noqa: S608 - ours
            f"(SELECT rowid FROM {table} ORDER BY ts LIMIT ?)",
            (n - limit,),
        )


def field_store_for(audit_file: str) -> FieldStore:
    return kept(FieldStore, audit_file)
