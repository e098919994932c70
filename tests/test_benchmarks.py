"""The documented benchmark commands still run and measure what they say (no timings asserted:
numbers belong to docs/benchmarks.md, not to a pass/fail check)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARGS = ["--rounds", "1", "--no-replay", "--windows", "1"]  # the shortest run that shows each row


def _rows(output: str) -> dict[str, list[str]]:
    rows = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) > 1 and not set(cells[0]) <= {"-"}:
            rows[cells[0]] = cells[1:]
    return rows


def _benchmark(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    # the benchmark makes its own project, HOME and runtime folder, and stops its evaluator
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ORCHESTRATOR_BOUNDARY", "AMPLIFIER", "CLAUDE"))
    }
    done = subprocess.run(
        [sys.executable, f"benchmarks/{script}", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _hook_latency(*args: str) -> subprocess.CompletedProcess[str]:
    return _benchmark("hook_latency.py", *args)


def _assert_bursts(rows: dict[str, list[str]]) -> None:
    for name in (
        "16 at once, main Read / in-process",
        "16 at once, main Read / in-process, no compiled config",
    ):
        p50, top, cpu, timeout, share = rows[name]
        assert int(p50) <= int(top) and int(cpu) > 0, rows[name]
        assert timeout == "10" and share.endswith("%"), rows[name]


def test_hook_latency_lean_rows_run_the_registered_command_in_process() -> None:
    # the in-process Read as a ratio to a bare interpreter, and 16 hooks started at once
    done = _hook_latency("--lean", "--rounds", "1", "--burst-rounds", "1")
    rows = _rows(done.stdout)
    lean = {
        "main Read / in-process": "none",
        "main Write / in-process": "deny",
        "main Read / in-process, no compiled config": "none",
    }
    for name, verdict in lean.items():
        assert re.fullmatch(r"\d+\.\d\dx", rows[name][2]), rows[name]  # to the bare start
        assert re.fullmatch(r"\d+\.\d\dx", rows[name][4]), rows[name]  # in CPU time
        assert rows[name][-1] == verdict
    assert "sub Write / in-process" not in rows
    _assert_bursts(rows)


def test_hook_latency_windows_sim_rows() -> None:
    # the in-process Read under the Windows simulation, with the compiled config and without
    done = _hook_latency("--windows-sim", "--rounds", "1", "--burst-rounds", "1")
    rows = _rows(done.stdout)
    for name in (
        "sim: empty script",
        "sim: main Read / in-process",
        "sim: main Read / in-process, no LOCALAPPDATA",
    ):
        assert re.fullmatch(r"\d+\.\d\dx", rows[name][1]), rows[name]
        assert rows[name][-1] == "none", rows[name]
    for name in (
        "16 at once, main Read / in-process",
        "16 at once, main Read / in-process, no LOCALAPPDATA",
    ):
        p50, top, share = rows[name]
        assert int(p50) <= int(top) and share.endswith("%"), rows[name]
    assert "main Write / in-process" not in rows


def test_hook_latency_runs_and_each_case_gets_its_verdict() -> None:
    done = _hook_latency(*ARGS, "--burst-rounds", "1")
    rows = _rows(done.stdout)
    verdicts = {name: cells[-1] for name, cells in rows.items() if len(cells) == 7}
    for route in ("warm", "in-process"):
        assert verdicts[f"main Read / {route}"] == "none"
        assert verdicts[f"main Write / {route}"] == "deny"
        assert verdicts[f"sub Write / {route}"] == "none"
        assert verdicts[f"main Bash > / {route}"] == "deny"
        assert verdicts[f"Post Write / {route}"] == "none"
    assert verdicts["main Write / cold (starts evaluator)"] == "deny"
    assert verdicts["main Read / warm, project shim"] == "none"
    assert verdicts["main Read / in-process, no compiled config"] == "none"
    _assert_bursts(rows)
    for case in ("main Read", "main Write", "sub Write", "main Bash >", "Post Write"):
        assert re.fullmatch(r"[\d,]+", rows[case][1]), rows[case]  # decide / s, a number
    assert "resident evaluator peak memory" in done.stdout


def _instructions_child(case: str, calls: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "benchmarks/decision_instructions.py",
            "--child",
            case,
            "--calls",
            str(calls),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_decision_instructions_child_judges_every_case() -> None:
    # the part callgrind runs (valgrind itself is not needed for this)
    for case in ("main Write", "main Bash > (first analysis)", "Post Write"):
        done = _instructions_child(case, 3)
        assert done.returncode == 0, done.stderr[-2000:]
    done = _instructions_child("no such case", 1)
    assert done.returncode == 2 and "main Write" in done.stderr


def test_hook_instructions_counts_the_in_process_read_and_write() -> None:
    # one registered in-process call each, under callgrind where valgrind is installed
    done = _benchmark("hook_instructions.py")
    if "valgrind not found" in done.stdout:
        return  # nothing to count on this machine; the script said so
    rows = _rows(done.stdout)
    assert rows["python -I -c pass"][1:] == ["1.00x", "none"]
    for name, verdict in (("main Read", "none"), ("main Write", "deny")):
        count, ratio, got = rows[f"{name} / in-process"]
        assert float(count) > float(rows["python -I -c pass"][0]) and ratio.endswith("x")
        assert got == verdict, rows
