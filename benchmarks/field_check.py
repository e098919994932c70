"""What the field check costs (ADR 0029): PreToolUse + PostToolUse of one read_only Bash call
in a project of ``--files`` files, with the check on (warn, ``field_check = "auto"``, no git:
the snapshots) and off (``field_check = "off"``), and in enforce (where it never runs).

    python benchmarks/field_check.py [--files 2000] [--rounds 50] [--processes 10]

Two routes: ``evaluator`` runs the hook's work in this process (what the resident evaluator
does per call: the check's share is largest there); ``process`` starts the real hook scripts
(``ORCHESTRATOR_BOUNDARY_NO_DAEMON=1``), as a call without an evaluator pays. Prints the median
of a Pre+Post pair per case and its ratio to the same hook with the check off. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from orchestrator_boundary.shell import evaluate  # noqa: E402

CASES = {
    "warn, check on": ('phase = "warn"\n', True),
    "warn, check off": ('phase = "warn"\n[bash]\nfield_check = "off"\n', False),
    "enforce (check never runs)": ('phase = "enforce"\n', False),
}


def make_tree(root: Path, files: int) -> None:
    """``files`` files, 25 a folder, two levels deep, like a small source tree."""
    for n in range(files):
        folder = root / "src" / f"pkg{n // 250}" / f"mod{(n // 25) % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{n}.py").write_text("x = 1\n")
    (root / "a.txt").write_text("a\n")


def payloads(root: Path, call: str) -> tuple[bytes, bytes]:
    base = {
        "session_id": "bench",
        "transcript_path": "",
        "cwd": str(root),
        "permission_mode": "acceptEdits",
        "tool_name": "Bash",
        "tool_input": {"command": "cat a.txt"},
        "tool_use_id": call,
    }
    pre = {**base, "hook_event_name": "PreToolUse"}
    post = {**base, "hook_event_name": "PostToolUse", "tool_response": {"stdout": "a"}}
    return json.dumps(pre).encode(), json.dumps(post).encode()


def in_process(root: Path, env: dict[str, str], rounds: int) -> list[float]:
    times = []
    for n in range(rounds):
        pre, post = payloads(root, f"toolu_{n}")
        t0 = time.perf_counter()
        evaluate(pre, env)
        evaluate(post, env, event="PostToolUse")
        times.append(time.perf_counter() - t0)
    return times


def by_process(root: Path, env: dict[str, str], rounds: int) -> list[float]:
    times = []
    full = {**env, "PATH": os.environ.get("PATH", ""), "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1"}
    hooks = REPO / "hooks"
    for n in range(rounds):
        pre, post = payloads(root, f"toolu_p{n}")
        t0 = time.perf_counter()
        for event, data in (("PreToolUse", pre), ("PostToolUse", post)):
            subprocess.run(
                [sys.executable, str(hooks / "hook.py"), event], input=data, env=full,
                check=True, capture_output=True, timeout=60,
            )  # fmt: skip
        times.append(time.perf_counter() - t0)
    return times


def measure(
    root: Path, home: Path, rounds: int, route: Callable[[Path, dict[str, str], int], list[float]]
) -> dict[str, tuple[float, float]]:
    """(median, fastest) seconds of a Pre+Post pair per case."""
    out = {}
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(home)}
    for name, (toml, _) in CASES.items():
        (root / ".claude" / "boundary.toml").write_text(toml)
        route(root, env, 2)  # warm: imports, the config, the state file
        times = route(root, env, rounds)
        out[name] = (statistics.median(times), min(times))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--processes", type=int, default=10, help="rounds of the process route")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ob-field-") as tmp:
        root, home = Path(tmp) / "project", Path(tmp) / "home"
        (root / ".claude").mkdir(parents=True)
        home.mkdir()
        make_tree(root, args.files)
        rows = [
            ("evaluator", measure(root, home, args.rounds, in_process)),
            ("process", measure(root, home, args.processes, by_process)),
        ]
        trail = (root / ".claude/boundary/audit.jsonl").read_text().splitlines()
        fields = [json.loads(line).get("field") for line in trail]
        snapshots = [f["snapshot"] for f in fields if f and "snapshot" in f]
    print(f"field check cost: Pre+Post of `cat a.txt`, {args.files} files in the project")
    print(f"(snapshot size: {max(snapshots, default=0)} entries)\n")
    print("| route / case | Pre+Post median ms | fastest ms | median ratio to check off |")
    print("|---|---|---|---|")
    for route, got in rows:
        off = got["warn, check off"][0]
        for name, (median, fastest) in got.items():
            print(
                f"| {route} / {name} | {median * 1000:.2f} | {fastest * 1000:.2f} "
                f"| {median / off:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
