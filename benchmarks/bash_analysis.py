"""Benchmark: per-command Bash analysis time over the corpus commands (not a test).

Every command is analysed afresh (the memo that answers a repeated command is emptied before
each one): this is the cost of the parse and the walk, not of a memo lookup.

Run: PYTHONPATH=src:. python benchmarks/bash_analysis.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from corpus_commands import bash_commands, corpus_dir

from orchestrator_boundary.bash import analyze, clear_memo


def main() -> int:
    corpus = corpus_dir()
    if corpus is None:
        print("corpus absent (../shared/corpus or $ORCHESTRATOR_BOUNDARY_CORPUS): skipping")
        return 0
    commands = list(bash_commands(corpus))
    analyze("true", cwd="/")  # load the grammar outside the measurement
    times: list[float] = []
    for command, cwd in commands:
        clear_memo()
        start = time.perf_counter()
        analyze(command, cwd=cwd, home="/home/user")
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    total = sum(times)
    print(f"commands: {len(times)}")
    print(
        f"median: {statistics.median(times) * 1e3:.3f} ms  p95: {p95 * 1e3:.3f} ms  "
        f"max: {times[-1] * 1e3:.3f} ms  throughput: {len(times) / total:.0f} commands/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
