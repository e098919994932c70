"""The state store's cost under parallel hooks (ADR 0027, docs/benchmarks.md).

    python benchmarks/state_store.py [--workers 16] [--rounds 200]

Each worker is a process that plays, ``--rounds`` times, what the hooks of one subagent write
ask of the store: at PreToolUse the delegation record (link + launch, meta.json read), what
the agent saw of the file, its lease; at PostToolUse the content hash, running mark, lease
and deliverable count. A new ``Store`` (a new connection) per hook call, as the shell makes
it. All workers start together on one file. Prints p50/p95/p99/max per hook call and how
many calls gave up (the busy timeout: a deliberate "state unavailable"). Not a test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from orchestrator_boundary.contracts import Launch  # noqa: E402
from orchestrator_boundary.delegation import (  # noqa: E402
    EffectiveScope,
    ScopeSet,
    Unavailable,
    UnknownDelegation,
)
from orchestrator_boundary.fs import sha256_of  # noqa: E402
from orchestrator_boundary.ledger import read_meta  # noqa: E402
from orchestrator_boundary.state import Store  # noqa: E402

LAUNCH = Launch("coder", "fix", EffectiveScope((ScopeSet("i", ("src/**",)),)), 1, None)


def _worker(args: tuple[str, str, int, int, float, float]) -> tuple[list[float], int]:
    db, folder, n, rounds, start, think = args
    agent, session = f"a{n}", "bench"
    transcript = f"{folder}/sess.jsonl"
    target = f"{folder}/f{n % 4}.txt"  # four files shared by the workers
    Store(db).link(session, agent, f"toolu_{n}", f"work {n}")
    while time.time() < start:
        time.sleep(0.001)
    times, gave_up = [], 0
    for r in range(rounds):
        t0 = time.perf_counter()
        pre = Store(db)
        meta = read_meta(transcript, agent)
        record = pre.delegation(session, agent, "coder", meta)
        seen = pre.seen(session, agent, target)
        lease = pre.lease(session, target)
        pre.close()
        t1 = time.perf_counter()
        post = Store(db)
        sha = sha256_of(target)
        with post.batch() as result:  # as ledger.after does: one transaction
            post.saw(session, agent, target, sha, wrote=True)
            post.note_running(session, agent, f"work {n}")
            post.take_lease(session, target, agent, f"work {n}")
            post.count(session, agent, ["Write", "write"])
        ok = result[0]
        post.close()
        t2 = time.perf_counter()
        times += [t1 - t0, t2 - t1]
        unknown = isinstance(record, UnknownDelegation) and "unavailable" in record.reason
        gave_up += unknown + isinstance(seen, Unavailable) + isinstance(lease, Unavailable)
        gave_up += not ok
        if r % 50 == 0:
            Path(target).write_text(f"{n} {r}\n")
        time.sleep(think)
    return times, gave_up


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=25.0,
        help="pause between a worker's hook calls "
        "(a hook process's own start-up, ~25 ms warm; 0: a tight loop)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/audit.jsonl.state.sqlite3"
        sub = Path(tmp, "sess", "subagents")
        sub.mkdir(parents=True)
        for n in range(args.workers):
            meta = {"agentType": "coder", "toolUseId": f"toolu_{n}", "spawnDepth": 1}
            (sub / f"agent-a{n}.meta.json").write_text(json.dumps(meta))
            Store(db).record_launch("bench", f"toolu_{n}", LAUNCH, f"work {n}")
        for f in range(4):
            Path(tmp, f"f{f}.txt").write_text("x\n")
        start = time.time() + 1.0
        jobs = [(db, tmp, n, args.rounds, start, args.think_ms / 1000) for n in range(args.workers)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(_worker, jobs)
    times = sorted(t * 1000 for ts, _ in results for t in ts)
    gave_up = sum(g for _, g in results)
    q = statistics.quantiles(times, n=100)
    print("| workers | think ms | hook calls | p50 ms | p95 ms | p99 ms | max ms | gave up |")
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.workers} | {args.think_ms:g} | {len(times):,} | {q[49]:.2f} | {q[94]:.2f} "
        f"| {q[98]:.2f} | {times[-1]:.1f} | {gave_up} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
