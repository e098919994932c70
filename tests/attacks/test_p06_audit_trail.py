"""Point 6: no agent can silence, forge or erase the audit trail. Every route that opens,
locks, truncates, links or redirects into the trail's folder is denied, and a lock held by
another process neither loses a line nor delays a call by more than a small bound.
(The hash chain's attacks are in ``test_trail_chain.py``.)"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

import pytest

from .support import ENFORCE, Arena, Attack, attempt, bash, params, route_params, until, write

TRAIL = "{root}/.claude/boundary/audit.jsonl"
FOLDER = "{root}/.claude/boundary"

ATTACKS = [
    # the file tools
    write("Write the trail", TRAIL),
    write("Write the trail, orchestrator", TRAIL, caller="orchestrator"),
    write("Write a rotated file", TRAIL + ".1"),
    write("Write a forged spool file", FOLDER + "/.audit.jsonl-spool-00000000000000000001-1"),
    write("Write a new file in the folder", FOLDER + "/x.jsonl", caller="orchestrator"),
    write("Write through a relative path", ".claude/./boundary/../boundary/audit.jsonl"),
    write("Write through a symlink to the trail", "{root}/src/trail-link"),
    write("Write through a symlinked folder", "{root}/src/boundary-link/audit.jsonl"),
    write("Write the trail, enforce", TRAIL, env=ENFORCE),
    Attack(
        "Edit the trail", "Edit", {"file_path": TRAIL, "old_string": "deny", "new_string": "none"}
    ),
    Attack(
        "MultiEdit the trail",
        "MultiEdit",
        {"file_path": TRAIL, "edits": [{"old_string": "deny", "new_string": "none"}]},
        caller="orchestrator",
    ),
    Attack("NotebookEdit the trail", "NotebookEdit", {"notebook_path": TRAIL, "new_source": ""}),
    Attack(
        "MCP truncate",
        "mcp__fs__write_file",
        {"path": ".claude/boundary/audit.jsonl", "content": ""},
    ),
    Attack(
        "MCP move the folder", "mcp__fs__move_file", {"source": FOLDER, "destination": "/tmp/x"}
    ),
    Attack("MCP delete the folder", "mcp__fs__delete", {"uri": "file://" + FOLDER}),
    Attack(
        "MCP symlink over the trail",
        "mcp__fs__symlink",
        {"target": "/dev/null", "link_path": TRAIL},
    ),
    # Bash (covered by the analysis; here as a check that both share the protected set)
    bash("truncate by redirect", ": > .claude/boundary/audit.jsonl"),
    bash("truncate(1)", "truncate -s 0 .claude/boundary/audit.jsonl", caller="orchestrator"),
    bash("link to /dev/null", "ln -sf /dev/null .claude/boundary/audit.jsonl"),
    bash("hold the lock", "flock .claude/boundary sleep 100000 &"),
    bash("hold the lock by descriptor", "exec 9<.claude/boundary; flock 9"),
    bash("lock a descriptor of a group", "{ flock -x 9; sleep 9; } 9<.claude/boundary"),
    bash("move the folder away", "mv .claude/boundary /tmp/gone"),
    bash("python opens it", """python -c "open('.claude/boundary/audit.jsonl', 'w')" """),
]


@pytest.fixture
def links(arena: Arena) -> None:
    folder = arena.root / ".claude" / "boundary"
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in (("trail-link", folder / "audit.jsonl"), ("boundary-link", folder)):
        link = arena.root / "src" / name
        if not link.is_symlink():
            link.symlink_to(target)


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_every_route_into_the_trail_is_denied(
    arena: Arena, links: None, attack: Attack, route: str
) -> None:
    attempt(arena, attack, route)


HOLD = """\
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(600)
"""

# The design bound is 0.2 s (audit.LOCK_WAIT_S); the rest is a loaded machine's jitter.
LOCK_BOUND_S = 1.5


@pytest.mark.parametrize("route", route_params())
def test_a_held_lock_delays_no_call_and_loses_no_line(fresh_arena: Arena, route: str) -> None:
    """An agent's process holds the trail folder's lock (``flock .claude/boundary sleep``, run
    before the guard existed or by a program the analysis cannot see). Every call is still
    answered within a small bound, and every line reaches the trail once the lock is gone
    (before issue 13: 6-9 s per call, nothing recorded)."""
    a = fresh_arena
    if route == "evaluator":
        a.warm()
    folder = a.root / ".claude" / "boundary"
    folder.mkdir(parents=True, exist_ok=True)

    def call() -> tuple[float, str]:
        payload = a.payload("Write", {"file_path": TRAIL, "content": ""}, caller="orchestrator")
        got = a.run(payload, route, ENFORCE)
        assert got.decision == "deny", got
        return got.seconds, str(payload["tool_use_id"])

    free = statistics.median(call()[0] for _ in range(3))
    ready = a.base / "held"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder), str(ready)])
    try:
        assert until(ready.exists), "the lock holder did not start"
        held = [call() for _ in range(3)]
    finally:
        holder.kill()
        holder.wait()
    assert statistics.median(s for s, _ in held) - free < LOCK_BOUND_S, (free, held)
    call()  # the next writer merges what was spooled
    ids = {r.get("tool_use_id") for r in a.records()}
    assert all(tid in ids for _, tid in held), "a line was lost while the lock was held"
    assert not [n for n in os.listdir(folder) if "spool" in n]
    trail = (folder / "audit.jsonl").read_text().splitlines()
    assert len(trail) == len(set(trail))  # merged once, not twice


def _fifo(path: os.PathLike[str] | str) -> None:
    os.mkfifo(path)


def _touch(path: os.PathLike[str] | str) -> os.PathLike[str] | str:
    with open(path, "wb"):
        return path


# What an agent's own process could put among the spool files, which only this package writes
# (a program the analysis cannot see, started by a subagent: `python3 x.py` is allowed).
HOSTILE_SPOOL = {
    "fifo": _fifo,
    "dev-zero": lambda p: os.symlink("/dev/zero", p),
    "huge": lambda p: os.truncate(_touch(p), 100 * 1024 * 1024),  # sparse: 100 MiB of NULs
}


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("kind", list(HOSTILE_SPOOL))
def test_a_hostile_spool_entry_neither_stalls_a_call_nor_loses_its_line(
    fresh_arena: Arena, kind: str, route: str
) -> None:
    """A FIFO, a link to /dev/zero or a 100 MiB file named as a spool file: the merging
    writer read it whole under the trail's lock, so every call ran into Claude Code's timeout
    (or filled memory) and nothing was recorded. It is set aside, and the call is recorded."""
    a = fresh_arena
    if route == "evaluator":
        a.warm()
    folder = a.root / ".claude" / "boundary"
    folder.mkdir(parents=True, exist_ok=True)
    HOSTILE_SPOOL[kind](folder / ".audit.jsonl-spool-99999999999999999999-1")
    for _ in range(2):
        payload = a.payload("Write", {"file_path": TRAIL, "content": ""}, caller="orchestrator")
        got = a.run(payload, route, ENFORCE, timeout=9)  # Claude Code's is 10 s
        assert got.decision == "deny" and got.record is not None, got
    assert not [n for n in os.listdir(folder) if "-spool-" in n]


@pytest.mark.parametrize("name", ["audit.jsonl", "audit.jsonl.1", ".audit.jsonl-head"])
def test_report_and_doctor_answer_when_a_trail_file_is_a_fifo(
    fresh_arena: Arena, name: str
) -> None:
    """``report`` and ``doctor`` waited forever on a FIFO in a trail file's place."""
    a = fresh_arena
    payload = a.payload("Write", {"file_path": TRAIL, "content": ""}, caller="orchestrator")
    a.run(payload, "hook", ENFORCE)
    target = a.root / ".claude" / "boundary" / name
    target.unlink(missing_ok=True)
    _fifo(target)
    env = a.env("hook", ENFORCE)
    for command in ("report", "doctor"):
        done = subprocess.run(
            [sys.executable, "-m", "orchestrator_boundary", command, "--project", str(a.root)],
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode in (0, 1, 2, 3), done
        assert b"Traceback" not in done.stderr and b"No module named" not in done.stderr, done


@pytest.mark.parametrize("route", ["evaluator"])
def test_calls_queued_in_the_evaluator_are_not_delayed_one_after_another(
    fresh_arena: Arena, route: str
) -> None:
    """With the lock held, the evaluator (which judges calls one at a time) waited the full
    bound for each call in turn: ten calls at once took up to 2 s, and those past the
    client's timeout were judged and recorded twice. After one wait runs out it spools at once."""
    from concurrent.futures import ThreadPoolExecutor

    a = fresh_arena
    a.warm()
    folder = a.root / ".claude" / "boundary"
    folder.mkdir(parents=True, exist_ok=True)
    ready = a.base / "held"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder), str(ready)])
    try:
        assert until(ready.exists), "the lock holder did not start"
        payloads = [
            a.payload("Write", {"file_path": TRAIL, "content": ""}, caller="orchestrator")
            for _ in range(10)
        ]
        with ThreadPoolExecutor(10) as pool:
            got = list(pool.map(lambda p: a.run(p, route, ENFORCE), payloads))
    finally:
        holder.kill()
        holder.wait()
    assert all(g.decision == "deny" for g in got), got
    assert max(g.seconds for g in got) < LOCK_BOUND_S, [round(g.seconds, 2) for g in got]
    a.run(a.payload("Read", {"file_path": TRAIL}, caller="orchestrator"), route, ENFORCE)
    ids = [r.get("tool_use_id") for r in a.records()]
    for p in payloads:
        assert ids.count(p["tool_use_id"]) == 1, "a call was lost or recorded twice"
