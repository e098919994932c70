"""Issue 6.4/6.5: 16 concurrent hook processes x 500 calls against one project.

Each worker is a separate interpreter (a small driver run with ``python -c``) that calls the
hook shell (``shell.evaluate``, what both entry points run) 500 times with varied payloads:
allowed and denied, main and subagent, PreToolUse and PostToolUse. Checked: every answer is
the expected one; the audit trail holds exactly 8,000 well-formed JSON lines, one per
tool_use_id, none interleaved or lost, also when a small ``[audit] max_bytes`` makes it rotate
many times; and no call comes near the registered timeout (10 s). Latency percentiles are
printed for docs/security.md, not asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from orchestrator_boundary import audit

pytestmark = pytest.mark.slow

WORKERS, CALLS = 16, 500
REGISTERED_TIMEOUT_S = 10.0
SRC = str(Path(__file__).resolve().parents[1] / "src")

DRIVER = textwrap.dedent(
    r"""
    import json, sys, time
    from orchestrator_boundary import shell

    root, worker, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    env = {"CLAUDE_PROJECT_DIR": root, "HOME": root + "/../home", "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    # (agent, tool, tool_input, expected PreToolUse answer, expected PostToolUse answer)
    KINDS = [
        # each session's main agent writes files of its own: the unseen-write records are the
        # project's (ADR 0085), so a main agent writing what another session's main agent
        # wrote and it never read is told (STALE_FILE), as two subagents are
        (None, "Write", {"file_path": root + "/docs/a%d.md" % (worker % 3), "content": "x"}, "none", "none"),
        (None, "Write", {"file_path": root + "/src/a.py", "content": "x"}, "deny", "block"),
        # each worker's subagent edits a file of its own: two subagents editing one file they
        # never read after the other's write are told (STALE_FILE, ADR 0050)
        ("coder", "Edit", {"file_path": root + "/src/a%02d.py" % worker, "old_string": "a", "new_string": "b"}, "none", "none"),
        ("coder", "Write", {"file_path": root + "/src/secrets/k", "content": "x"}, "deny", "block"),
        ("coder", "Write", {"file_path": root + "/.claude/settings.json", "content": "x"}, "deny", "block"),
        (None, "Read", {"file_path": root + "/src/a.py"}, "none", "none"),
        (None, "Grep", {"pattern": "x" * (worker * 37 % 400)}, "none", "none"),
        ("general-purpose", "Write", {"file_path": "/etc/passwd", "content": "x"}, "deny", "block"),
        (None, "Edit", {"file_path": root + "/docs/state%d.md" % (worker % 3), "old_string": "a", "new_string": "b"}, "none", "none"),
    ]
    mismatches, latencies = [], []
    for i in range(calls):
        agent, tool, tool_input, want_pre, want_post = KINDS[(i + worker) % len(KINDS)]
        event = "PostToolUse" if (i // len(KINDS)) % 2 else "PreToolUse"
        data = {"session_id": "load-%d" % (worker % 3), "transcript_path": "/t", "cwd": root,
                "hook_event_name": event, "tool_name": tool, "tool_input": tool_input,
                "tool_use_id": "toolu_w%02d_%04d" % (worker, i)}
        if agent:
            data["agent_id"] = "a%02d" % worker
            data["agent_type"] = agent
        if event == "PostToolUse":
            data["tool_response"] = {"success": True}
        raw = json.dumps(data).encode()
        t0 = time.perf_counter()
        answer = shell.evaluate(raw, env, event=event)
        latencies.append(time.perf_counter() - t0)
        out = json.loads(answer.stdout) if answer.stdout else {}
        if event == "PreToolUse":
            got = out.get("hookSpecificOutput", {}).get("permissionDecision", "none")
            want = want_pre
        else:
            got = out.get("decision", "none")
            want = want_post
        if got != want or answer.exit_code != 0 or answer.stderr:
            mismatches.append([data["tool_use_id"], want, got, answer.exit_code, answer.stderr[:300]])
    print(json.dumps({"worker": worker, "mismatches": mismatches, "latencies": latencies}))
    """
)


def _project(tmp_path: Path, max_bytes: int, keep: int) -> Path:
    root = tmp_path / "proj"
    for d in (root / ".claude", root / "src" / "secrets", root / "docs", tmp_path / "home"):
        d.mkdir(parents=True, exist_ok=True)
    (root / "src" / "a.py").write_text("a = 1\n")
    (root / ".claude" / "boundary.toml").write_text(
        '[orchestrator]\nwrite_allow = ["STATE.md", "docs/**"]\n'
        '[agents.coder]\nwrite_scope = ["src/**", "!src/secrets/**"]\n'
        f"[audit]\nmax_bytes = {max_bytes}\nkeep = {keep}\n"
    )
    return root.resolve()


def _run_workers(root: Path) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": SRC}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(root), str(w), str(CALLS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for w in range(WORKERS)
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out))
    return results


def _trail_lines(audit_file: Path) -> list[str]:
    lines: list[str] = []
    for f in audit.trail_files(str(audit_file)):
        data = Path(f).read_bytes()
        assert data.endswith(b"\n"), f"{f} ends in a partial line"
        lines.extend(data.decode("utf-8").splitlines())
    return lines


@pytest.mark.parametrize(
    ("max_bytes", "keep"), [(0, 20), (48 * 1024, 1000)], ids=["no-rotation", "rotating"]
)
def test_sixteen_concurrent_hook_processes(tmp_path: Path, max_bytes: int, keep: int) -> None:
    root = _project(tmp_path, max_bytes, keep)
    started = time.perf_counter()
    results = _run_workers(root)
    wall = time.perf_counter() - started

    mismatches = [m for r in results for m in r["mismatches"]]
    assert mismatches == [], mismatches[:10]

    audit_file = root / ".claude" / "boundary" / "audit.jsonl"
    files = audit.trail_files(str(audit_file))
    if max_bytes:
        assert len(files) > 10, "the trail should have rotated many times"
        for f in files:  # every file respects the cap (a line never lands in a full file)
            assert Path(f).stat().st_size <= max_bytes
    else:
        assert files == [str(audit_file)]
    lines = _trail_lines(audit_file)
    assert len(lines) == WORKERS * CALLS
    records = [json.loads(line) for line in lines]  # each line is one well-formed object
    ids = [r["tool_use_id"] for r in records]
    expected = {f"toolu_w{w:02d}_{i:04d}" for w in range(WORKERS) for i in range(CALLS)}
    assert len(set(ids)) == len(ids) and set(ids) == expected
    assert all(r["error"] is None and r["phase"] == "enforce" for r in records)

    latencies = sorted(x for r in results for x in r["latencies"])
    assert len(latencies) == WORKERS * CALLS
    assert latencies[-1] < REGISTERED_TIMEOUT_S  # a sanity ceiling, not a performance bound

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    print(
        f"\n[load {max_bytes=}] {WORKERS}x{CALLS} calls in {wall:.1f}s wall, "
        f"{len(files)} trail file(s); latency ms p50={pct(0.5):.2f} p95={pct(0.95):.2f} "
        f"p99={pct(0.99):.2f} max={latencies[-1] * 1000:.1f}"
    )


AUDIT_DRIVER = textwrap.dedent(
    r"""
    import sys
    from orchestrator_boundary import audit
    path, worker, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for i in range(n):
        audit.write(path, {"event": "x", "tool_use_id": "w%02d_%04d" % (worker, i), "pad": "y" * 200},
                    max_bytes=700, keep=5000)
    """
)


def test_rotation_under_heavy_churn_loses_no_line(tmp_path: Path) -> None:
    """Regression: with the lock on the file itself, a writer waiting while the file was
    rotated had to reopen and queue again; with a tiny max_bytes (two lines per file) it kept
    losing that race and gave up after 16 tries, and its line was missing from the trail."""
    path = tmp_path / "trail" / "audit.jsonl"
    env = {**os.environ, "PYTHONPATH": SRC}
    workers, n = 8, 60
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", AUDIT_DRIVER, str(path), str(w), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for w in range(workers)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()[-2000:]
    lines = _trail_lines(path)
    ids = [json.loads(line)["tool_use_id"] for line in lines]
    assert sorted(ids) == sorted(f"w{w:02d}_{i:04d}" for w in range(workers) for i in range(n))
    assert len(audit.trail_files(str(path))) > 100


def test_a_held_lock_cannot_hang_the_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: an agent-started process holds the trail's lock forever; a blocking flock made
    every later hook hang until Claude Code's timeout, and a timed-out hook fails open. The
    wait is bounded: the verdict still comes, the line goes to a spool. The holder never lets
    go, so an unbounded wait would hang here; the ceiling is half the registered timeout, as
    on a machine at a load of 25 the bounded wait and the hook's own work took over 3 s."""
    import fcntl

    from orchestrator_boundary import shell

    root = _project(tmp_path, 0, 20)
    folder = root / ".claude" / "boundary"
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(audit, "LOCK_WAIT_S", 0.3)
    holder = os.open(folder, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        data = {
            "hook_event_name": "PreToolUse",
            "cwd": str(root),
            "tool_name": "Write",
            "tool_input": {"file_path": str(root / ".claude/settings.json"), "content": ""},
            "tool_use_id": "toolu_locked",
        }
        env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path / "home")}
        started = time.perf_counter()
        answer = shell.evaluate(json.dumps(data).encode(), env)
        elapsed = time.perf_counter() - started
    finally:
        os.close(holder)
    assert elapsed < REGISTERED_TIMEOUT_S / 2
    assert json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # the line is not lost: it waits in a spool beside the trail for the next writer (ADR 0028)
    files = audit.trail_files(str(folder / "audit.jsonl"))
    assert files and all("spool" in f for f in files)
    assert "toolu_locked" in Path(files[0]).read_text()
    assert answer.stderr == ""
