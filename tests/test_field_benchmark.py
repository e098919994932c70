"""The field check's benchmark runs and measures each case (no timings asserted: the numbers
belong to the report, not to a pass/fail check)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARGS = ["--files", "200", "--rounds", "2", "--processes", "1"]  # the shortest run with each row


def test_the_benchmark_prints_every_case_with_its_ratio() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ORCHESTRATOR_BOUNDARY", "AMPLIFIER", "CLAUDE"))
    }
    done = subprocess.run(
        [sys.executable, "benchmarks/field_check.py", *ARGS],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {
        cells[0]: cells[1:]
        for line in done.stdout.splitlines()
        if line.startswith("| ") and not line.startswith("| route")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    for route in ("evaluator", "process"):
        assert rows[f"{route} / warn, check off"][-1] == "1.00"
        for case in ("warn, check on", "enforce (check never runs)"):
            assert float(rows[f"{route} / {case}"][-1]) > 0
    assert "snapshot size: " in done.stdout and "snapshot size: 0 " not in done.stdout
