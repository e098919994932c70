"""What outlives one hook process: delegations, what each agent saw of a file, leases and
deliverable counts, in one SQLite file beside the audit trail, in WAL mode. ADR 0027.

Shell side. Every operation is one short transaction that waits at most ``BUSY_MS`` for the
lock. The file is ``<trail>.state.sqlite3``: the trail's protected prefix (ADR 0010) covers it
and its ``-wal`` and ``-shm`` files. Bounded (``MAX_ROWS`` per table), cleaned when a subagent
stops and when the session ends. A failure (a locked, damaged or unwritable file) raises
nothing: reads return ``UNAVAILABLE``, writes False, and the caller decides what that means.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from orchestrator_boundary.contracts import Launch
from orchestrator_boundary.delegation import (
    UNAVAILABLE,
    Lease,
    Record,
    Seen,
    Unavailable,
    UnknownDelegation,
    resolve,
)
from orchestrator_boundary.state_schema import STEP_MS, prepare, retried

MAX_ROWS = 20_000  # per table; beyond, the oldest rows go
# A lease lapses this long after its holder's last write: a SubagentStop that never came (not
# registered, a killed session) must not hold a file for ever.
LEASE_TTL_S = 30 * 60
SUFFIX = ".state.sqlite3"
T = TypeVar("T")


_TABLES = ("launches", "agents", "seen", "leases", "counts")
_LINKED = "SELECT tool_use_id FROM agents WHERE session = ? AND agent_id = ?"
_LAUNCH = "SELECT launch FROM launches WHERE session = ? AND tool_use_id = ?"
_HOLDER = "SELECT agent_id FROM agents WHERE session = ? AND tool_use_id = ? AND agent_id != ?"


def state_path(audit_file: str) -> str:
    return audit_file + SUFFIX


def launch_json(launch: Launch, description: str) -> str:
    return json.dumps(
        {
            "agent_type": launch.agent_type,
            "intent": launch.intent,
            "scope": [[s.source, list(s.patterns)] for s in launch.scope.sets],
            "depth": launch.depth,
            "parent": launch.parent,
            "description": description,
            "run": None if launch.run is None else list(launch.run),
        }
    )


class Store:
    """One project's state file. Cheap to make; opens the file on first use."""

    def __init__(self, path: str, clock: Callable[[], float] = time.time) -> None:
        self.path, self.clock = path, clock
        self._conn: sqlite3.Connection | None = None
        self._ino: int | None = None
        self._pending: list[Callable[[sqlite3.Connection], object]] | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None and self._ino is not None:
            try:  # a kept connection to a file since removed or replaced would write nowhere
                same = os.stat(self.path).st_ino == self._ino
            except OSError:
                same = False
            if not same:
                self.close()
        if self._conn is None:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            fresh = not os.path.lexists(self.path)
            if os.path.islink(self.path) or not (fresh or os.path.isfile(self.path)):
                raise OSError(f"{self.path}: a link, a FIFO, not a regular file (ADR 0050)")
            conn = sqlite3.connect(
                self.path, timeout=STEP_MS / 1000, isolation_level=None, check_same_thread=False
            )
            try:
                if fresh:
                    with contextlib.suppress(OSError):
                        os.chmod(self.path, 0o600)
                conn.execute(f"PRAGMA busy_timeout = {STEP_MS}")
                retried(lambda: prepare(conn))
            except BaseException:
                conn.close()
                raise
            self._conn = conn
            self._ino = os.stat(self.path).st_ino
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        retried(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T | Unavailable:
        try:
            return fn(self._connect())
        except (sqlite3.Error, OSError, ValueError):
            self.close()
            return UNAVAILABLE

    def _write(self, fn: Callable[[sqlite3.Connection], object]) -> bool:
        if self._pending is not None:
            self._pending.append(fn)
            return True
        try:
            with self._tx() as conn:
                fn(conn)
            return True
        except (sqlite3.Error, OSError, ValueError):
            self.close()
            return False

    @contextlib.contextmanager
    def batch(self) -> Iterator[list[bool]]:
        """The writes made inside run in one transaction when it ends (fewer lock waits for
        parallel hooks); the list then holds its one result."""
        self._pending = []
        result: list[bool] = []
        try:
            yield result
            pending = self._pending
        finally:
            self._pending = None

        def run_all(c: sqlite3.Connection) -> None:
            for fn in pending:
                fn(c)

        result.append(self._write(run_all) if pending else True)

    # ---- delegations ----

    def record_launch(self, session: str, tool_use_id: str, launch: Launch, desc: str) -> bool:
        """The Agent call's PreToolUse: the contract its subagent will run under."""
        return self._launch(session, tool_use_id, launch_json(launch, desc))

    def record_refused(self, session: str, tool_use_id: str, reason: str) -> bool:
        """An Agent call the contract refused but the phase let through: its subagent's
        record says so (no contract is guessed for it)."""
        return self._launch(session, tool_use_id, json.dumps({"refused": reason[:500]}))

    def _launch(self, session: str, tool_use_id: str, text: str) -> bool:
        row = (session, tool_use_id, text, self.clock())
        sql = "INSERT OR REPLACE INTO launches VALUES (?, ?, ?, ?)"
        return self._write(lambda c: (c.execute(sql, row), _bound(c, "launches")))

    def link(self, session: str, agent_id: str, tool_use_id: str, description: str) -> bool:
        """The Agent call's PostToolUse named the subagent it started: the first link stays."""
        row = (session, agent_id, tool_use_id, description, self.clock())
        sql = (
            "INSERT INTO agents (session, agent_id, tool_use_id, description, ts) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, agent_id) DO UPDATE SET "
            "tool_use_id = COALESCE(agents.tool_use_id, excluded.tool_use_id), "
            "description = COALESCE(NULLIF(agents.description, ''), excluded.description)"
        )
        return self._write(lambda c: (c.execute(sql, row), _bound(c, "agents")))

    def delegation(
        self,
        session: str,
        agent_id: str,
        agent_type: str | None,
        meta: Mapping[str, object] | None,
    ) -> Record:
        """The subagent's record (``delegation.resolve``), from the link its Agent call's
        PostToolUse left and its meta.json; an unknown one when the store is unavailable."""

        def read(c: sqlite3.Connection) -> Record:
            got = c.execute(_LINKED, (session, agent_id)).fetchone()
            linked = got[0] if got else None
            meta_id = meta.get("toolUseId") if meta else None
            tool_use_id = linked or (meta_id if isinstance(meta_id, str) else None)
            launch = holder = None
            if tool_use_id:
                key = (session, tool_use_id)
                row = c.execute(_LAUNCH, key).fetchone()
                launch = json.loads(row[0]) if row else None
                other = c.execute(_HOLDER, (*key, agent_id)).fetchone()  # ADR 0059
                holder = other[0] if other else None
            return resolve(agent_id, agent_type, linked, meta, launch, holder)

        found = self._read(read)
        if isinstance(found, Unavailable):
            return UnknownDelegation(agent_id, "the state store is unavailable")
        return found

    def note_running(self, session: str, agent_id: str, description: str) -> bool:
        """A subagent's call: it runs (its leases hold until it stops); resumed after a stop
        its background shells kept (``state_ends.shells_kept``), it is no longer stopped."""
        row = (session, agent_id, description, self.clock())
        sql = (
            "INSERT INTO agents (session, agent_id, description, ts) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session, agent_id) DO UPDATE SET running = 1, "
            "description = COALESCE(NULLIF(agents.description, ''), excluded.description)"
        )
        resumed = "UPDATE shells SET stopped = 0 WHERE session = ? AND agent_id = ? AND stopped"
        return self._write(
            lambda c: (c.execute(sql, row), _bound(c, "agents"), c.execute(resumed, row[:2]))
        )

    # ---- what each agent saw of a file ----

    def seen(self, session: str, agent: str, path: str) -> Seen | Unavailable | None:
        """What ``agent`` last read or wrote at ``path``; None when it never did."""

        def read(c: sqlite3.Connection) -> Seen | None:
            row = c.execute(
                "SELECT sha256, wrote FROM seen WHERE session = ? AND agent = ? AND path = ?",
                (session, agent, path),
            ).fetchone()
            return Seen(row[0], bool(row[1])) if row else None

        return self._read(read)

    def last_writer(self, session: str, path: str) -> str | Unavailable | None:
        """The agent that last wrote ``path`` (``UNAVAILABLE`` when unreachable)."""

        def read(c: sqlite3.Connection) -> str | None:
            row = c.execute(
                "SELECT agent FROM seen WHERE session = ? AND path = ? AND wrote >= 1 "
                "ORDER BY ts DESC LIMIT 1",
                (session, path),
            ).fetchone()
            return row[0] if row else None

        return self._read(read)

    def saw(self, session: str, agent: str, path: str, sha: str | None, *, wrote: bool) -> bool:
        row = (session, agent, path, sha, int(wrote), self.clock())
        return self._write(
            lambda c: (
                c.execute("INSERT OR REPLACE INTO seen VALUES (?, ?, ?, ?, ?, ?)", row),
                _bound(c, "seen"),
            )
        )

    # ---- leases ----

    def lease(self, session: str, path: str) -> Lease | Unavailable | None:
        def read(c: sqlite3.Connection) -> Lease | None:
            row = c.execute(
                "SELECT l.agent_id, COALESCE(NULLIF(a.description, ''), l.description), "
                "l.session FROM leases l JOIN agents a ON a.session = l.session AND "
                "a.agent_id = l.agent_id WHERE l.path = ? AND a.running = 1 AND l.ts > ? "
                "ORDER BY l.session != ?",  # any session's (ADR 0085); this one's first
                (path, self.clock() - LEASE_TTL_S, session),
            ).fetchone()
            return Lease(row[0], row[1] or "", "" if row[2] == session else row[2]) if row else None

        return self._read(read)

    def take_lease(self, session: str, path: str, agent_id: str, description: str) -> bool:
        """A running subagent wrote ``path``: it holds it until it stops (the holder keeps it,
        and renews it with each write, while it runs and the lease has not lapsed)."""
        now = self.clock()
        row = (session, path, agent_id, description, now, now - LEASE_TTL_S)  # bound by "?"
        sql = (  # (numbered "?1" bound from a tuple: deprecated in 3.12, an error from 3.14)
            "INSERT INTO leases VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, path) DO "
            "UPDATE SET agent_id = excluded.agent_id, description = excluded.description, "
            "ts = excluded.ts WHERE leases.agent_id = excluded.agent_id OR leases.ts <= ? "
            "OR NOT EXISTS (SELECT 1 FROM agents a WHERE a.session = leases.session "
            "AND a.agent_id = leases.agent_id AND a.running = 1)"
        )
        return self._write(lambda c: (c.execute(sql, row), _bound(c, "leases")))

    # ---- deliverables ----

    def count(self, session: str, agent_id: str, deliverables: list[str]) -> bool:
        now = self.clock()
        rows = [(session, agent_id, d, now) for d in dict.fromkeys(deliverables)]
        sql = (
            "INSERT INTO counts VALUES (?, ?, ?, 1, ?) ON CONFLICT "
            "(session, agent_id, deliverable) DO UPDATE SET n = n + 1"
        )
        return self._write(lambda c: (c.executemany(sql, rows), _bound(c, "counts")))

    def counts(self, session: str, agent_id: str) -> dict[str, int] | Unavailable:
        return self._read(
            lambda c: dict(
                c.execute(
                    "SELECT deliverable, n FROM counts WHERE session = ? AND agent_id = ?",
                    (session, agent_id),
                ).fetchall()
            )
        )

    def stop_blocks(self, session: str, agent_id: str) -> int | Unavailable:
        def read(c: sqlite3.Connection) -> int:
            row = c.execute(
                "SELECT stop_blocks FROM agents WHERE session = ? AND agent_id = ?",
                (session, agent_id),
            ).fetchone()
            return int(row[0]) if row else 0

        return self._read(read)

    def blocked_stop(self, session: str, agent_id: str) -> bool:
        row = (session, agent_id, self.clock())
        sql = (
            "INSERT INTO agents (session, agent_id, stop_blocks, ts) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (session, agent_id) DO UPDATE SET stop_blocks = stop_blocks + 1"
        )
        return self._write(lambda c: c.execute(sql, row))

    # ---- cleaning ----

    def stopped(self, session: str, agent_id: str) -> bool:
        """SubagentStop (not blocked): its leases go, it no longer runs, what it read goes;
        what it wrote stays until the session ends (ADR 0050)."""
        return self._write(lambda c: stop(c, session, agent_id))

    def end_session(self, session: str) -> bool:
        """SessionEnd: what the session's agents read, wrote and hold goes, and none runs.
        The contracts stay (the Agent calls, the links, the deliverable counts): ``claude
        --resume`` goes on with the same session id, and SendMessage resumes a subagent under
        its old agent id, which must still run under its contract, not as one never seen
        (ADR 0065). They go with the table bounds, oldest first; an Agent call that started
        no subagent (refused, failed) goes now."""
        unused = (
            "DELETE FROM launches WHERE session = ? AND tool_use_id NOT IN (SELECT tool_use_id "
            "FROM agents WHERE session = ? AND tool_use_id IS NOT NULL)"
        )
        return self._write(
            lambda c: (
                c.execute("DELETE FROM seen WHERE session = ?", (session,)),
                c.execute("DELETE FROM leases WHERE session = ?", (session,)),
                c.execute("DELETE FROM shells WHERE session = ?", (session,)),
                c.execute("UPDATE agents SET running = 0 WHERE session = ?", (session,)),
                c.execute(unused, (session, session)),
            )
        )


def stop(c: sqlite3.Connection, session: str, agent_id: str) -> None:
    """``Store.stopped`` in a transaction already open."""
    key = (session, agent_id)
    c.execute("DELETE FROM leases WHERE session = ? AND agent_id = ?", key)
    c.execute("DELETE FROM seen WHERE session = ? AND agent = ? AND wrote = 0", key)
    c.execute("UPDATE agents SET running = 0 WHERE session = ? AND agent_id = ?", key)


def _bound(c: sqlite3.Connection, table: str) -> int:
    """Keep a table at most ``MAX_ROWS`` rows, dropping the oldest (in ``seen``, reads before
    writes: ADR 0050); how many went. Counted only when the rowid span says it may be over."""
    lo, hi = c.execute(f"SELECT MIN(rowid), MAX(rowid) FROM {table}").fetchone()  # noqa: S608
    if lo is None or hi - lo < MAX_ROWS:
        return 0
    (n,) = c.execute(f"SELECT COUNT(*) FROM {table}").fetchone()  # noqa: S608 - ours
    if n <= MAX_ROWS:
        return 0
    c.execute(
        f"DELETE FROM {table} WHERE rowid IN "  # noqa: S608 - ours
        f"(SELECT rowid FROM {table} ORDER BY {'wrote, ' if table == 'seen' else ''}ts LIMIT ?)",
        (n - MAX_ROWS,),
    )
    return int(n - MAX_ROWS)
