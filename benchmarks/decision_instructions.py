"""Instructions per decision, counted by valgrind's callgrind (not a test; docs/benchmarks.md).

    python benchmarks/decision_instructions.py [--calls 1000] [CASE ...]

Wall-clock and even CPU-time throughput drift with a shared machine's load (up to ~1.7x on the
benchmark VM); the number of instructions a decision executes does not. For each case of
``hook_latency.py`` this runs a child interpreter under ``valgrind --tool=callgrind`` twice, once
judging the case ``--calls`` times after a warm-up and once with the warm-up only, and reports
the difference divided by the calls: the instructions one ``decide`` (setup + judge of a parsed
payload) costs, interpreter included. Same code, same interpreter -> the same count within
about 1% (``PYTHONHASHSEED`` is fixed; the temporary folder's name still varies). It compares
two versions of the code exactly; it does not say how fast a machine runs them.

Needs valgrind (Debian: ``apt-get install valgrind``); without it, says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WARM_UP = 200


def child(case: str, calls: int) -> int:
    """Judge ``case`` WARM_UP + ``calls`` times in this process (what callgrind counts)."""
    sys.path.insert(0, str(HERE))
    import hook_latency

    from orchestrator_boundary import setups

    # Under callgrind a decision runs ~50x slower, so the file-system facts a long-lived
    # process reuses for FS_TTL (1 s) would be gathered again every ~400 calls instead of every
    # ~20,000: counted per call, that is work the real process does not do.
    setups.CACHE.ttl = 3600.0
    tmp = Path(tempfile.mkdtemp(prefix="obinstr-"))
    try:
        project = hook_latency.make_project(tmp)
        # A config file written a moment ago is hashed on every call until its ctime is
        # RACY_NS old (ADR 0036); a team's config is older than that: wait it out.
        time.sleep(setups.RACY_NS / 1e9 + 0.1)
        fns = hook_latency.decisions(*project)
        if case not in fns:
            print(f"unknown case {case!r}; one of: {', '.join(fns)}", file=sys.stderr)
            return 2
        fn = fns[case]
        for _ in range(WARM_UP + calls):
            fn()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def collected(valgrind: str, case: str, calls: int) -> int:
    """Instructions callgrind counted for a child run judging ``case`` ``calls`` times."""
    done = subprocess.run(
        [
            valgrind,
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            case,
            "--calls",
            str(calls),
        ],
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind run failed for {case!r}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--child", metavar="CASE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child, args.calls)
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind not found (Debian: apt-get install valgrind): skipped")
        return 0
    sys.path.insert(0, str(HERE))
    from hook_latency import cases

    names = args.cases or [*cases(Path("/p")), "main Bash > (first analysis)"]
    print(f"python {sys.version.split()[0]} ({sys.executable}), {args.calls} calls per case\n")
    print("| case                         | instructions / decision |")
    print("|------------------------------|-------------------------|")
    for name in names:
        per_call = (
            collected(valgrind, name, args.calls) - collected(valgrind, name, 0)
        ) / args.calls
        print(f"| {name:<28} | {per_call:>23,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
