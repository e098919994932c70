"""Point 5: the evaluator's resources are bounded. Connections are limited, a request over the
payload limit is refused as soon as its length is known, and memory after a burst returns near
its idle level; meanwhile every call is still answered, and denied where it must be."""

from __future__ import annotations

import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from evaluator_flood import flood, rss_kib

from orchestrator_boundary import wire

from .support import ENFORCE, Arena, route_params

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
