"""The state store (ADR 0027): delegations found whatever order hooks fire in, what agents saw
of files, leases, deliverable counts, bounds, cleaning, concurrent writers, and deliberate
answers when the file cannot be reached."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import state
from orchestrator_boundary.contracts import Launch
from orchestrator_boundary.delegation import (
    Delegation,
    EffectiveScope,
    Lease,
    ScopeSet,
    Seen,
    UnknownDelegation,
)
from orchestrator_boundary.ledger import read_meta
from orchestrator_boundary.state import UNAVAILABLE, Store, state_path

SCOPE = EffectiveScope((ScopeSet('intents."fix".owned_scope', ("src/**",)),))
LAUNCH = Launch("coder", "fix", SCOPE, 1, None)
META = {"agentType": "coder", "toolUseId": "toolu_1", "spawnDepth": 1, "description": "fix it"}


_OPENED: list[Store] = []


def _open(path: str, **kw: Any) -> Store:
    """A Store this test closes when it ends (Python 3.13 warns about a connection left open
    for the garbage collector)."""
    opened = Store(path, **kw)
    _OPENED.append(opened)
    return opened


def _one(path: str, sql: str) -> Any:
    """The first column of the first row ``sql`` gives, on a connection of its own."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchone()[0]


@pytest.fixture(autouse=True)
def _close_stores() -> Iterator[None]:
    yield
    while _OPENED:
        _OPENED.pop().close()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return _open(state_path(str(tmp_path / "boundary" / "audit.jsonl")))


def _expected(agent: str = "a1") -> Delegation:
    return Delegation(agent, "toolu_1", "fix it", "coder", "fix", SCOPE, 1, None)


def test_the_file_sits_under_the_trails_protected_prefix(store: Store) -> None:
    assert store.path.endswith("audit.jsonl.state.sqlite3")
    assert store.record_launch("s", "toolu_1", LAUNCH, "fix it")
    assert Path(store.path).stat().st_mode & 0o777 == 0o600
    assert _one(store.path, "PRAGMA journal_mode") == "wal"


@pytest.mark.parametrize(
    ("linked", "meta", "expected"),
    [
        (True, None, _expected()),
        (False, META, Delegation("a1", "toolu_1", "fix it", "coder", "fix", SCOPE, 1, None, False)),
        (True, META, _expected()),
        (False, None, UnknownDelegation("a1", "no Agent call names it and its meta.json was not found")),
        # the link wins: a meta.json that names another call is not read (ADR 0050)
        (True, {**META, "toolUseId": "toolu_9", "parentAgentId": "a0"}, _expected()),
        (True, {}, _expected()),
        (False, {**META, "parentAgentId": "a0"}, UnknownDelegation(
            "a1", "its meta.json names parent 'a0', the Agent call None")),
    ],
    ids=["post-first", "meta-first", "both-agree", "neither", "disagree", "meta-emptied",
         "parent-mismatch"],
)  # fmt: skip
def test_a_delegation_is_found_from_claude_codes_records(
    store: Store, linked: bool, meta: dict[str, object] | None, expected: object
) -> None:
    store.record_launch("s", "toolu_1", LAUNCH, "fix it")
    if linked:
        store.link("s", "a1", "toolu_1", "fix it")
    assert store.delegation("s", "a1", "coder", meta) == expected


def test_a_missing_launch_is_said_not_guessed(store: Store) -> None:
    store.link("s", "a1", "toolu_7", "x")
    got = store.delegation("s", "a1", "coder", None)
    assert got == UnknownDelegation("a1", "no PreToolUse of the Agent call toolu_7 was recorded")


def test_the_first_link_stays(store: Store) -> None:
    store.record_launch("s", "toolu_1", LAUNCH, "fix it")
    store.note_running("s", "a1", "")
    store.link("s", "a1", "toolu_1", "fix it")
    store.link("s", "a1", "toolu_2", "other")
    assert store.delegation("s", "a1", "coder", None) == _expected()


def test_seen_and_last_writer(store: Store) -> None:
    assert store.seen("s", "a1", "src/x.py") is None
    store.saw("s", "a1", "src/x.py", "aa", wrote=False)
    store.saw("s", "a2", "src/x.py", "bb", wrote=True)
    assert store.seen("s", "a1", "src/x.py") == Seen("aa", False)
    assert store.seen("s", "a2", "src/x.py") == Seen("bb", True)
    assert store.last_writer("s", "src/x.py") == "a2"
    assert store.seen("other-session", "a1", "src/x.py") is None


def test_a_lease_holds_while_its_holder_runs(store: Store) -> None:
    store.note_running("s", "a1", "one")
    store.note_running("s", "a2", "two")
    store.take_lease("s", "f.py", "a1", "one")
    store.take_lease("s", "f.py", "a2", "two")  # a1 still runs: it keeps the lease
    assert store.lease("s", "f.py") == Lease("a1", "one")
    store.stopped("s", "a1")
    assert store.lease("s", "f.py") is None
    store.take_lease("s", "f.py", "a2", "two")
    assert store.lease("s", "f.py") == Lease("a2", "two")


def test_a_lease_lapses_without_writes(tmp_path: Path) -> None:
    now = [1000.0]
    s = _open(str(tmp_path / "st"), clock=lambda: now[0])
    s.note_running("s", "a1", "one")
    s.note_running("s", "a2", "two")
    s.take_lease("s", "f.py", "a1", "one")
    now[0] += state.LEASE_TTL_S - 1
    s.take_lease("s", "f.py", "a1", "one")  # its own write renews it
    now[0] += state.LEASE_TTL_S - 1
    assert s.lease("s", "f.py") == Lease("a1", "one")
    now[0] += 2
    assert s.lease("s", "f.py") is None
    s.take_lease("s", "f.py", "a2", "two")
    assert s.lease("s", "f.py") == Lease("a2", "two")


def test_counts_and_stop_blocks(store: Store) -> None:
    store.count("s", "a1", ["write", "Write"])
    store.count("s", "a1", ["write", "write"])
    assert store.counts("s", "a1") == {"write": 2, "Write": 1}
    assert store.stop_blocks("s", "a1") == 0
    store.blocked_stop("s", "a1")
    assert store.stop_blocks("s", "a1") == 1


def test_stop_and_session_end_clean(store: Store) -> None:
    store.note_running("s", "a1", "one")
    store.saw("s", "a1", "f", "x", wrote=True)
    store.saw("s", "a1", "g", "y", wrote=False)
    store.take_lease("s", "f", "a1", "one")
    store.stopped("s", "a1")
    # what it read goes; what it wrote stays until the session ends (ADR 0050)
    assert (store.seen("s", "a1", "g"), store.lease("s", "f")) == (None, None)
    assert store.seen("s", "a1", "f") == Seen("x", True)
    store.record_launch("s", "toolu_1", LAUNCH, "fix it")
    store.link("s", "a1", "toolu_1", "fix it")
    store.record_launch("s", "toolu_2", LAUNCH, "started nothing")
    store.count("s", "a1", ["write"])
    store.end_session("s")
    counts = [_one(store.path, f"SELECT COUNT(*) FROM {t}") for t in state._TABLES]  # noqa: S608
    # what was read, written and held goes, and the Agent call that started nothing; the
    # contracts stay for a resume (ADR 0065)
    assert dict(zip(state._TABLES, counts, strict=True)) == {
        "launches": 1,
        "agents": 1,
        "seen": 0,
        "leases": 0,
        "counts": 1,
    }
    assert _one(store.path, "SELECT running FROM agents") == 0


def test_tables_are_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "MAX_ROWS", 10)
    for n in range(25):
        store.saw("s", "a1", f"f{n}", "x", wrote=False)
    assert _one(store.path, "SELECT COUNT(*) FROM seen") == 10
    assert store.seen("s", "a1", "f24") is not None and store.seen("s", "a1", "f0") is None


def test_an_unreachable_store_answers_deliberately(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    s = _open(str(blocker / "audit.jsonl.state.sqlite3"))  # its folder is a file
    assert s.saw("s", "a1", "f", "x", wrote=True) is False
    assert s.seen("s", "a1", "f") is UNAVAILABLE
    assert s.lease("s", "f") is UNAVAILABLE
    assert s.delegation("s", "a1", "coder", META) == UnknownDelegation(
        "a1", "the state store is unavailable"
    )


def test_a_damaged_file_answers_deliberately(store: Store) -> None:
    Path(store.path).parent.mkdir(parents=True, exist_ok=True)
    Path(store.path).write_bytes(b"not a database" * 100)
    assert store.counts("s", "a1") is UNAVAILABLE
    assert store.count("s", "a1", ["write"]) is False


def test_a_locked_store_gives_up_within_the_busy_timeout(store: Store) -> None:
    store.saw("s", "a1", "f", "x", wrote=False)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        other = _open(store.path)
        started = time.monotonic()
        assert other.saw("s", "a2", "f", "y", wrote=True) is False
        assert time.monotonic() - started < 2.0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _open(store.path).saw("s", "a2", "f", "y", wrote=True) is True


WRITER = """
import sys
from orchestrator_boundary.state import Store
s = Store(sys.argv[1])
ok = sum(s.saw("s", sys.argv[2], f"f{n}", "x", wrote=True) for n in range(40))
print(ok)
"""


def test_concurrent_writers_lose_nothing(store: Store) -> None:
    store.saw("s", "init", "f", "x", wrote=False)  # the file exists in WAL mode first
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, store.path, f"a{n}"], stdout=subprocess.PIPE, text=True
        )
        for n in range(6)
    ]
    oks = [int(p.communicate(timeout=120)[0]) for p in procs]
    stored = _one(store.path, "SELECT COUNT(*) FROM seen WHERE agent != 'init'")
    assert stored == sum(oks)  # a write that gave up said so; none that said yes was lost
    assert sum(oks) >= 6 * 40 * 0.9


def test_read_meta(tmp_path: Path) -> None:
    transcript = tmp_path / "proj" / "sess.jsonl"
    folder = tmp_path / "proj" / "sess" / "subagents"
    folder.mkdir(parents=True)
    (folder / "agent-a1.meta.json").write_text(json.dumps(META))
    (folder / "agent-a2.meta.json").write_text("[1]")
    assert read_meta(str(transcript), "a1") == META
    assert read_meta(str(transcript), "a2") is None
    assert read_meta(str(transcript), "a3") is None
    assert read_meta(str(transcript), "../a1") is None
    assert read_meta(str(tmp_path / "proj" / "sess"), "a1") is None


def test_a_kept_connection_follows_a_replaced_file(store: Store) -> None:
    store.saw("s", "a1", "f", "x", wrote=True)
    Path(store.path).unlink()
    for extra in ("-wal", "-shm"):
        Path(store.path + extra).unlink(missing_ok=True)
    assert store.saw("s", "a1", "g", "y", wrote=True)  # reconnects to a new file
    other = _open(store.path)
    assert other.seen("s", "a1", "g") == Seen("y", True)
    assert other.seen("s", "a1", "f") is None


def test_a_lease_names_its_holder_once_the_delegation_is_known(store: Store) -> None:
    """The holder's first write came before its Agent call was linked (busy machine, a
    background launch): its description was not known then. The lease names it once the
    link arrives, and a later unknown never blanks it out."""
    store.note_running("s", "a1", "")
    store.take_lease("s", "f.py", "a1", "")
    assert store.lease("s", "f.py") == Lease("a1", "")
    store.link("s", "a1", "toolu_1", "work one")
    assert store.lease("s", "f.py") == Lease("a1", "work one")
    store.note_running("s", "a1", "")
    store.link("s", "a1", "toolu_2", "other")  # the first link stays
    assert store.lease("s", "f.py") == Lease("a1", "work one")
    store.note_running("s", "a2", "")
    store.note_running("s", "a2", "work two")  # known on a later call
    store.take_lease("s", "g.py", "a2", "")
    assert store.lease("s", "g.py") == Lease("a2", "work two")


FIRST_READ = """
import sys
from orchestrator_boundary.state import Store
got = Store(sys.argv[1]).seen("s", "a" + sys.argv[2], "/p/x")
print(type(got).__name__)
"""


def test_sixteen_first_calls_of_a_new_project_all_reach_the_store(tmp_path: Path) -> None:
    """Each sets the new file up (WAL, schema) or waits while another does; with SQLite's own
    2 ms wait a third of them found the store unavailable (then no STALE_FILE check, and an
    unknown delegation), in every round."""
    for round_ in range(3):
        path = tmp_path / f"r{round_}" / "state.db"
        path.parent.mkdir()
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", FIRST_READ, str(path), str(i)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in range(16)
        ]
        answers = [p.communicate(timeout=120)[0].strip() for p in procs]
        assert "Unavailable" not in answers, answers
        assert set(answers) == {"NoneType"}, answers
