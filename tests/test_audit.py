from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

from orchestrator_boundary import audit, report_trail

TS = "2026-11-24T10:00:00.000000+00:00"

REQUIRED = {
    "ts",
    "event",
    "session_id",
    "session_kind",
    "agent_id",
    "agent_type",
    "tool_name",
    "tool_class",
    "paths",
    "decision",
    "would_deny",
    "phase",
    "rule",
    "bypassed",
    "error",
    "duration_ms",
}


def test_every_record_has_the_documented_fields(project: Path) -> None:
    from conftest import run_hook

    payload = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(project / "x")},
    }
    run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)})
    run_hook(b"junk", {"CLAUDE_PROJECT_DIR": str(project)})
    for line in (project / ".claude/boundary/audit.jsonl").read_text().splitlines():
        rec = json.loads(line)
        assert REQUIRED - {
            "session_kind",
            "agent_id",
            "agent_type",
            "tool_name",
            "tool_class",
            "paths",
            "rule",
            "bypassed",
            "session_id",
        } <= set(rec)
    first = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[0])
    assert set(first) >= REQUIRED
    assert first["paths"] == ["x"] and first["ts"].endswith("+00:00")


def _append_many(path: str, worker: int, n: int, max_bytes: int) -> None:
    for i in range(n):
        audit.write(
            path,
            {"event": "PreToolUse", "worker": worker, "i": i, "pad": "x" * 300},
            max_bytes=max_bytes,
            keep=1000,
        )


def _collect(path: Path) -> list[dict[str, object]]:
    lines = []
    for f in audit.trail_files(str(path)):
        lines += [json.loads(line) for line in Path(f).read_text().splitlines()]
    return lines


def test_concurrent_appends_neither_interleave_nor_lose_lines(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    procs = [
        multiprocessing.Process(target=_append_many, args=(str(path), w, 200, 0)) for w in range(6)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    records = _collect(path)
    assert len(records) == 1200
    assert {(r["worker"], r["i"]) for r in records} == {
        (w, i) for w in range(6) for i in range(200)
    }


def test_rotation_under_concurrency_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    procs = [
        multiprocessing.Process(target=_append_many, args=(str(path), w, 150, 20_000))
        for w in range(4)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    files = audit.trail_files(str(path))
    assert len(files) > 5
    assert all(Path(f).stat().st_size <= 20_000 for f in files)
    records = _collect(path)
    assert len(records) == 600
    assert len({(r["worker"], r["i"]) for r in records}) == 600


def test_rotation_keeps_at_most_keep_files(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    for i in range(100):
        audit.write(str(path), {"event": "x", "i": i, "pad": "y" * 200}, max_bytes=1000, keep=3)
    assert [Path(f).name for f in audit.trail_files(str(path))] == [
        "audit.jsonl.3",
        "audit.jsonl.2",
        "audit.jsonl.1",
        "audit.jsonl",
    ]


def test_a_lowered_keep_drops_the_files_past_it_and_keeps_the_chain(tmp_path: Path) -> None:
    """Before: with ``[audit] keep`` lowered from 20 to 3, the seventeen files past it stayed
    for good, listed before the shifted ones, and every rotation removed one from the middle:
    ``report`` and ``doctor`` said lines were removed from the trail."""
    path = tmp_path / "audit.jsonl"
    for i in range(60):
        audit.write(str(path), {"ts": TS, "i": i, "pad": "y" * 300}, max_bytes=800, keep=20)
    assert len(audit.trail_files(str(path))) == 21
    for i in range(60, 64):
        audit.write(str(path), {"ts": TS, "i": i, "pad": "y" * 300}, max_bytes=800, keep=3)
    files = audit.trail_files(str(path))
    assert [Path(f).name for f in files] == [
        "audit.jsonl.3",
        "audit.jsonl.2",
        "audit.jsonl.1",
        "audit.jsonl",
    ]
    check = report_trail.chain_check(str(path), files, 3)
    numbers = [r["i"] for r in report_trail.iter_records(files, None, check)]
    assert numbers == sorted(numbers) and numbers[-1] == 63
    assert check.result().intact, check.result().findings


def test_trail_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "a" / "audit.jsonl"
    audit.write(str(path), {"event": "x"})
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_held_lock_spools_the_line_and_the_next_writer_merges_it(tmp_path: Path) -> None:
    """An agent holding the trail's lock can neither silence the trail nor stall the hook:
    the line is spooled beside the trail at once, and merged by the next writer (#13)."""
    import fcntl
    import time

    trail = tmp_path / "boundary" / "audit.jsonl"
    trail.parent.mkdir()
    holder = os.open(trail.parent, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        started = time.monotonic()
        audit.write(str(trail), {"event": "PreToolUse", "n": 1})
        waited = time.monotonic() - started
        assert waited < audit.LOCK_WAIT_S + 1.0  # bounded, not Claude Code's timeout
        assert not trail.exists()
        files = audit.trail_files(str(trail))
        assert len(files) == 1 and "spool" in files[0]  # the report already sees it
    finally:
        os.close(holder)
    audit.write(str(trail), {"event": "PreToolUse", "n": 2})
    lines = [json.loads(x) for x in trail.read_text().splitlines()]
    assert [x["n"] for x in lines] == [1, 2]
    assert audit.trail_files(str(trail)) == [str(trail)]


def test_merged_spool_lines_keep_the_size_cap(tmp_path: Path) -> None:
    """Lines spooled while the lock was held are merged by the next writer in one go; the
    trail still rotates between lines, so no file passes ``max_bytes`` (it went to twice the
    cap under heavy load before) and none of the lines is lost or out of the chain."""
    import fcntl

    from orchestrator_boundary import audit_lock

    trail = tmp_path / "boundary" / "audit.jsonl"
    trail.parent.mkdir()
    cap = 700
    holder = os.open(trail.parent, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        for n in range(6):  # about 250 bytes each: six of them are two files' worth
            audit.write(str(trail), {"event": "x", "n": n, "pad": "y" * 200}, max_bytes=cap)
    finally:
        os.close(holder)
    audit_lock._busy_until = 0.0  # this process saw the lock busy; the next write must wait
    audit.write(str(trail), {"event": "x", "n": 6, "pad": "y" * 200}, max_bytes=cap)
    files = audit.trail_files(str(trail))
    assert len(files) >= 3 and not any("spool" in Path(f).name for f in files)
    assert all(Path(f).stat().st_size <= cap for f in files)
    lines = [json.loads(x) for f in files for x in Path(f).read_text().splitlines()]
    assert sorted(x["n"] for x in lines) == list(range(7))
    assert [x["seq"] for x in lines] == sorted(x["seq"] for x in lines)
