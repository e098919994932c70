"""The state store's answers about two agents and one file (ADR 0050): claiming a lease
before a write (one transaction, so of two subagents asking at once the second is told),
another agent's write this agent has not seen, and what other agents hold or wrote (for hard
links). Shell side, on ``state.Store``'s own transactions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

from orchestrator_boundary.contract_tables import MAIN
from orchestrator_boundary.delegation import (
    UNAVAILABLE,
    Delegation,
    Lease,
    Record,
    Unavailable,
    UnknownDelegation,
)
from orchestrator_boundary.state import _LAUNCH, LEASE_TTL_S, Store, _bound
from orchestrator_boundary.state_ends import ancestors
from orchestrator_boundary.state_ends import at_stop as at_stop  # tests read them here
from orchestrator_boundary.state_ends import in_flight as in_flight

OTHERS = 64  # files another agent holds or wrote, compared by identity with a hard link


def record(
    store: Store,
    session: str,
    agent_id: str,
    agent_type: str | None,
    meta: Mapping[str, object] | None,
) -> Record:
    """The subagent's record (``Store.delegation``); one its meta.json alone named is pinned
    as its link at once, so a meta.json rewritten later (by the subagent itself) cannot move
    it to another Agent call's contract or shed it (ADR 0050)."""
    found = store.delegation(session, agent_id, agent_type, meta)
    if isinstance(found, Delegation) and not found.linked:
        store.link(session, agent_id, found.tool_use_id, found.description)
    named = meta.get("toolUseId") if meta else None
    if isinstance(found, UnknownDelegation) and found.contested and isinstance(named, str):
        store.link(session, agent_id, named, "")  # its claim stays, so both are told (0059)
    return found


def started(store: Store, session: str, agent_id: str, tool_use_id: str, desc: str) -> None:
    """The Agent call's PostToolUse named the subagent it started (``agentId``): the link,
    and the launch's own word on its subagent, which no meta.json can move (ADR 0059)."""
    store.link(session, agent_id, tool_use_id, desc)

    def mark(c: sqlite3.Connection) -> None:
        row = c.execute(_LAUNCH, (session, tool_use_id)).fetchone()
        launch = json.loads(row[0]) if row else None
        if isinstance(launch, dict) and "agent" not in launch:
            launch["agent"] = agent_id
            c.execute(
                "UPDATE launches SET launch = ? WHERE session = ? AND tool_use_id = ?",
                (json.dumps(launch), session, tool_use_id),
            )

    store._write(mark)


WRITING = 2  # ``seen.wrote``: a write that passed PreToolUse, not yet reported back (ADR 0059)


# Another agent's write at :p, below it, or of a folder holding it (:r: the project's root
# when :p is a file there in it, else "" and no folder counts; not a repository's .git,
# which git writes and locks itself, ADR 0065), that :a has not read or written since
# (``unseen_write``, ADR 0073). :p = :r: a write of the root itself (`git stash`, `git
# checkout .`): every file of the project is below it, keyed relative (ADR 0080)
_UNSEEN = (
    "SELECT o.agent, o.path, o.wrote, o.session FROM seen o WHERE o.wrote >= 1 "
    "AND (o.session = :s OR o.ts > :since) AND NOT (o.session = :s AND o.agent = :a) "
    "AND (o.path = :p OR substr(o.path, 1, :n) = :p || '/' OR :r != '' "
    "AND (substr(:p, 1, length(o.path) + 1) = o.path || '/' AND o.path != '.git' "
    "AND substr(o.path, -5) != '/.git' OR o.path = :r OR :p = :r AND o.path NOT LIKE '/%' "
    "AND substr(o.path, 2, 1) != ':' AND o.path != '.git' AND o.path NOT LIKE '.git/%')) "
    "AND NOT EXISTS (SELECT 1 FROM seen m WHERE m.session = :s "
    "AND m.agent = :a AND m.ts >= o.ts AND (m.path = o.path OR m.path = :p AND "
    "(substr(:p, 1, length(o.path) + 1) = o.path || '/' OR o.path = :r))) "
    "AND (o.wrote = :w OR NOT EXISTS (SELECT 1 FROM seen n "
    "WHERE n.session = :s AND n.agent = :a AND n.path = :p)) "
    "AND (:main OR EXISTS (SELECT 1 FROM agents b LEFT JOIN launches l "
    "ON l.session = b.session AND l.tool_use_id = b.tool_use_id "
    "WHERE b.session = :s AND b.agent_id = :a "
    "AND MIN(b.ts, COALESCE(l.ts, b.ts)) <= o.ts)) "
    "ORDER BY o.ts DESC LIMIT 1"
)


def unseen_write(
    store: Store,
    session: str,
    agent: str,
    path: str,
    sha: str | None = None,
    root: str = "",
    undo: list[Claim] | None = None,
) -> tuple[str, str, bool] | Unavailable | None:
    """(the agent, the path, still running) of the latest write by another agent (of any
    session of the project in the last ``LEASE_TTL_S``: ``of_session``, ADR 0085) at ``path``
    or below it that ``agent`` has not read or written since (``UNAVAILABLE``: unreachable).
    A write still running counts even where ``agent`` has read the file before; a finished
    one only where it never read or wrote it (the content hash judges the rest).

    Asking is claiming (ADR 0059): when there is none, ``agent``'s own write at ``path`` is
    marked as running in the same transaction (``sha``: the content it writes over), so of
    two agents asking at once the second is told, whatever ``leases`` says.

    For a subagent, only a write made while it ran counts: after it was launched (its Agent
    call) or first seen. One started after that write was handed it done (a formatter run by
    the next agent), not two agents at once; one not seen yet starts now. The main agent
    runs all along: every write counts.

    A write of a folder holding ``path`` (``cp -r x/. src/c``; ``root``: the project's root,
    when ``path`` is in it) wrote the files in it: it counts until ``agent`` reads or writes
    ``path`` after it. ``undo`` gets the claim, for ``release`` if the call is refused (0073)."""
    got: list[tuple[str, str, bool]] = []

    args = {"s": session, "a": agent, "p": path, "n": len(path) + 1, "r": root, "w": WRITING}
    args.update(main=agent == MAIN, since=store.clock() - LEASE_TTL_S)

    def claim(c: sqlite3.Connection) -> None:
        row = c.execute(_UNSEEN, args).fetchone()
        if row:
            got.append((of_session(row[0], row[3], session), row[1], row[2] == WRITING))
            return
        prior = c.execute(
            "SELECT sha256, wrote, ts FROM seen WHERE session = ? AND agent = ? AND path = ?",
            (session, agent, path),
        ).fetchone()
        c.execute(
            "INSERT OR REPLACE INTO seen VALUES (?, ?, ?, ?, ?, ?)",
            (session, agent, path, sha, WRITING, store.clock()),
        )
        _bound(c, "seen")
        if undo is not None:
            undo.append(("seen", path, tuple(prior) if prior else None))

    if store._pending is not None or not store._write(claim):
        return UNAVAILABLE
    return got[0] if got else None


def claim_lease(
    store: Store,
    session: str,
    path: str,
    agent_id: str,
    description: str,
    root: str = "",
    undo: list[Claim] | None = None,
) -> Lease | Unavailable | None:
    """Before a write: the running subagent that holds ``path``, a file below it or a folder
    that holds it (``root``: as ``unseen_write``'s; not .git, ADR 0073), else ``path`` is
    now leased to ``agent_id``: one transaction, so of two subagents asking at once, the
    second is told (ADR 0050)."""
    now = store.clock()
    live = (  # any session's (ADR 0085): two terminals in one project share its files
        "FROM leases l JOIN agents a ON a.session = l.session AND a.agent_id = l.agent_id "
        "WHERE (l.path = :p OR substr(l.path, 1, :n) = :p || '/' OR "
        ":r != '' AND (substr(:p, 1, length(l.path) + 1) = l.path || '/' "
        "AND l.path != '.git' AND substr(l.path, -5) != '/.git' OR l.path = :r OR :p = :r "
        "AND l.path NOT LIKE '/%' AND substr(l.path, 2, 1) != ':' AND l.path != '.git' "
        "AND l.path NOT LIKE '.git/%')) "
        "AND NOT (l.session = :s AND l.agent_id = :a) AND a.running = 1 AND l.ts > :since"
    )
    args = {"s": session, "p": path, "n": len(path) + 1, "r": root, "a": agent_id}
    args["since"] = now - LEASE_TTL_S
    upsert = (
        "INSERT INTO leases VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, path) DO "
        "UPDATE SET agent_id = excluded.agent_id, description = excluded.description, "
        "ts = excluded.ts"
    )
    got: list[Lease] = []

    def claim(c: sqlite3.Connection) -> None:
        row = c.execute(
            "SELECT l.agent_id, COALESCE(NULLIF(a.description, ''), l.description), "
            "l.session " + live,
            args,
        ).fetchall()
        above = ancestors(c, session, agent_id) if any(r[2] == session for r in row) else set()
        for held, desc, where in row:  # not an ancestor's: it handed this write on (0085)
            if where != session or held not in above:
                got.append(Lease(held, desc or "", "" if where == session else where))
                return
        mine = c.execute(
            "SELECT 1 FROM leases WHERE session = ? AND path = ? AND agent_id = ?",
            (session, path, agent_id),
        ).fetchone()
        c.execute(upsert, (session, path, agent_id, description, now))
        _bound(c, "leases")
        if undo is not None and mine is None:
            undo.append(("lease", path, None))

    if store._pending is not None or not store._write(claim):
        return UNAVAILABLE
    return got[0] if got else None


def of_session(agent: str, session: str, mine: str) -> str:
    """``agent`` as ``ledger_files.label`` names it: ``agent@session`` when it runs in
    another Claude Code session of the project (ADR 0085)."""
    return agent if session == mine else f"{agent}@{session}"


# What a call's PreToolUse claimed before its verdict: ("seen", path, the row it replaced)
# or ("lease", path, None), a lease it did not hold before.
Claim = tuple[str, str, "tuple[object, ...] | None"]


def release(store: Store, session: str, agent: str, undo: list[Claim]) -> None:
    """A refused call writes nothing: what its PreToolUse claimed goes (its new leases, its
    writes marked as running, the rows these replaced back). Else a subagent whose command
    was refused at a later file held the earlier ones "which changed it" against every
    other subagent until it stopped, and its write stayed "still running" (ADR 0073)."""

    def undo_all(c: sqlite3.Connection) -> None:
        for kind, path, prior in reversed(undo):
            if kind == "lease":
                c.execute(
                    "DELETE FROM leases WHERE session = ? AND path = ? AND agent_id = ?",
                    (session, path, agent),
                )
                continue
            c.execute(
                "DELETE FROM seen WHERE session = ? AND agent = ? AND path = ? AND wrote = ?",
                (session, agent, path, WRITING),
            )
            if prior is not None:
                c.execute(
                    "INSERT OR IGNORE INTO seen VALUES (?, ?, ?, ?, ?, ?)",
                    (session, agent, path, *prior),
                )

    if undo:
        store._write(undo_all)


def others(
    store: Store, session: str, agent: str, *, leases: bool, but: str = ""
) -> list[tuple[str, str, str]] | Unavailable:
    """(path, agent, description) of the live leases of the other running subagents
    (``leases``), else of the other agents' recorded writes, newest first, at most
    ``OTHERS``, at another path than ``but`` (hard links: ``ledger`` compares their files'
    identities; the file's own name is judged by its own rows)."""
    since = store.clock() - LEASE_TTL_S

    def read(c: sqlite3.Connection) -> list[tuple[str, str, str]]:
        if not leases:
            rows = c.execute(
                "SELECT path, agent, '' FROM seen WHERE session = ? AND agent != ? AND "
                "wrote >= 1 AND path != ? ORDER BY ts DESC LIMIT ?",
                (session, agent, but, OTHERS),
            ).fetchall()
            return [(str(p), str(a), "") for p, a, _ in rows]
        rows = c.execute(
            "SELECT l.path, l.agent_id, COALESCE(NULLIF(a.description, ''), l.description) "
            "FROM leases l JOIN agents a ON a.session = l.session AND "
            "a.agent_id = l.agent_id WHERE l.session = ? AND l.agent_id != ? AND "
            "a.running = 1 AND l.ts > ? AND l.path != ? ORDER BY l.ts DESC LIMIT ?",
            (session, agent, since, but, OTHERS),
        ).fetchall()
        return [(str(p), str(a), str(d or "")) for p, a, d in rows]

    return store._read(read)


def settle(
    store: Store,
    session: str,
    agent: str,
    root: str,
    out: list[tuple[str, str | None]],
) -> None:
    """A command's PostToolUse: the writes its PreToolUse marked as running that the trail
    does not name (a glob's matches, ADR 0080) are done, with the content they left. Else
    the mark kept the content before the write, and the agent's own next Bash write of the
    file was STALE_FILE. ``out`` gets each (path, content hash), for the audit line."""
    from orchestrator_boundary.fs import sha256_of

    def done(c: sqlite3.Connection) -> None:
        rows = c.execute(
            "SELECT path FROM seen WHERE session = ? AND agent = ? AND wrote = ? LIMIT 1100",
            (session, agent, WRITING),
        ).fetchall()
        for (path,) in rows:
            full = path if path.startswith("/") or not root else f"{root}/{path}"
            out.append((path, sha256_of(full)))
            c.execute(
                "UPDATE seen SET sha256 = ?, wrote = 1, ts = ? WHERE session = ? AND agent = ? "
                "AND path = ? AND wrote = ?",
                (out[-1][1], store.clock(), session, agent, path, WRITING),
            )

    store._write(done)
