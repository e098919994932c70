"""The state store's file (``state``): its schema, and the setup and transactions that wait,
boundedly, while another connection holds the lock (ADR 0027)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

BUSY_MS = 200  # the longest any operation waits for the file's lock
STEP_MS = 2  # SQLite's own wait per attempt; ``retried`` retries until ``BUSY_MS``
SCHEMA_VERSION = 2  # 2: shells (ADR 0085)

SCHEMA = """
CREATE TABLE IF NOT EXISTS launches (
    session TEXT NOT NULL, tool_use_id TEXT NOT NULL, launch TEXT NOT NULL, ts REAL NOT NULL,
    PRIMARY KEY (session, tool_use_id));
CREATE TABLE IF NOT EXISTS agents (
    session TEXT NOT NULL, agent_id TEXT NOT NULL, tool_use_id TEXT, description TEXT,
    running INTEGER NOT NULL DEFAULT 1, stop_blocks INTEGER NOT NULL DEFAULT 0,
    ts REAL NOT NULL, PRIMARY KEY (session, agent_id));
CREATE TABLE IF NOT EXISTS seen (
    session TEXT NOT NULL, agent TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT,
    wrote INTEGER NOT NULL, ts REAL NOT NULL, PRIMARY KEY (session, agent, path));
CREATE TABLE IF NOT EXISTS leases (
    session TEXT NOT NULL, path TEXT NOT NULL, agent_id TEXT NOT NULL, description TEXT,
    ts REAL NOT NULL, PRIMARY KEY (session, path));
CREATE TABLE IF NOT EXISTS counts (
    session TEXT NOT NULL, agent_id TEXT NOT NULL, deliverable TEXT NOT NULL,
    n INTEGER NOT NULL, ts REAL NOT NULL, PRIMARY KEY (session, agent_id, deliverable));
CREATE TABLE IF NOT EXISTS shells (
    session TEXT NOT NULL, shell_id TEXT NOT NULL, agent_id TEXT NOT NULL,
    stopped INTEGER NOT NULL DEFAULT 0, ts REAL NOT NULL, PRIMARY KEY (session, shell_id));
CREATE INDEX IF NOT EXISTS seen_ts ON seen (ts);
"""


def retried(step: Callable[[], object]) -> None:
    """``step`` (BEGIN IMMEDIATE, the schema of a new file), retried every few milliseconds
    while the file is locked, for at most ``BUSY_MS`` (SQLite's own busy handler sleeps 25 ms
    and more, far longer than a lock is held here). Sixteen first calls of a new project at
    once made a third of them find the store unavailable while another set it up."""
    deadline, delay = time.monotonic() + BUSY_MS / 1000, 0.0005
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.004)


def prepare(conn: sqlite3.Connection) -> None:
    """This connection's sync level; WAL and the schema, once per file (``user_version``
    says it is done). Each step may meet the lock of another connection setting up."""
    conn.execute("PRAGMA synchronous = NORMAL")
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript(SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
