"""Hook latency as Claude Code sees it, and in-process throughput (ADR 0009, docs/benchmarks.md).

    python benchmarks/hook_latency.py [--rounds 40] [--no-replay] [--peers] [--lean]
                                      [--compare NAME=SRC ...] [--windows-sim]

Runs exactly the commands ``install`` registers (``registration.entries``; a string command is
run as Claude Code runs it, by ``/bin/sh -c``; payload on stdin, a new process per call) for
five cases, with a warm resident evaluator and with the in-process path
(ORCHESTRATOR_BOUNDARY_NO_DAEMON=1); the committed project shim (``launch.sh``) for the Read;
the in-process Read without a compiled config (ADR 0030); and 16 hooks started at once without
an evaluator. All next to ``python -I -c pass`` of the same interpreter, a
stand-in for the smallest guard hook (a script that parses the payload with ``json`` and prints
nothing) and, with ``--peers``, two published guard hooks installed from npm at pinned versions
(with ``node -e 0`` as their floor). All commands are interleaved round-robin so machine noise
hits them equally. Then in-process throughput per CPU-second (decide, evaluate; the Bash case
also with its analysis memo emptied, and every distinct Bash command of the corpus once), replay
over the corpus when present, and peak memory (ru_maxrss) of a client process and of the
evaluator. ``--lean``: only the in-process Read and Write rows and the bursts; ``--compare
NAME=SRC`` adds the in-process Read and Write through another checkout's ``src`` (the parent
commit's, say), interleaved with the rest. ``--windows-sim``: only the in-process Read under the
Windows simulation of tests/windows_sim.py, with the compiled config (ADR 0041) and without, and
16 of them at once. Not a test: numbers, not verdicts.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
sys.path.insert(0, str(SRC))


PY = sys.executable
PRE, POST = "PreToolUse", "PostToolUse"
BURST = 16  # hooks started at once: Claude Code runs every matching hook of parallel calls
CORPUS = (
    Path(
        os.environ.get("ORCHESTRATOR_BOUNDARY_CORPUS")
        or Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    )
    / "payloads"
)


def payload(
    root: Path, tool: str, tool_input: dict[str, Any], event: str = "PreToolUse", **more: Any
) -> bytes:
    data = {
        "session_id": "bench",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(root),
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_bench",
        **more,
    }
    return json.dumps(data).encode()


# A configured project, as a team runs it (the shape of examples/boundary.toml, without its
# /tmp/** allowances: the benchmark project itself lives under /tmp). The phase comes from the
# environment (enforce).
BENCH_CONFIG = """\
[orchestrator]
write_allow = ["STATE.md", "docs/plans/**"]

[agents.explorer]
tools = ["Glob", "Grep", "Read", "Bash"]

[agents.planner]
tools = ["Read", "Glob", "Grep", "coordinate"]

[agents.coder]
tools = ["Write", "Edit", "MultiEdit", "Read", "Glob", "Grep", "coordinate"]
write_scope = ["src/**", "tests/**", "!**/*.lock"]

[agents.reviewer]
tools = ["Read", "Edit", "Bash", "Grep", "Glob", "coordinate"]
write_scope = ["src/**", "tests/**"]
"""


def cases(root: Path) -> dict[str, tuple[str, bytes]]:
    f = str(root / "src" / "app.py")
    return {
        "main Read": (PRE, payload(root, "Read", {"file_path": f})),
        "main Write": (PRE, payload(root, "Write", {"file_path": f, "content": "x = 2\n"})),
        "sub Write": (
            PRE,
            payload(
                root,
                "Write",
                {"file_path": f, "content": "x = 2\n"},
                agent_id="a1b2c3",
                agent_type="coder",
            ),
        ),
        "main Bash >": (PRE, payload(root, "Bash", {"command": "echo hi > out.txt"})),
        "Post Write": (
            POST,
            payload(
                root,
                "Write",
                {"file_path": f, "content": "x = 1\n"},
                event="PostToolUse",
                tool_response={"filePath": f, "success": True},
                agent_id="a1b2c3",
                agent_type="coder",
            ),
        ),
    }


def make_project(tmp: Path) -> tuple[Path, Path]:
    """The benchmark's project (``src/app.py``, ``.claude/boundary.toml``) and HOME under
    ``tmp``: (root, home)."""
    root, home = tmp / "proj", tmp / "home"
    (root / "src").mkdir(parents=True)
    home.mkdir()
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / ".claude").mkdir()
    (root / ".claude" / "boundary.toml").write_text(BENCH_CONFIG)
    return root, home


def decisions(root: Path, home: Path) -> dict[str, Any]:
    """One ``decide`` (setup + judge of a parsed payload) per case, as zero-argument functions,
    with the benchmark's whole environment; plus the Bash case with its analysis memo emptied
    first ("main Bash > (first analysis)")."""
    os.environ.pop("ORCHESTRATOR_BOUNDARY_PHASE", None)
    from orchestrator_boundary import bash, setups, shell
    from orchestrator_boundary.payload import parse_payload

    env = decide_env(root, home)
    out: dict[str, Any] = {}
    for name, (_event, raw) in cases(root).items():
        p = parse_payload(raw)

        def one(p: Any = p) -> None:
            shell.judge(p, setups.setup(p.cwd, env))

        out[name] = one
        if name == "main Bash >":

            def first(one: Any = one) -> None:
                bash.clear_memo()
                one()

            out[f"{name} (first analysis)"] = first
    return out


def run_once(
    argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path
) -> tuple[float, int, int, bytes, float]:
    """Seconds from spawn to exit (stdout read), exit code, ru_maxrss (KiB), stdout, and CPU
    seconds (user + system, the process and the children it waited for: ``/bin/sh`` and
    its hook)."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as err:
        inp.write(stdin)
        inp.seek(0)
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=inp, stdout=subprocess.PIPE, stderr=err, env=env, cwd=cwd)
        out = p.stdout.read() if p.stdout else b""
        _, status, ru = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.stdout:
            p.stdout.close()
    return elapsed, p.returncode, ru.ru_maxrss, out, ru.ru_utime + ru.ru_stime


def verdict_of(code: int, out: bytes) -> str:
    if code == 2:
        return "exit 2"
    if not out:
        return "none"
    try:
        data = json.loads(out)
    except ValueError:
        return "garbage!"
    hso = data.get("hookSpecificOutput", {})
    return hso.get("permissionDecision") or data.get("decision") or "context"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def daemon_pid(rt: Path) -> int | None:
    for lock in rt.glob("*.lock"):
        try:
            pid = int(lock.read_text().strip())
        except (OSError, ValueError):
            continue
        if Path(f"/proc/{pid}").exists():
            return pid
    return None


def vm_hwm_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# Published guard hooks from the npm registry, run exactly as their docs register them.
PEERS = {"cc-safety-net": "2.4.5", "@coo-quack/sensitive-canary": "0.8.1"}


def install_peers(folder: Path) -> Path | None:
    """The pinned peers installed under ``folder`` with npm (None when npm is missing or fails)."""
    npm = shutil.which("npm")
    if npm is None:
        print("peers: npm not found (skipped)")
        return None
    specs = [f"{name}@{version}" for name, version in PEERS.items()]
    done = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(folder), *specs],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(f"peers: npm install failed (skipped): {done.stderr.strip()[:300]}")
        return None
    return folder / "node_modules"


def peer_commands(
    modules: Path, root: Path, env: dict[str, str]
) -> dict[str, tuple[list[str], bytes, dict[str, str]]]:
    node = shutil.which("node") or "node"
    c = cases(root)
    ccsn = modules / "cc-safety-net" / "dist" / "bin" / "cc-safety-net.js"
    canary = modules / "@coo-quack" / "sensitive-canary" / "dist" / "pre-tool-use-hook.js"
    return {
        "node -e 0": ([node, "-e", "0"], b"", env),
        f"peer: cc-safety-net {PEERS['cc-safety-net']}, Bash >": (
            [node, str(ccsn), "hook", "--coding-cli"],
            c["main Bash >"][1],
            env,
        ),
        f"peer: sensitive-canary {PEERS['@coo-quack/sensitive-canary']}, Read": (
            [node, str(canary)],
            c["main Read"][1],
            env,
        ),
    }


def registered(scope: str, event: str) -> list[str]:
    """The argv Claude Code runs for the entry ``install`` writes for ``scope`` (phase
    enforce): a string command through ``/bin/sh -c``, the exec form as it is."""
    from orchestrator_boundary import registration

    entry = registration.entries(scope, "enforce", python=PY)[event]
    if "args" in entry:
        return [entry["command"], *entry["args"]]
    return ["/bin/sh", "-c", entry["command"]]


def registered_timeout() -> float:
    from orchestrator_boundary import registration

    return float(registration.entries("local", "enforce", python=PY)[PRE].get("timeout", 600))


def install_shim(root: Path, home: Path) -> None:
    """What ``install --scope project`` leaves: the committed shim, and this machine's pointer
    to its installation (``registration``)."""
    from orchestrator_boundary import registration

    shim = root / registration.SHIM_RELPATH
    shim.parent.mkdir(parents=True, exist_ok=True)
    shim.write_text(registration.shim_text())
    pointer = Path(registration.pointer_path({"HOME": str(home)}))
    pointer.parent.mkdir(parents=True, exist_ok=True)
    pointer.write_text(registration.pointer_text(PY))


def base_env(root: Path, rt: Path, home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(rt),
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "ORCHESTRATOR_BOUNDARY_DAEMON_IDLE": "600",
    }


def no_compiled_env(base: dict[str, str], root: Path) -> dict[str, str]:
    """In-process, with a runtime folder others may enter: no compiled config is kept or
    read there (ADR 0030), so every call validates the config (as on Windows)."""
    open_rt = root.parent / "open-rt"
    open_rt.mkdir(exist_ok=True)
    open_rt.chmod(0o755)
    return {
        **base,
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(open_rt),
    }


LEAN_ROWS = (
    "python -I -c pass",
    "main Read / in-process",
    "main Write / in-process",
    "main Read / in-process, no compiled config",
)


def other_checkout(argv: list[str], src: Path) -> list[str]:
    """``argv`` (a registered command) with another checkout's ``src`` folder in place of
    this one's: its launcher, and so its package, judge the call."""
    here, there = str(SRC / "orchestrator_boundary"), str(src / "orchestrator_boundary")
    return [a.replace(here, there) for a in argv]


def latency(
    rounds: int,
    root: Path,
    rt: Path,
    home: Path,
    peers: Path | None = None,
    lean: bool = False,
    compare: dict[str, Path] | None = None,
) -> tuple[list[list[str]], dict[str, Any]]:
    base = base_env(root, rt, home)
    warm_env = dict(base)
    cold_env = {**base, "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1"}
    guard = root.parent / "json_guard.py"
    guard.write_text("import json, sys\n\npayload = json.load(sys.stdin)\n")
    install_shim(root, home)
    read = cases(root)["main Read"][1]
    commands: dict[str, tuple[list[str], bytes, dict[str, str]]] = {
        "python -I -c pass": ([PY, "-I", "-c", "pass"], b"", base),
        "peer: json guard": ([PY, str(guard)], cases(root)["main Write"][1], base),
    }
    if peers is not None:
        commands.update(peer_commands(peers, root, base))
    for name, (event, raw) in cases(root).items():
        commands[f"{name} / warm"] = (registered("local", event), raw, warm_env)
    commands["main Read / warm, project shim"] = (registered("project", PRE), read, warm_env)
    for name, (event, raw) in cases(root).items():
        commands[f"{name} / in-process"] = (registered("local", event), raw, cold_env)
    commands["main Read / in-process, no compiled config"] = (
        registered("local", PRE),
        read,
        no_compiled_env(base, root),
    )
    if lean:
        commands = {k: v for k, v in commands.items() if k in LEAN_ROWS}
    for label, src in (compare or {}).items():  # the same in-process rows, another checkout
        for name in ("main Read", "main Write"):
            event, raw = cases(root)[name]
            argv = other_checkout(registered("local", event), src)
            commands[f"{name} / in-process, {label}"] = (argv, raw, cold_env)

    if not lean:  # start the evaluator and wait until it answers
        run_once(*commands["main Read / warm"][:2], warm_env, root)
        end = time.monotonic() + 30
        while daemon_pid(rt) is None and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.5)
    for argv, raw, env in commands.values():  # warm the page cache for every command
        run_once(argv, raw, env, root)

    samples: dict[str, list[float]] = {k: [] for k in commands}
    cpu: dict[str, list[float]] = {k: [] for k in commands}
    rss: dict[str, list[int]] = {k: [] for k in commands}
    verdicts: dict[str, set[str]] = {k: set() for k in commands}
    for _ in range(rounds):
        for name, (argv, raw, env) in commands.items():
            t, code, maxrss, out, used = run_once(argv, raw, env, root)
            samples[name].append(t)
            cpu[name].append(used)
            rss[name].append(maxrss)
            verdicts[name].add(verdict_of(code, out))
    pid = daemon_pid(rt)
    hwm = vm_hwm_kib(pid) if pid else None  # before the cold runs below stop it
    bare = statistics.median(samples["python -I -c pass"])
    bare_cpu = statistics.median(cpu["python -I -c pass"])
    rows = []
    for name in commands:
        med, p95 = statistics.median(samples[name]), pct(samples[name], 0.95)
        used = statistics.median(cpu[name])
        rows.append(
            [
                name,
                f"{med * 1000:.1f}",
                f"{p95 * 1000:.1f}",
                f"{med / bare:.2f}x",
                f"{used * 1000:.1f}",
                f"{used / bare_cpu:.2f}x",
                f"{statistics.median(rss[name]) / 1024:.1f}",
                "/".join(sorted(verdicts[name])),
            ]
        )
    extra = {"daemon_pid": pid, "daemon_hwm_kib": hwm, "bare_ms": bare * 1000}
    if lean:
        return rows, extra

    # cold: no evaluator yet (the call starts one and judges in-process)
    cold: list[float] = []
    cold_cpu: list[float] = []
    for _ in range(3):
        p = daemon_pid(rt)
        if p:
            os.kill(p, signal.SIGTERM)
            while Path(f"/proc/{p}").exists() and vm_hwm_kib(p) is not None:
                time.sleep(0.02)
        t, code, maxrss, out, used = run_once(*commands["main Write / warm"][:2], warm_env, root)
        cold.append(t)
        cold_cpu.append(used)
        end = time.monotonic() + 30
        while daemon_pid(rt) is None and time.monotonic() < end:
            time.sleep(0.05)
    rows.append(
        [
            "main Write / cold (starts evaluator)",
            f"{statistics.median(cold) * 1000:.1f}",
            f"{max(cold) * 1000:.1f}",
            f"{statistics.median(cold) / bare:.2f}x",
            f"{statistics.median(cold_cpu) * 1000:.1f}",
            f"{statistics.median(cold_cpu) / bare_cpu:.2f}x",
            "",
            "deny",
        ]
    )
    return rows, extra


def burst_once(
    argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path, n: int
) -> list[tuple[float, float]]:
    """Start ``n`` hooks at once (as Claude Code does for parallel tool calls): each one's
    seconds from the moment the first was started to its exit, and its CPU seconds."""
    with contextlib.ExitStack() as stack:
        inputs = [stack.enter_context(tempfile.TemporaryFile()) for _ in range(n)]
        for f in inputs:
            f.write(stdin)
            f.seek(0)
        t0 = time.perf_counter()
        procs = [
            subprocess.Popen(
                argv,
                stdin=f,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
                cwd=cwd,
            )
            for f in inputs
        ]
        done = []
        for p in procs:
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            done.append((time.perf_counter() - t0, ru.ru_utime + ru.ru_stime))
    return done


def bursts(rounds: int, root: Path, rt: Path, home: Path, n: int = BURST) -> list[list[str]]:
    """``n`` hooks at once without an evaluator (in-process), each a main Read: p50 and max of
    every hook's time, over ``rounds`` bursts; with the compiled config and without."""
    base = base_env(root, rt, home)
    read = cases(root)["main Read"][1]
    argv = registered("local", PRE)
    variants = {
        f"{n} at once, main Read / in-process": {**base, "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1"},
        f"{n} at once, main Read / in-process, no compiled config": no_compiled_env(base, root),
    }
    timeout = registered_timeout()
    rows = []
    for name, env in variants.items():
        run_once(argv, read, env, root)  # leaves the compiled config where it is kept
        times: list[float] = []
        used: list[float] = []
        for _ in range(rounds):
            for t, u in burst_once(argv, read, env, root, n):
                times.append(t)
                used.append(u)
        rows.append(
            [
                name,
                f"{statistics.median(times) * 1000:.0f}",
                f"{max(times) * 1000:.0f}",
                f"{statistics.median(used) * 1000:.0f}",
                f"{timeout:.0f}",
                f"{max(times) / timeout * 100:.1f}%",
            ]
        )
    return rows


WIN_ROOT = "C:\\Users\\dev\\proj"
WIN_LOCAL = "C:\\Users\\dev\\AppData\\Local"


def windows_sim_commands(
    tmp: Path,
) -> tuple[dict[str, tuple[list[str], bytes, dict[str, str]]], Path]:
    """The in-process Read under the Windows simulation of tests/windows_sim.py (ntpath, no
    fcntl, no AF_UNIX, no ``os.getuid``; a project at ``C:\\Users\\dev\\proj``): with
    ``LOCALAPPDATA`` set (the compiled config is kept there, ADR 0041) and without it (every call
    validates). The simulation costs something itself: its floor is an empty script run under it.
    (commands, the project's real folder)"""
    sys.path.insert(0, str(REPO / "tests"))
    from windows_sim import python_argv, sim_env

    c = tmp / "winsim" / "C"
    proj = c / "Users" / "dev" / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "app.py").write_text("x = 1\n")
    (proj / ".claude").mkdir()
    (proj / ".claude" / "boundary.toml").write_text(BENCH_CONFIG)
    (c / "Users" / "dev" / "AppData" / "Local").mkdir(parents=True)
    empty = tmp / "winsim" / "empty.py"
    empty.write_text("")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "CLAUDE_PROJECT_DIR": WIN_ROOT,
        "HOME": "C:\\Users\\dev",
        "USERPROFILE": "C:\\Users\\dev",
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
    }
    read = json.dumps(
        {
            "session_id": "bench",
            "cwd": WIN_ROOT,
            "hook_event_name": PRE,
            "tool_name": "Read",
            "tool_input": {"file_path": WIN_ROOT + "\\src\\app.py"},
            "tool_use_id": "toolu_bench",
        }
    ).encode()
    launcher = python_argv(str(SRC / "orchestrator_boundary" / "launcher.py"), PRE)
    drives = {"C:": str(c)}
    kept = sim_env({**env, "LOCALAPPDATA": WIN_LOCAL}, drives=drives, cwd=WIN_ROOT)
    commands = {
        "python -I -c pass": ([PY, "-I", "-c", "pass"], b"", env),
        "sim: empty script": (python_argv(str(empty)), b"", sim_env(env, drives=drives)),
        "sim: main Read / in-process": (launcher, read, kept),
        "sim: main Read / in-process, no LOCALAPPDATA": (
            launcher,
            read,
            sim_env(env, drives=drives, cwd=WIN_ROOT),
        ),
    }
    return commands, proj


def windows_sim(
    rounds: int, burst_rounds: int, tmp: Path
) -> tuple[list[list[str]], list[list[str]]]:
    """Round trips of ``windows_sim_commands`` (interleaved), and bursts of ``BURST`` Reads."""
    commands, cwd = windows_sim_commands(tmp)
    for argv, raw, env in commands.values():  # the first Read leaves the compiled config
        run_once(argv, raw, env, cwd)
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    verdicts: dict[str, set[str]] = {k: set() for k in commands}
    for _ in range(rounds):
        for name, (argv, raw, env) in commands.items():
            t, code, _, out, used = run_once(argv, raw, env, cwd)
            samples[name].append((t, used))
            verdicts[name].add(verdict_of(code, out))
    bare = statistics.median(t for t, _ in samples["python -I -c pass"])
    bare_cpu = statistics.median(u for _, u in samples["python -I -c pass"])
    rows = []
    for name, got in samples.items():
        med, used = statistics.median(t for t, _ in got), statistics.median(u for _, u in got)
        ratios = [f"{med / bare:.2f}x", f"{used * 1000:.1f}", f"{used / bare_cpu:.2f}x"]
        rows.append([name, f"{med * 1000:.1f}", *ratios, "/".join(sorted(verdicts[name]))])
    timeout = registered_timeout()
    burst_rows = []
    for name in ("sim: main Read / in-process", "sim: main Read / in-process, no LOCALAPPDATA"):
        argv, raw, env = commands[name]
        times = [t for _ in range(burst_rounds) for t, _ in burst_once(argv, raw, env, cwd, BURST)]
        p50, top = statistics.median(times), max(times)
        label = f"{BURST} at once, {name[5:]}"
        burst_rows.append([label, f"{p50 * 1000:.0f}", f"{top * 1000:.0f}", f"{top / timeout:.1%}"])
    return rows, burst_rows


def print_windows_sim(rounds: int, burst_rounds: int, tmp: Path) -> None:
    rows, burst_rows = windows_sim(rounds, burst_rounds, tmp)
    print(
        f"Simulated Windows (tests/windows_sim.py), in-process Read ({rounds} interleaved rounds; "
        "ratio = median / median of `python -I -c pass`; the simulation's own cost is the "
        "empty script's row):\n"
    )
    print(table(["command", "median ms", "ratio", "cpu ms", "cpu ratio", "verdict"], rows))
    print(f"\n{BURST} simulated Windows hooks started at once ({burst_rounds} bursts):\n")
    print(table(["burst", "p50 ms", "max ms", "max / timeout"], burst_rows))


def _rates(
    fns: dict[str, Any], rounds: int = 15, window: float = 0.05
) -> dict[str, tuple[float, float]]:
    """(best, median) calls per CPU-second of each function over ``rounds`` windows, the
    functions interleaved round-robin so that a noisy neighbour hits them alike. CPU time of
    this process, not wall time; on a shared machine even CPU time varies with the neighbours'
    load, so the best window is the machine's undisturbed speed (timeit's convention) and the
    median what a busy moment gives."""
    sizes = {}
    for name, fn in fns.items():
        fn()
        n, t0 = 0, time.process_time()
        while time.process_time() - t0 < window:
            fn()
            n += 1
        sizes[name] = max(n, 1)
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            n = sizes[name]
            t0 = time.process_time()
            for _ in range(n):
                fn()
            samples[name].append(n / max(time.process_time() - t0, 1e-9))
    return {name: (max(v), statistics.median(v)) for name, v in samples.items()}


OWN_VARIABLES = ("ORCHESTRATOR_BOUNDARY_", "AMPLIFIER_BYPASS_BOUNDARY", "CLAUDE_")


def decide_env(root: Path, home: Path) -> dict[str, str]:
    """The whole environment, as the client hands it to the evaluator (less our own
    switches), for the benchmark's project in phase enforce."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(OWN_VARIABLES)},
        "CLAUDE_PROJECT_DIR": str(root),
        "HOME": str(home),
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
    }


def throughput(root: Path, home: Path, windows: int = 15) -> list[list[str]]:
    decide = decisions(root, home)
    from orchestrator_boundary import bash, shell

    env = decide_env(root, home)
    full = {}
    for name, (event, raw) in cases(root).items():

        def whole(raw: bytes = raw, event: str = event) -> None:
            shell.evaluate(raw, env, event=event)

        full[name] = whole
        if name == "main Bash >":  # the same call with the analysis memo emptied first

            def first_whole(whole: Any = whole) -> None:
                bash.clear_memo()
                whole()

            full[f"{name} (first analysis)"] = first_whole
    rates, whole_rates = _rates(decide, windows), _rates(full, windows)
    rows = [
        [
            name,
            f"{1e6 / rates[name][0]:.1f}",
            f"{rates[name][0]:,.0f}",
            f"{rates[name][1]:,.0f}",
            f"{whole_rates[name][0]:,.0f}",
        ]
        for name in decide
    ]
    passes = min(windows, 5)
    for label, measured in (
        ("Bash, {n:,} distinct corpus commands", _distinct_bash(root, env, passes)),
        ("corpus mix, {n:,} tool calls as recorded", _corpus_mix(env, passes)),
    ):
        if measured is not None:
            n, (best, median) = measured
            rows.append(
                [label.format(n=n), f"{1e6 / best:.1f}", f"{best:,.0f}", f"{median:,.0f}", ""]
            )
    return rows


def _passes(payloads: list[Any], env: dict[str, str], passes: int) -> tuple[float, float]:
    """(best, median) decisions per CPU-second of judging ``payloads`` in order, ``passes``
    times, the Bash memo emptied before each pass."""
    from orchestrator_boundary import bash, setups, shell

    rates = []
    for _ in range(passes):
        bash.clear_memo()
        t0 = time.process_time()
        for p in payloads:
            shell.judge(p, setups.setup(p.cwd, env))
        rates.append(len(payloads) / (time.process_time() - t0))
    return max(rates), statistics.median(rates)


def _corpus_mix(env: dict[str, str], passes: int = 5) -> tuple[int, tuple[float, float]] | None:
    """Decisions per CPU-second over every PreToolUse/PostToolUse payload of the corpus in its
    recorded order (reads, writes, Bash, subagents; each against its own cwd, as ``replay``
    does): the mix an evaluator serves. The Bash memo is emptied before each pass, so a
    command is analysed afresh the first time the pass meets it. (best, median) of the
    passes."""
    files = sorted(CORPUS.glob("*.jsonl.gz")) if CORPUS.is_dir() else []
    if not files:
        return None
    from orchestrator_boundary.errors import BoundaryInputError
    from orchestrator_boundary.payload import parse_payload

    env = {k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"}
    payloads = []
    for f in files:
        with gzip.open(f, "rb") as fh:
            for line in fh:
                try:
                    p = parse_payload(line)
                except BoundaryInputError:
                    continue
                if p.hook_event_name in ("PreToolUse", "PostToolUse") and os.path.isabs(p.cwd):
                    payloads.append(p)
    return len(payloads), _passes(payloads, env, passes)


def _distinct_bash(
    root: Path, env: dict[str, str], passes: int = 5
) -> tuple[int, tuple[float, float]] | None:
    """Decisions per CPU-second for the orchestrator running each distinct Bash command of the
    corpus once (the memo emptied before each pass, so every call parses): the cost of a
    command the evaluator has not seen. (best, median) of the passes."""
    if not CORPUS.is_dir():
        return None
    sys.path.insert(0, str(REPO / "tests"))
    from corpus_commands import bash_commands

    from orchestrator_boundary import bash
    from orchestrator_boundary.payload import parse_payload

    commands = list(dict.fromkeys(c for c, _ in bash_commands(CORPUS.parent)))
    payloads = [
        parse_payload(payload(root, "Bash", {"command": c}))
        for c in commands
        if len(c) <= bash.MEMO_MAX_CHARS
    ]
    return len(payloads), _passes(payloads, env, passes)


def replay() -> list[str] | None:
    files = sorted(CORPUS.glob("*.jsonl.gz")) if CORPUS.is_dir() else []
    if not files:
        return None
    from orchestrator_boundary.cmd_replay import judge_line

    args = argparse.Namespace(config=None, phase=None)
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    t0 = time.perf_counter()
    n = 0
    for f in files:
        with gzip.open(f, "rt", encoding="utf-8", errors="surrogateescape") as fh:
            for line in fh:
                if line.strip():
                    judge_line(line, env, args)
                    n += 1
    inproc = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(
        [PY, "-m", "orchestrator_boundary.cli", "replay", "--json", *map(str, files)],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=True,
    )
    cli = time.perf_counter() - t0
    return [f"{n:,}", f"{inproc:.2f}", f"{n / inproc:,.0f}", f"{cli:.2f}"]


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) + " |"

    return "\n".join(
        [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)]
    )


def machine() -> str:
    cpu = "?"
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "?"
    return (
        f"nproc {os.cpu_count()}, {cpu}, Python {platform.python_version()} ({PY}), "
        f"{platform.system()} {platform.release()}, load average {load}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--no-replay", action="store_true")
    ap.add_argument("--windows", type=int, default=15, help="throughput windows per case")
    ap.add_argument(
        "--lean",
        action="store_true",
        help="only the in-process Read and Write rows and the burst of hooks started at once",
    )
    ap.add_argument("--burst-rounds", type=int, default=5, help="bursts of 16 hooks to time")
    ap.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="NAME=SRC",
        help="also run the in-process Read and Write through another checkout's src folder "
        "(e.g. a worktree of the parent commit), interleaved with the rest",
    )
    ap.add_argument(
        "--windows-sim",
        action="store_true",
        help="only the in-process Read under the Windows simulation, with the compiled config "
        "in %%LOCALAPPDATA%% and without it (ADR 0041), and its bursts",
    )
    ap.add_argument(
        "--peers",
        action="store_true",
        help=f"also time published guard hooks ({', '.join(PEERS)}; installed with npm)",
    )
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="obbench-"))
    rt = Path(tempfile.mkdtemp(prefix="obrt-", dir="/tmp"))
    rt.chmod(0o700)
    root, home = make_project(tmp)
    try:
        print(f"machine: {machine()}")
        given = " ".join(sys.argv[1:])
        print(f"command: python benchmarks/hook_latency.py {given}".rstrip() + "\n")
        if args.windows_sim:
            print_windows_sim(args.rounds, args.burst_rounds, tmp)
            return 0
        modules = install_peers(tmp / "peers") if args.peers else None
        compare = {k: Path(v).resolve() for k, _, v in (c.partition("=") for c in args.compare)}
        rows, extra = latency(args.rounds, root, rt, home, modules, args.lean, compare)
        print(
            f"Round trip, process start -> verdict on stdout ({args.rounds} interleaved rounds; "
            f"ratio = median / median of `python -I -c pass`):\n"
        )
        print(
            table(
                [
                    "command",
                    "median ms",
                    "p95 ms",
                    "ratio",
                    "cpu ms",
                    "cpu ratio",
                    "client maxrss MiB",
                    "verdict",
                ],
                rows,
            )
        )
        print(
            f"\n{BURST} hooks started at once, no evaluator ({args.burst_rounds} bursts; each "
            "hook's time from the first start to its exit, and its CPU time; timeout = the "
            "registered one):\n"
        )
        print(
            table(
                ["burst", "p50 ms", "max ms", "cpu ms / hook", "timeout s", "max / timeout"],
                bursts(args.burst_rounds, root, rt, home),
            )
        )
        if args.lean:
            return 0
        hwm = extra["daemon_hwm_kib"]
        print(
            f"\nresident evaluator peak memory (VmHWM): {hwm / 1024:.1f} MiB"
            if hwm
            else "\nresident evaluator: not found"
        )
        print(
            f"\nIn-process, per CPU-second of one interpreter ({args.windows} interleaved "
            "windows: the best, and the median; decide = setup + judge of a parsed payload, "
            "evaluate = the whole hook incl. JSON, answer and audit line):\n"
        )
        print(
            table(
                ["case", "decide us", "decide / s", "(median)", "evaluate / s"],
                throughput(root, home, args.windows),
            )
        )
        if not args.no_replay:
            r = replay()
            if r is None:
                print(f"\nreplay: corpus not found at {CORPUS} (skipped)")
            else:
                print(
                    "\nReplay of the corpus (judge_line as `orchestrator-boundary replay`; "
                    "and the CLI itself, start to end):\n"
                )
                print(table(["payloads", "in-process s", "payloads / s", "CLI wall s"], [r]))
    finally:
        pid = daemon_pid(rt)
        if pid:
            os.kill(pid, signal.SIGTERM)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(rt, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
