"""Attacks on the audit trail's record (issue 13 point 6, third bullet; ADR 0031): lines
removed, reordered, edited or cut off after the hooks wrote them, through the real hook entry
point (judged in process) and through the resident evaluator. ``report`` and ``doctor`` must
say so; a line that waited in the spool, and rotation, must not look like an attack."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest
from test_daemon import (  # noqa: F401 - proj and rt are fixtures
    _payload,
    base_env,
    proj,
    rt,
    run_hook,
    start_and_wait,
)

from orchestrator_boundary import audit
from orchestrator_boundary.cli import main
from orchestrator_boundary.cmd_doctor import CHECKS
from orchestrator_boundary.doctor_context import FAIL, OK, WARN, Context
from orchestrator_boundary.doctor_trail import check_trail


def _trail(proj: Path) -> Path:  # noqa: F811
    return proj / ".claude" / "boundary" / "audit.jsonl"


def _calls(proj: Path, env: dict[str, str], n: int, *, daemon_only: bool = False) -> None:  # noqa: F811
    for i in range(n):
        raw = _payload(
            proj, "Read", {"file_path": str(proj / "src" / "app.py")}, tool_use_id=f"t{i}"
        )
        got = run_hook("PreToolUse", raw, env, proj, daemon_only=daemon_only)
        assert got.returncode == 0, got


def _doctor(proj: Path, env: dict[str, str]) -> tuple[str, str]:  # noqa: F811
    check = check_trail(Context(str(proj), env, env["HOME"]))
    return check.status, check.message


def _report(
    proj: Path,  # noqa: F811
    env: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> dict:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    main(["report", "--project", str(proj), "--json"])
    return json.loads(capsys.readouterr().out)


def _tamper(trail: Path, how: str) -> None:
    lines = trail.read_bytes().splitlines(keepends=True)
    if how == "delete-a-deny":
        del lines[2]
    elif how == "swap":
        lines[1], lines[2] = lines[2], lines[1]
    elif how == "edit-decision":
        lines[3] = lines[3].replace(b'"tool_name": "Read"', b'"tool_name": "Grep"')
    elif how == "truncate-tail":
        del lines[-2:]
    trail.write_bytes(b"".join(lines))


TAMPERING = [
    ("delete-a-deny", "removed", "seq 3 missing"),
    ("swap", "out of order", "seq 2 comes after seq 3"),
    ("edit-decision", "changed", "seq 4 does not follow from seq 3"),
    ("truncate-tail", "removed at the end", "ends at seq 4, but seq 6 was written"),
]


@pytest.mark.parametrize(("how", "problem", "detail"), TAMPERING, ids=[t[0] for t in TAMPERING])
def test_a_trail_changed_after_the_hook_wrote_it_is_told_by_report_and_doctor(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
    problem: str,
    detail: str,
) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    _calls(proj, env, 6)
    trail = _trail(proj)
    assert _doctor(proj, env)[0] == OK
    assert _report(proj, env, capsys, monkeypatch)["trail_chain"]["intact"] is True
    _tamper(trail, how)
    status, message = _doctor(proj, env)
    assert status == FAIL and detail in message, message
    data = _report(proj, env, capsys, monkeypatch)
    assert data["trail_chain"]["problems"] == {problem: data["trail_chain"]["problems"][problem]}
    assert detail in data["trail_chain"]["findings"][0]["detail"]
    intact = next(c for c in data["criteria"] if c["key"] == "trail_intact")
    assert intact["ok"] is False and data["ready"] is False


def test_lines_the_evaluator_wrote_are_chained_and_a_removal_is_told(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
) -> None:
    env = base_env(proj, rt)
    start_and_wait(proj, rt, env)
    before = len(_trail(proj).read_bytes().splitlines())
    _calls(proj, env, 4, daemon_only=True)  # only the evaluator can answer these
    lines = _trail(proj).read_bytes().splitlines(keepends=True)
    assert len(lines) == before + 4
    assert [json.loads(x)["seq"] for x in lines] == list(range(1, len(lines) + 1))
    assert _doctor(proj, env)[0] == OK
    del lines[-3]
    _trail(proj).write_bytes(b"".join(lines))
    status, message = _doctor(proj, env)
    assert status == FAIL and f"seq {len(lines) - 1} missing" in message, message


def test_a_line_spooled_while_an_agent_held_the_lock_is_sealed_when_merged(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    _calls(proj, env, 2)
    folder = _trail(proj).parent
    holder = os.open(folder, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as `flock .claude/boundary sleep 1e9 &` would
    try:
        _calls(proj, env, 1)
        assert len(audit.spooled(str(_trail(proj)))) == 1
        assert _doctor(proj, env)[0] == OK  # waiting in the spool is no gap
    finally:
        os.close(holder)
    _calls(proj, env, 1)
    recs = [json.loads(x) for x in _trail(proj).read_bytes().splitlines()]
    assert [r["seq"] for r in recs] == [1, 2, 3, 4]
    assert [r.get("spooled", False) for r in recs] == [False, False, True, False]
    assert audit.spooled(str(_trail(proj))) == []
    assert _doctor(proj, env)[0] == OK
    assert _report(proj, env, capsys, monkeypatch)["trail_chain"]["intact"] is True


def test_rotation_links_the_files_and_a_removed_rotated_file_is_told(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
) -> None:
    config = proj / ".claude" / "boundary.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text('phase = "warn"\n[audit]\nmax_bytes = 1200\nkeep = 20\n')
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    _calls(proj, env, 8)
    files = audit.trail_files(str(_trail(proj)))
    assert len(files) >= 4
    seqs = [json.loads(x)["seq"] for f in files for x in Path(f).read_bytes().splitlines()]
    assert seqs == list(range(1, 9))
    assert _doctor(proj, env)[0] == OK
    os.remove(files[1])  # not the oldest: the files after the gap are no longer listed
    status, message = _doctor(proj, env)
    assert status == FAIL and "not in the trail and were not rotated away" in message, message


def test_doctor_runs_the_trail_check() -> None:
    assert check_trail in CHECKS


def test_a_removed_head_record_is_warned_and_the_restart_it_causes_is_told(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    _calls(proj, env, 3)
    Path(audit.head_path(str(_trail(proj)))).unlink()
    trail = _trail(proj)
    trail.write_bytes(b"".join(trail.read_bytes().splitlines(keepends=True)[:-1]))  # cut too
    status, message = _doctor(proj, env)
    assert status == WARN and "no head record" in message, message
    _calls(proj, env, 1)  # the next line starts a new chain: that is told
    status, message = _doctor(proj, env)
    assert status == FAIL and "a new chain starts after seq 2" in message, message


@pytest.mark.parametrize("how", ["emptied", "deleted", "dev-null"])
def test_a_trail_emptied_deleted_or_sent_to_dev_null_is_told_by_doctor(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    how: str,
) -> None:
    """The head record keeps the last line written; a trail that holds none of them (emptied,
    deleted, or replaced by a link to /dev/null so that later lines vanish) said "OK"."""
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    _calls(proj, env, 3)
    trail = _trail(proj)
    if how == "emptied":
        trail.write_bytes(b"")
    else:
        trail.unlink()
        if how == "dev-null":
            trail.symlink_to("/dev/null")
            _calls(proj, env, 2)  # written into nothing
    status, message = _doctor(proj, env)
    told = ("no chained line", "head record says", "not a regular file")
    assert status == FAIL and any(t in message for t in told), message
