"""The state store's benchmark (ADR 0027) still runs with parallel workers and prints its row
(no timings asserted: numbers belong to docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_state_store_benchmark_runs_with_parallel_workers() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/state_store.py", "--workers", "4", "--rounds", "5"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    row = done.stdout.strip().splitlines()[-1].strip("|").split("|")
    assert [c.strip() for c in row[:3]] == ["4", "25", "40"]
    assert row[-1].strip() == "0"  # no call gave up
