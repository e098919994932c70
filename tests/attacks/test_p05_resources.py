"""Point 5: the evaluator's resources are bounded. Connections are limited, a request over the
payload limit is refused as soon as its length is known, and memory after a burst returns near
its idle level; meanwhile every call is still answered, and denied where it must be."""

from __future__ import annotations

import os
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from evaluator_flood import flood, rss_kib

from orchestrator_boundary import wire

from .support import ENFORCE, Arena, route_params, until

SETTINGS = "{root}/.claude/settings.json"


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("size", "expect"),
    [
        pytest.param(5 << 20, ("deny", "TAMPER"), id="5 MiB, over the evaluator's limit"),
        pytest.param(wire.MAX_PAYLOAD_BYTES + 1024, ("deny", None), id="over 32 MiB"),
    ],
)
def test_a_large_payload_is_judged_and_denied(
    arena: Arena, size: int, expect: tuple[str, str | None], route: str
) -> None:
    """The registered command as it is (the evaluator route judges a payload the evaluator
    would refuse in the hook's own process)."""
    payload = arena.payload("Write", {"file_path": SETTINGS, "content": "x" * size})
    got = arena.run(payload, route, ENFORCE, fallback=True)
    assert got.decision == expect[0], got
    if expect[1] is None:
        assert got.exit_code == 2 and "too large" in got.stderr, got
    else:
        assert got.code == expect[1], got


def _attack(a: Arena, *, fallback: bool = False) -> float:
    payload = a.payload("Write", {"file_path": SETTINGS, "content": "{}"})
    got = a.run(payload, "evaluator", ENFORCE, fallback=fallback)
    assert (got.decision, got.code) == ("deny", "TAMPER"), got
    return got.seconds


def test_forty_concurrent_30_mib_connections(fresh_arena: Arena) -> None:
    a = fresh_arena
    a.warm()
    pid = a.evaluator_pid()
    assert pid
    head = wire.REQUEST_MAGIC + wire.pack(
        [wire.version_tag(), b"PreToolUse", os.fsencode(a.root), b"HOME=/x", b""]
    )
    idle = rss_kib(pid)
    with ThreadPoolExecutor(40) as pool:
        took = list(pool.map(lambda _: flood(a.socket(), head, 30 << 20), range(40)))
    after = rss_kib(pid)
    assert max(took) < 10, took
    assert after - idle < 64 * 1024, (idle, after)
    _attack(a)  # the same evaluator still answers, and denies
    assert a.evaluator_pid() == pid


def test_connections_held_open_cannot_stall_a_call(fresh_arena: Arena) -> None:
    """Forty connections that send nothing hold every slot; a call is still answered at once
    (judged in the hook's process), and the evaluator answers again once they are gone."""
    a = fresh_arena
    a.warm()
    pid = a.evaluator_pid()
    assert pid
    before = len(os.listdir(f"/proc/{pid}/fd"))
    held = []
    try:
        for _ in range(40):
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.connect(str(a.socket()))
            held.append(conn)
        time.sleep(0.5)  # let it accept what it will
        assert len(os.listdir(f"/proc/{pid}/fd")) - before <= min(wire.MAX_CONNECTIONS, 32)
        assert _attack(a, fallback=True) < 4  # below the evaluator's 5 s read timeout
    finally:
        for conn in held:
            conn.close()
    deadline = time.monotonic() + 15
    while True:
        try:
            _attack(a)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_stopped_evaluator_neither_stalls_a_call_nor_judges_it_twice(fresh_arena: Arena) -> None:
    """An agent's ``kill -STOP`` on the evaluator: each call waits the client's timeout, then
    is judged in the hook's own process, with its line. Before, the evaluator, once let go,
    judged every request it had been sent as well: each call stood twice in the trail, the
    second time under whatever config held by then (ADR 0063)."""
    a = fresh_arena
    a.warm()
    pid = a.evaluator_pid()
    assert pid
    quick = {wire.TIMEOUT_ENV: "0.5", **ENFORCE}
    ids = [f"toolu_stopped_{n}" for n in range(3)]
    os.kill(pid, signal.SIGSTOP)
    try:
        for tool_use_id in ids:
            payload = a.payload("Write", {"file_path": SETTINGS, "content": "{}"})
            payload["tool_use_id"] = tool_use_id
            got = a.run(payload, "evaluator", quick, fallback=True)
            assert (got.decision, got.code) == ("deny", "TAMPER"), got
            assert got.seconds < 5, got
    finally:
        os.kill(pid, signal.SIGCONT)
    _attack(a)  # the evaluator answers again, after what it held
    assert until(lambda: a.evaluator_pid() == pid)
    seen = [r.get("tool_use_id") for r in a.records()]
    assert [seen.count(i) for i in ids] == [1, 1, 1], seen
