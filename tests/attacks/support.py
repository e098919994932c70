"""The attack suite's harness (issue 13 point 10): one attack payload, two real routes.

- ``hook``: the command ``install`` registers (``client.hook_command``: this interpreter with
  ``-I -S`` running the package's ``client.py``), as a new process with the resident evaluator
  disabled (``ORCHESTRATOR_BOUNDARY_NO_DAEMON=1``): the call is judged in that process.
- ``evaluator``: the same command with the evaluator enabled and warm. The process is started
  with ``site`` made unimportable, so it cannot load the policy itself: its verdict can only
  have come from the running evaluator the client verified. A fallback would answer "cannot
  load the policy", which the harness reports as a failure, never as a deny.

Both routes get the same environment, project and payload, and must give the same answer: the
same protocol decision and the same audit line (decision and code).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from harden_support import WIDE_OPEN

from orchestrator_boundary import testing, wire
from orchestrator_boundary.audit import trail_files

REPO = Path(__file__).resolve().parents[2]
ROUTES = ("hook", "evaluator")
WARN_AND_BYPASS = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn", "AMPLIFIER_BYPASS_BOUNDARY": "1"}
ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
TAMPER = ("deny", "TAMPER")
SUBAGENT_TYPE = "coder"

# The entry with `site` blocked: only the evaluator can answer (tests/test_daemon.py does the
# same with the hooks/*.py scripts).
ONLY_EVALUATOR = (
    "import sys; sys.modules['site'] = None; sys.argv = sys.argv[1:]; "
    "src = open(sys.argv[0]).read(); "
    "exec(compile(src, sys.argv[0], 'exec'), {'__name__': '__main__', '__file__': sys.argv[0]})"
)
CANNOT_LOAD = "cannot load the policy"


_PATHS = sysconfig.get_paths()


@dataclass(frozen=True)
class Answer:
    """What one route answered, as Claude Code reads it, and the audit line it wrote."""

    route: str
    exit_code: int
    stdout: str
    stderr: str
    decision: str  # deny | ask | warn | none
    record: dict[str, Any] | None
    seconds: float

    @property
    def code(self) -> str | None:
        return (self.record or {}).get("code")

    def __str__(self) -> str:
        rec = {k: (self.record or {}).get(k) for k in ("decision", "code", "rule", "phase")}
        return (
            f"[{self.route}] exit {self.exit_code}, decision {self.decision}, record {rec}, "
            f"{self.seconds:.2f} s\nstdout: {self.stdout[:600]}\nstderr: {self.stderr[:600]}"
        )


def _protocol_decision(exit_code: int, out: str, record: Mapping[str, Any] | None) -> str:
    if exit_code == 2:
        return "deny"
    try:
        data = json.loads(out) if out.strip() else {}
    except ValueError:
        return "invalid"
    specific = data.get("hookSpecificOutput") or {} if isinstance(data, dict) else {}
    if specific.get("permissionDecision") in ("deny", "ask"):
        return str(specific["permissionDecision"])
    if record is not None and record.get("decision") == "warn":
        return "warn"
    return "none"


@dataclass
class Arena:
    """A project in a temporary folder: its home, CLAUDE_CONFIG_DIR, evaluator runtime folder."""

    base: Path
    runtime: Path
    config: str = WIDE_OPEN
    started: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for d in (
            self.root / ".claude" / "agents",
            self.root / "src",
            self.home / ".claude",
            self.config_dir,
        ):
            d.mkdir(parents=True, exist_ok=True)
        (self.root / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
        (self.root / ".claude" / "agents" / "coder.md").write_text(
            "---\nname: coder\ndescription: writes code\n---\nYou write code.\n"
        )
        (self.home / ".claude" / "settings.json").write_text("{}\n")
        (self.root / "src" / "app.py").write_text("x = 1\n")
        (self.root / ".claude" / "boundary.toml").write_text(self.config)

    @property
    def root(self) -> Path:
        return self.base / "proj"

    @property
    def home(self) -> Path:
        return self.base / "home"

    @property
    def config_dir(self) -> Path:
        return self.base / "claude-config"

    @property
    def trail(self) -> Path:
        return self.root / ".claude" / "boundary" / "audit.jsonl"

    def places(self) -> dict[str, str]:
        """What an attack's ``{name}`` placeholders stand for."""
        return {
            "root": str(self.root),
            "home": str(self.home),
            "ccd": str(self.config_dir),
            "rt": str(self.runtime),
            "python": sys.executable,
            "python_real": os.path.realpath(sys.executable),
            "prefix": sys.prefix,
            "base_prefix": sys.base_prefix,
            "stdlib": _PATHS["stdlib"],
            "purelib": _PATHS["purelib"],
            "package": wire.PACKAGE_DIR,
            "bindir": os.path.dirname(sys.executable),  # where the installed CLI is
        }

    def expand(self, value: Any) -> Any:
        if isinstance(value, str):
            places = self.places()
            return re.sub(r"\{(\w+)\}", lambda m: places.get(m[1], m[0]), value)
        if isinstance(value, dict):
            return {self.expand(k): self.expand(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.expand(v) for v in value]
        return value

    def env(self, route: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            wire.PROJECT_DIR_ENV: str(self.root),
            wire.CLAUDE_CONFIG_DIR_ENV: str(self.config_dir),
            wire.RUNTIME_DIR_ENV: str(self.runtime),
            wire.IDLE_ENV: "300",
        }
        if route == "hook":
            env[wire.NO_DAEMON_ENV] = "1"
        env.update(extra or {})
        return env

    def payload(
        self, tool: str, tool_input: Mapping[str, Any], *, caller: str = "subagent", **extra: Any
    ) -> dict[str, Any]:
        sub = caller == "subagent"
        return testing.make_payload(
            tool,
            self.expand(dict(tool_input)),
            cwd=self.root,
            subagent=sub,
            agent_type=SUBAGENT_TYPE if sub else None,
            **extra,
        )

    def command(
        self, route: str, event: str = "PreToolUse", *, fallback: bool = False
    ) -> list[str]:
        """The registered command; for the evaluator route without the in-process fallback
        unless ``fallback`` (then it is exactly the registered command)."""
        cmd = testing.hook_command(event)
        assert cmd[1:3] == ["-I", "-S"], cmd
        if route == "evaluator" and not fallback:
            return [*cmd[:3], "-c", ONLY_EVALUATOR, *cmd[3:]]
        return cmd

    def run(
        self,
        payload: Mapping[str, Any] | bytes,
        route: str,
        env: Mapping[str, str] | None = None,
        *,
        event: str = "PreToolUse",
        fallback: bool = False,
        timeout: float = 60,
    ) -> Answer:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        tool_use_id = "" if isinstance(payload, bytes) else str(payload.get("tool_use_id", ""))
        started = time.monotonic()
        proc = subprocess.run(
            self.command(route, event, fallback=fallback),
            input=raw,
            capture_output=True,
            cwd=self.root,
            env=self.env(route, env),
            timeout=timeout,
            check=False,
        )
        seconds = time.monotonic() - started
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        if route == "evaluator" and not fallback:
            assert CANNOT_LOAD not in err, f"the evaluator did not answer: {err[:400]}"
        record = self.record(tool_use_id) if tool_use_id else None
        return Answer(
            route,
            proc.returncode,
            out,
            err,
            _protocol_decision(proc.returncode, out, record),
            record,
            seconds,
        )

    def records(self) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for name in trail_files(str(self.trail)):
            for line in Path(name).read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict):
                    lines.append(rec)
        return lines

    def record(self, tool_use_id: str) -> dict[str, Any] | None:
        found = [r for r in self.records() if r.get("tool_use_id") == tool_use_id]
        return found[-1] if found else None

    # ---- the evaluator ----

    def socket(self) -> Path:
        env = {wire.RUNTIME_DIR_ENV.encode(): bytes(self.runtime)}
        return Path(wire.socket_path(str(self.root), env))

    def warm(self) -> None:
        """Start this project's evaluator and wait until it answers on its own."""
        probe = self.payload("Read", {"file_path": "{root}/src/app.py"}, caller="orchestrator")
        self.run(probe, "evaluator", fallback=True)  # starts it in the background
        assert until(self.socket().exists), "the evaluator did not start"

        def answers() -> bool:
            proc = subprocess.run(
                self.command("evaluator"),
                input=json.dumps(probe).encode(),
                capture_output=True,
                cwd=self.root,
                env=self.env("evaluator"),
                timeout=60,
                check=False,
            )
            return proc.returncode == 0 and CANNOT_LOAD.encode() not in proc.stderr

        assert until(answers), "the evaluator does not answer"
        pid = self.evaluator_pid()
        assert pid, "no evaluator pid"
        self.started.append(pid)

    def evaluator_pid(self) -> int | None:
        try:
            return int(self.socket().with_suffix(".lock").read_text().strip() or 0) or None
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        for lock in self.runtime.glob("*.lock"):
            try:
                pid = int(lock.read_text().strip() or 0)
            except (OSError, ValueError):
                continue
            if pid and is_evaluator(pid):
                os.kill(pid, signal.SIGTERM)
                until(lambda p=pid: not is_evaluator(p), 5)  # type: ignore[misc]


def is_evaluator(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"daemon.py" in fh.read()
    except OSError:
        return False


def until(cond: Callable[[], bool], timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return bool(cond())


@contextlib.contextmanager
def new_arena(config: str = WIDE_OPEN) -> Iterator[Arena]:
    """An arena with a short runtime folder (socket paths are limited to ~100 bytes); its
    evaluators are ended afterwards."""
    base = Path(tempfile.mkdtemp(prefix="oba-", dir="/tmp"))
    runtime = base / "rt"
    runtime.mkdir(mode=0o700)
    arena = Arena(base, runtime, config)
    try:
        yield arena
    finally:
        arena.stop()
        shutil.rmtree(base, ignore_errors=True)


# ---- attacks as data ----


@dataclass(frozen=True)
class Attack:
    """One tool call an agent could make. ``input`` may hold ``{root}``, ``{home}``... (see
    ``Arena.places``). ``hole``: a known way through, marked xfail(strict) so that it shows."""

    id: str
    tool: str
    input: Mapping[str, Any]
    caller: str = "subagent"  # or "orchestrator"
    env: Mapping[str, str] = field(default_factory=lambda: WARN_AND_BYPASS)
    expect: tuple[str, str | None] = TAMPER
    hole: str = ""


def bash(id: str, command: str, **kw: Any) -> Attack:
    return Attack(id, "Bash", {"command": command}, **kw)


def write(id: str, path: str, **kw: Any) -> Attack:
    return Attack(id, "Write", {"file_path": path, "content": "{}"}, **kw)


def params(attacks: list[Attack]) -> list[Any]:
    """``pytest.param`` per attack, with its id; a hole is xfail(strict=True)."""
    out = []
    for a in attacks:
        hole = pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"HOLE: {a.hole}")
        marks = [hole] if a.hole else []
        out.append(pytest.param(a, id=a.id, marks=marks))
    return out


def route_params() -> list[Any]:
    return [pytest.param(r, id=r) for r in ROUTES]


def attempt(arena: Arena, attack: Attack, route: str) -> Answer:
    """Run ``attack`` through ``route`` and check the answer and the audit line."""
    payload = arena.payload(attack.tool, attack.input, caller=attack.caller)
    got = arena.run(payload, route, attack.env)
    decision, code = attack.expect
    assert got.record is not None, f"no audit line\n{got}"
    assert (got.decision, got.record.get("decision"), got.code) == (decision, decision, code), (
        f"{attack.id}: expected {attack.expect}\n{got}"
    )
    return got
