"""When a subagent lets go of its files (ADR 0027, 0065, 0080, 0085): its SubagentStop, a
TaskStop, its Agent call's failure, the main agent's Stop; and what still runs for it after
its stop (a background shell). Shell side, on ``state.Store``'s own transactions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

from orchestrator_boundary.contract_tables import Contracts, profile_of
from orchestrator_boundary.delegation import Unavailable
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.state import Store, _bound, stop

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any


def task_stopped(store: Store, session: str, response: object) -> None:
    """TaskStop's PostToolUse: the subagent it stopped gets no SubagentStop (seen on 2.1.330),
    so it is stopped here, or its leases would hold its files for ``LEASE_TTL_S`` against
    subagents started after it (ADR 0065). The response, not the input (which may be the
    Agent call's ``name``), names the agent id."""
    if isinstance(response, Mapping) and response.get("task_type") == "local_agent":
        agent_id = response.get("task_id")
        if isinstance(agent_id, str) and agent_id:
            store.stopped(session, agent_id)
    elif isinstance(response, Mapping) and response.get("task_type") == "local_bash":
        shell_ended(store, session, response.get("task_id"))


# ---- background shells (ADR 0085) ----


def shell_started(store: Store, session: str, agent_id: str, response: object) -> None:
    """A subagent's command that runs on in the background (``run_in_background``, moved
    there with Ctrl+B or at its timeout; a Monitor's): its PostToolUse names the shell
    (``backgroundTaskId``), which goes on writing after the subagent's SubagentStop; not
    one Claude Code ends with the subagent's final response (``backgroundEndsWithFinalResponse``:
    a foreground subagent's). Seen in 2.1.330's ``BashOutput`` schema."""
    if not isinstance(response, Mapping) or response.get("backgroundEndsWithFinalResponse"):
        return
    shell = response.get("backgroundTaskId", response.get("taskId"))  # Monitor's: taskId
    if isinstance(shell, str) and shell:
        row = (session, shell[:64], agent_id, store.clock())
        sql = "INSERT OR REPLACE INTO shells (session, shell_id, agent_id, ts) VALUES (?, ?, ?, ?)"
        store._write(lambda c: (c.execute(sql, row), _bound(c, "shells")))


def shells_in_flight(tasks: object) -> set[str]:
    """The background shells and monitors ``background_tasks`` (SubagentStop's, Stop's: all
    of the session's, whoever started them) lists as running."""
    if not isinstance(tasks, list):
        return set()
    listed = (t for t in tasks if isinstance(t, Mapping) and isinstance(t.get("id"), str))
    return {
        t["id"] for t in listed if t.get("type") in _RUN_NO_AGENT and t.get("status") not in _OVER
    }


_MINE = "SELECT shell_id FROM shells WHERE session = ? AND agent_id = ?"


def shells_kept(store: Store, session: str, agent_id: str, tasks: object) -> list[str]:
    """SubagentStop: the background shells this subagent started that still run. While one
    does, its leases and its place as running stay (it still writes); the main agent's next
    Stop (``ended_at_stop``), a KillShell or a TaskStop of the shell lets them go."""
    running = shells_in_flight(tasks)
    if not running:
        return []
    kept: list[str] = []

    def mark(c: sqlite3.Connection) -> None:
        mine = {str(r[0]) for r in c.execute(_MINE, (session, agent_id)).fetchall()}
        kept.extend(sorted(mine & running))
        if kept:
            c.execute(
                "UPDATE shells SET stopped = 1 WHERE session = ? AND agent_id = ?",
                (session, agent_id),
            )

    return kept if store._write(mark) else []


def shell_ended(store: Store, session: str, shell: object) -> None:
    """KillShell, KillBash, TaskStop of a shell: it is over. The subagent that started it,
    when it stopped while the shell ran (``shells_kept``) and no other kept shell of it is
    left, lets go of its files now."""
    if not isinstance(shell, str) or not shell:
        return

    def end(c: sqlite3.Connection) -> None:
        row = c.execute(
            "SELECT agent_id, stopped FROM shells WHERE session = ? AND shell_id = ?",
            (session, shell),
        ).fetchone()
        c.execute("DELETE FROM shells WHERE session = ? AND shell_id = ?", (session, shell))
        left = "SELECT 1 FROM shells WHERE session = ? AND agent_id = ? AND stopped = 1"
        if row and row[1] and not c.execute(left, (session, row[0])).fetchone():
            stop(c, session, str(row[0]))

    store._write(end)


def agent_call_failed(store: Store, session: str, tool_use_id: str | None) -> None:
    """An Agent call's PostToolUseFailure (interrupted with Esc, an error): the subagent it
    ran in the foreground no longer runs, and no SubagentStop may come. It lets go of its
    files now, not at the main agent's next Stop (ADR 0085). A background launch that
    failed started none."""
    if not tool_use_id:
        return
    sql = "SELECT agent_id FROM agents WHERE session = ? AND tool_use_id = ? AND running = 1"

    def end(c: sqlite3.Connection) -> None:
        for (agent_id,) in c.execute(sql, (session, tool_use_id)).fetchall():
            stop(c, session, str(agent_id))

    store._write(end)


# Stop's ``background_tasks`` (Claude Code 2.1.2xx+): the types that run no subagent, the
# subagent's own (its ``id`` is the agent id, as TaskStop's ``task_id``), and the statuses of
# work no longer in flight. Any other type (a workflow, a remote agent) may run subagents the
# list does not name: then nothing is released.
_RUN_NO_AGENT = frozenset({"shell", "monitor"})
_SUBAGENT = frozenset({"subagent", "local_agent"})
_OVER = frozenset({"completed", "failed", "killed", "stopped", "cancelled"})
_PARENT = (
    "SELECT l.launch FROM agents a JOIN launches l ON l.session = a.session AND "
    "l.tool_use_id = a.tool_use_id WHERE a.session = ? AND a.agent_id = ?"
)


def in_flight(tasks: object) -> set[str] | None:
    """The subagents ``background_tasks`` names as still in flight, or None when the list
    cannot say which subagents run (absent: an older CLI; a task that runs agents unnamed)."""
    if not isinstance(tasks, list):
        return None
    listed: set[str] = set()
    for task in tasks:
        kind = task.get("type") if isinstance(task, Mapping) else None
        if not isinstance(kind, str):
            return None  # damaged: it cannot say
        if kind in _RUN_NO_AGENT:
            continue
        if kind not in _SUBAGENT or not isinstance(task.get("id"), str):
            return None
        if str(task.get("status")) not in _OVER:  # any other (or none): in flight
            listed.add(task["id"])
    return listed


def at_stop(audit_file: str, session: str, tasks: object) -> dict[str, object]:
    """``ended_at_stop`` for the Stop hook: the audit fields. A Stop without a list (an older
    CLI) opens no store."""
    if in_flight(tasks) is None:
        return {}
    from orchestrator_boundary.stores import kept

    ended = ended_at_stop(kept(Store, audit_file), session or "-", tasks)
    return {"ended": ended[:16]} if ended else {}


def ended_at_stop(store: Store, session: str, tasks: object) -> list[str]:
    """Stop, the main agent's turn over: every subagent that still holds a lease or counts as
    running, and is neither in flight (``in_flight``) nor started below one in flight (a
    background subagent's own foreground subagent), ended without a SubagentStop (killed,
    interrupted, its session's process gone): it is stopped now, so its leases do not hold
    its files for ``LEASE_TTL_S`` (ADR 0080). The agents stopped."""
    listed = in_flight(tasks)
    if listed is None:
        return []

    def read(c: sqlite3.Connection) -> list[str]:
        rows = c.execute(
            "SELECT agent_id FROM agents WHERE session = ? AND running = 1 UNION "
            "SELECT agent_id FROM leases WHERE session = ?",
            (session, session),
        ).fetchall()
        shells = shells_in_flight(tasks)  # a subagent whose background shell runs (0085)
        owners = c.execute("SELECT shell_id, agent_id FROM shells WHERE session = ?", (session,))
        held = listed | {str(a) for s, a in owners.fetchall() if s in shells}
        return [str(r[0]) for r in rows if not _below(c, session, str(r[0]), held)]

    ended = store._read(read)
    if isinstance(ended, Unavailable):
        return []
    for agent_id in ended:
        store.stopped(session, agent_id)
    return ended


def ancestors(c: sqlite3.Connection, session: str, agent_id: str) -> set[str]:
    """The subagents above ``agent_id``: the one whose Agent call started it, and up."""
    found: set[str] = set()
    for _ in range(16):
        row = c.execute(_PARENT, (session, agent_id)).fetchone()
        launch = json.loads(row[0]) if row else None
        parent = launch.get("parent") if isinstance(launch, dict) else None
        if not isinstance(parent, str) or not parent or parent in found:
            return found
        found.add(agent_id := parent)
    return found


def _below(c: sqlite3.Connection, session: str, agent_id: str, listed: set[str]) -> bool:
    """Is ``agent_id``, or an agent above it (the subagent whose Agent call started it), in
    ``listed``? A chain the store does not know ends at the main agent."""
    for _ in range(16):
        if agent_id in listed:
            return True
        row = c.execute(_PARENT, (session, agent_id)).fetchone()
        launch = json.loads(row[0]) if row else None
        parent = launch.get("parent") if isinstance(launch, dict) else None
        if not isinstance(parent, str) or not parent:
            return False
        agent_id = parent
    return True  # deeper than Claude Code nests: kept, not guessed


def subagent_stop(
    contracts: Contracts,
    payload: HookPayload,
    store: Store,
    session: str,
    phase: Phase,
    bypass: bool,
) -> tuple[str, dict[str, Any]]:
    """SubagentStop: sent back once when its type's deliverable is missing (blocked only in
    ``enforce`` or ``ask``, without the bypass, never twice in a row); else it stops."""
    agent_id = payload.agent_id or ""
    agent_type = payload.agent_type or ""
    named = profile_of(contracts, agent_type) if agent_type else None
    requires = named[1].requires if named is not None else ()
    extra: dict[str, Any] = {}
    block = False
    if requires:
        counts = store.counts(session, agent_id)
        blocked = store.stop_blocks(session, agent_id)
        if isinstance(counts, Unavailable) or isinstance(blocked, Unavailable):
            extra["state"] = "unavailable"
        else:
            from orchestrator_boundary.deliverables import stop_check  # a stop's question

            answer = stop_check(
                agent_type,
                requires,
                counts,
                stop_hook_active=payload.stop_hook_active is True,
                blocked_before=blocked,
                max_blocks=contracts.max_stop_blocks,
            )
            acts = phase in (Phase.ENFORCE, Phase.ASK) and not bypass
            block = answer.block and acts
            missing = [list(m) for m in answer.missing]
            extra["deliverables"] = {
                "missing": missing,
                "blocked": block,
                "would_block": answer.block,
            }
            if block:
                store.blocked_stop(session, agent_id)
                return json.dumps({"decision": "block", "reason": answer.reason}), extra
    kept = shells_kept(store, session, agent_id, payload.background_tasks)
    if kept:  # its background shells still write: its leases stay (ADR 0085)
        return "", {**extra, "kept": {"shells": kept[:16]}}
    if not store.stopped(session, agent_id):
        extra["state"] = "unavailable"
    return "", extra
