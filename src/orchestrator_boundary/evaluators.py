"""The resident evaluators this user runs (ADR 0009), found from the process table. For
``doctor``: how many, for which projects, and how much memory they hold.

An evaluator is a process started as ``<python> -I -S <package>/daemon.py SOCKET ROOT``. On
Linux the table is read from ``/proc`` (``proc`` names another folder of the same shape, for
tests); elsewhere ``ps`` is asked.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter

from orchestrator_boundary.values import frozen


@frozen
class Evaluator:
    pid: int
    root: str
    socket: str
    rss_kib: int | None


def from_argv(pid: int, argv: list[str], rss_kib: int | None) -> Evaluator | None:
    if (
        len(argv) == 6
        and argv[1:3] == ["-I", "-S"]
        and os.path.basename(argv[3]) == "daemon.py"
        and "orchestrator_boundary" in argv[3]
    ):
        return Evaluator(pid, argv[5], argv[4], rss_kib)
    return None


def _rss_kib(status: str) -> int | None:
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    return None


def running(proc: str = "/proc", uid: int | None = None) -> list[Evaluator]:
    """This user's evaluators, by pid."""
    uid = os.getuid() if uid is None else uid
    if not os.path.isdir(proc):
        return _from_ps()
    out = []
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        folder = os.path.join(proc, name)
        try:
            if os.stat(folder).st_uid != uid:
                continue
            with open(os.path.join(folder, "cmdline"), "rb") as fh:
                argv = [a.decode(errors="replace") for a in fh.read().split(b"\0")[:-1]]
            with open(os.path.join(folder, "status"), encoding="utf-8", errors="replace") as fh:
                rss = _rss_kib(fh.read())
        except OSError:
            continue  # gone meanwhile, or not ours to read
        found = from_argv(int(name), argv, rss)
        if found is not None:
            out.append(found)
    return sorted(out, key=lambda e: e.pid)


def _from_ps() -> list[Evaluator]:
    try:
        done = subprocess.run(
            ["ps", "-x", "-o", "pid=,rss=,command="],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    out = []
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[0].isdigit() and parts[1].isdigit():
            found = from_argv(int(parts[0]), parts[2:], int(parts[1]))
            if found is not None:
                out.append(found)
    return out


def summary(found: list[Evaluator]) -> tuple[str, list[str]]:
    """(one line: how many and their memory, the projects with more than one evaluator)."""
    if not found:
        return "no evaluator running", []
    known = [e.rss_kib for e in found if e.rss_kib is not None]
    memory = f", {sum(known) / 1024:.0f} MiB resident" if known else ""
    per_root = Counter(e.root for e in found)
    roots = ", ".join(
        f"{root} (pid {', '.join(str(e.pid) for e in found if e.root == root)})"
        for root in sorted(per_root)
    )
    noun = "evaluator" if len(found) == 1 else "evaluators"
    twice = sorted(r for r, n in per_root.items() if n > 1)
    return f"{len(found)} {noun} running{memory}: {roots}", twice
