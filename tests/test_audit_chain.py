"""The audit trail's sequence numbers and hash chain (ADR 0031), and the line written without a
logging library (issue 15 point 7): what ``audit.write`` puts in the file, and what
``trail_chain.ChainCheck`` says about a trail that was changed afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary import audit, report_trail, trail_chain

TS = "2026-11-23T10:00:00.000000+00:00"


def _write(path: Path, n: int, start: int = 0, **kw: int) -> None:
    for i in range(start, start + n):
        audit.write(str(path), {"ts": TS, "event": "PreToolUse", "i": i}, **kw)


def _check(path: Path, keep: int = 20) -> trail_chain.ChainResult:
    files = audit.trail_files(str(path))
    check = report_trail.chain_check(str(path), files, keep)
    for _ in report_trail.iter_records(files, None, check):
        pass
    return check.result()


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_the_line_keeps_the_field_order_and_byte_format(tmp_path: Path) -> None:
    """The bytes structlog's JSONRenderer wrote, with seq and chain after every field."""
    trail = tmp_path / "audit.jsonl"
    audit.write(
        str(trail),
        {"version": "1", "duration_ms": 1.5, "event": "PreToolUse", "ts": TS, "p": ["é"]},
    )
    line = trail.read_bytes()
    assert line.startswith(
        b'{"ts": "2026-11-23T10:00:00.000000+00:00", "event": "PreToolUse", '
        b'"duration_ms": 1.5, "version": "1", "p": ["\xc3\xa9"], "seq": 1, "chain": "'
    )
    assert line.endswith(b'"}\n') and line.count(b"\n") == 1
    rec = json.loads(line)
    body = line[: line.index(b', "chain"')] + b"}"
    assert rec["chain"] == trail_chain.link(trail_chain.GENESIS, body)


def test_a_value_json_cannot_hold_is_written_as_its_repr(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    audit.write(str(trail), {"ts": TS, "event": "x", "odd": {1, 2}.__class__})
    assert json.loads(trail.read_text())["odd"] == "<class 'set'>"


def test_a_callers_seq_or_chain_never_reaches_the_line(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    audit.write(str(trail), {"ts": TS, "event": "x", "seq": 99, "chain": "f" * 64})
    rec = json.loads(trail.read_text())
    assert rec["seq"] == 1 and rec["chain"] != "f" * 64
    assert _check(trail).intact


def test_writing_a_line_imports_no_logging_library(tmp_path: Path) -> None:
    """Issue 15 point 7: the hook's audit line does not pull in structlog (or logging)."""
    code = (
        "import sys\n"
        "from orchestrator_boundary import audit\n"
        f"audit.write({str(tmp_path / 'a.jsonl')!r}, {{'event': 'x'}})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('structlog', 'logging')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert json.loads((tmp_path / "a.jsonl").read_text())["seq"] == 1


def test_seq_counts_on_across_rotation_and_the_files_link(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    _write(trail, 40, max_bytes=1500, keep=50)
    files = audit.trail_files(str(trail))
    assert len(files) > 3
    seqs = [json.loads(x)["seq"] for f in files for x in Path(f).read_bytes().splitlines()]
    assert seqs == list(range(1, 41))
    result = _check(trail, keep=50)
    assert result.intact and (result.first_seq, result.last_seq) == (1, 40)


def test_rotation_that_dropped_the_oldest_file_is_not_a_removal(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    _write(trail, 60, max_bytes=1500, keep=3)
    result = _check(trail, keep=3)
    assert result.first_seq is not None and result.first_seq > 1
    assert result.intact, result.findings


def test_lines_written_before_the_chain_are_counted_not_reported(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    trail.write_text(f'{{"ts": "{TS}", "event": "PreToolUse", "old": 1}}\n' * 3)
    _write(trail, 4)
    result = _check(trail)
    assert result.intact
    assert (result.before_start, result.chained, result.start) == (3, 4, "audit.jsonl:4")


def _tampered(trail: Path, how: str) -> None:
    lines = _lines(trail)
    if how == "delete":
        del lines[4]
    elif how == "swap":
        lines[3], lines[4] = lines[4], lines[3]
    elif how == "edit":
        lines[5] = lines[5].replace(b'"i": 5', b'"i": 6')
    elif how == "truncate":
        del lines[7:]
    elif how == "cut-start":
        del lines[:2]
    elif how == "insert":
        lines.insert(3, f'{{"ts": "{TS}", "event": "PreToolUse", "decision": "allow"}}\n'.encode())
    elif how == "duplicate":
        lines.insert(6, lines[2])
    elif how == "recompute-all":  # an edit, every later chain recomputed: the head tells
        new = [lines[0]]
        last = trail_chain.unseal(lines[0])
        assert last is not None
        for raw in lines[1:]:
            text = raw.replace(b'"i": 5', b'"i": 6').rstrip(b"\n")
            body = text[: text.index(b', "seq"')] + b"}"
            sealed, chain = trail_chain.seal(body, last.seq + 1, last.chain)
            last = trail_chain.Sealed(last.seq + 1, chain, b"")
            new.append(sealed + b"\n")
        lines = new
    trail.write_bytes(b"".join(lines))


@pytest.mark.parametrize(
    ("how", "problem", "detail"),
    [
        ("delete", "removed", "seq 5 missing"),
        ("swap", "out of order", "seq 4 comes after seq 5"),
        ("edit", "changed", "seq 6 does not follow from seq 5"),
        ("truncate", "removed at the end", "ends at seq 7, but seq 10 was written"),
        ("cut-start", "removed at the start", "lines 1..2 are not in the trail"),
        ("insert", "unchained", "a record without a chain"),
        ("duplicate", "repeated", "seq 3 was already in the trail"),
        ("recompute-all", "changed", "the last line (seq 10) is not the one that was written"),
    ],
    ids=lambda v: v if isinstance(v, str) and " " not in v else "",
)
def test_a_changed_trail_is_told(tmp_path: Path, how: str, problem: str, detail: str) -> None:
    trail = tmp_path / "audit.jsonl"
    _write(trail, 10)
    assert _check(trail).intact
    _tampered(trail, how)
    result = _check(trail)
    assert not result.intact
    assert [f.problem.value for f in result.findings] == [problem], result.findings
    assert detail in result.findings[0].detail


def test_a_removed_head_record_is_told_and_the_next_line_restarts(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    _write(trail, 3)
    Path(audit.head_path(str(trail))).unlink()
    copied = _check(trail)  # as a copy of the trail without its head reads: not a finding
    assert copied.intact and copied.head_missing and "no head record" in copied.summary()
    _write(trail, 1, start=3)
    assert json.loads(_lines(trail)[-1])["seq"] == 1
    assert [f.problem for f in _check(trail).findings] == [trail_chain.Problem.RESTARTED]


def test_a_head_record_that_is_not_a_file_costs_no_line(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    Path(audit.head_path(str(trail))).mkdir(parents=True)
    _write(trail, 2)
    assert [json.loads(x)["seq"] for x in _lines(trail)] == [1, 1]  # each a new chain


def test_unseal_refuses_what_is_not_a_chained_line() -> None:
    sealed, chain = trail_chain.seal(b'{"a": 1}', 7, trail_chain.GENESIS)
    got = trail_chain.unseal(sealed + b"\n")
    assert got is not None and (got.seq, got.chain) == (7, chain)
    assert json.loads(sealed) == {"a": 1, "seq": 7, "chain": chain}
    for bad in (b'{"a": 1}', b'{"chain": "' + b"g" * 64 + b'"}', sealed.replace(b"7,", b"x,")):
        assert trail_chain.unseal(bad) is None
    assert json.loads(trail_chain.seal(b"{}", 1, trail_chain.GENESIS)[0])["seq"] == 1


def _many(path: str, worker: int) -> None:
    for i in range(100):
        audit.write(path, {"ts": TS, "event": "PreToolUse", "w": worker, "i": i}, max_bytes=9000)


def test_concurrent_writers_leave_one_unbroken_chain(tmp_path: Path) -> None:
    import multiprocessing

    trail = tmp_path / "audit.jsonl"
    procs = [multiprocessing.Process(target=_many, args=(str(trail), w)) for w in range(5)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    result = _check(trail)
    assert result.intact, result.findings
    assert result.chained + result.pending == 500
    assert (result.first_seq, result.last_seq) == (1, result.chained)


def test_a_spool_file_still_being_written_is_left_for_a_later_writer(tmp_path: Path) -> None:
    """A spooled line is written under a private name and renamed into the spool when whole:
    a merging writer never reads it half-written and removes it (a line lost under load)."""
    trail = tmp_path / "audit.jsonl"
    _write(trail, 1)
    partial = tmp_path / ".audit.jsonl-partial-00000000000000000001-1"
    partial.write_bytes(b'{"ts": "' + TS.encode())  # its writer has not finished yet
    _write(trail, 1, start=1)
    assert partial.exists() and len(_lines(trail)) == 2
    partial.write_bytes(f'{{"ts": "{TS}", "event": "PreToolUse", "i": 9}}\n'.encode())
    partial.rename(tmp_path / ".audit.jsonl-spool-00000000000000000001-1")  # now whole
    _write(trail, 1, start=2)
    assert [json.loads(x)["i"] for x in _lines(trail)] == [0, 1, 9, 2]
    assert _check(trail).intact
