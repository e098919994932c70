"""Instructions of one in-process hook call, counted by valgrind's callgrind (not a test).

    python benchmarks/hook_instructions.py [--compare NAME=SRC ...]

``hook_latency.py --lean`` times the in-process Read and Write against a bare interpreter
start, but on a shared machine the wall and even the CPU times of a ~150 ms process move with
the load by more than a change to the imports saves. The instructions the process executes do
not. This runs the registered command (``registration.entries``, its own argv without
``/bin/sh``) for the orchestrator's Read and its denied Write once under
``valgrind --tool=callgrind``, in process (``ORCHESTRATOR_BOUNDARY_NO_DAEMON=1``) and with the
compiled config in place (one call before, not counted), next to ``python -I -c pass``; with
``--compare NAME=SRC`` also through another checkout's ``src`` (the parent commit's, say).
The count is the whole process: start-up, imports, the decision, the audit line, shutdown. It
compares two versions of the code exactly; how fast a machine runs them is hook_latency's part.

Needs valgrind (Debian: ``apt-get install valgrind``); without it, says so and exits 0.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hook_latency  # noqa: E402 - the benchmark's project, payloads and environment
from hook_latency import PY, cases, make_project, other_checkout, verdict_of  # noqa: E402

from orchestrator_boundary import registration  # noqa: E402


def collected(valgrind: str, argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> int:
    """Instructions callgrind counted for one run of ``argv``."""
    done = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        input=stdin,
        env=env,
        cwd=cwd,
        capture_output=True,
        check=False,
        timeout=600,
    )
    found = re.search(rb"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(done.stderr.decode(errors="replace")[-2000:])
    return int(found.group(1))


def direct(argv: list[str]) -> list[str]:
    """The registered command's own argv (``/bin/sh -c COMMAND`` -> COMMAND's words)."""
    if argv[:2] != ["/bin/sh", "-c"]:
        return argv
    return registration.entry_argv({"command": argv[2]})  # past the guard for a removed package


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="append", default=[], metavar="NAME=SRC")
    args = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind not found: nothing counted (apt-get install valgrind)")
        return 0
    compare = {k: Path(v).resolve() for k, _, v in (c.partition("=") for c in args.compare)}
    tmp = Path(tempfile.mkdtemp(prefix="obhookinstr-"))
    try:
        root, home = make_project(tmp)
        rt = tmp / "rt"
        rt.mkdir(mode=0o700)
        env = {**hook_latency.base_env(root, rt, home), "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1"}
        bare_argv = [PY, "-I", "-c", "pass"]
        runs: dict[str, tuple[list[str], bytes]] = {"python -I -c pass": (bare_argv, b"")}
        for name in ("main Read", "main Write"):
            event, raw = cases(root)[name]
            argv = direct(hook_latency.registered("local", event))
            runs[f"{name} / in-process"] = (argv, raw)
            for label, src in compare.items():
                runs[f"{name} / in-process, {label}"] = (other_checkout(argv, src), raw)
        verdicts = {}
        for name, (argv, raw) in runs.items():  # leaves the compiled config and the bytecode
            done = subprocess.run(argv, input=raw, env=env, cwd=root, capture_output=True)
            verdicts[name] = verdict_of(done.returncode, done.stdout)
        bare = collected(valgrind, *runs["python -I -c pass"], env, root)
        print("| command | instructions (M) | ratio | verdict |")
        print("|---|---|---|---|")
        for name, (argv, raw) in runs.items():
            n = bare if name == "python -I -c pass" else collected(valgrind, argv, raw, env, root)
            print(f"| {name} | {n / 1e6:.1f} | {n / bare:.2f}x | {verdicts[name]} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
