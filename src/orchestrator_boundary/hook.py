"""The hook shell: stdin -> config -> policy -> audit line -> Claude Code's answer.

Nothing here decides; it gathers facts, calls the core and maps the verdict to the protocol.
One guard turns any failure into a deliberate answer (ADR 0004): in ``enforce``/``ask`` a call
whose input cannot be understood is blocked with exit 2 and a one-line reason on stderr; in
``warn``/``off`` it goes through and is recorded as an error. Tracebacks never reach stdout.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, TypeVar

from orchestrator_boundary import __version__, audit
from orchestrator_boundary.config import (
    CONFIG_ENV,
    Config,
    ConfigProblem,
    config_path,
    load_config,
)
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.fs import RealFileSystem, sha256_of
from orchestrator_boundary.payload import MAX_PAYLOAD_BYTES, TOOL_EVENTS, HookPayload, parse_payload
from orchestrator_boundary.phase import (
    BYPASS_ENV,
    DEFAULT_PHASE,
    PHASE_ENV,
    Phase,
    bypass_requested,
    env_phase,
)
from orchestrator_boundary.policy import Facts, assess
from orchestrator_boundary.protect import Protected, protected_set
from orchestrator_boundary.rules import Assessment
from orchestrator_boundary.session import detect
from orchestrator_boundary.tools import ToolClass, classify
from orchestrator_boundary.verdict import POST, PRE, HookAnswer, Verdict, decide_phase, render

T = TypeVar("T")
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_FS = RealFileSystem()
_CONFIG_CACHE: dict[tuple[str, str | None], tuple[tuple[int, int], Config | ConfigProblem]] = {}
_HOOKS_DIR = os.path.join(os.path.dirname(os.path.dirname(PACKAGE_DIR)), "hooks")
# A Setup (the resolved root, the config, and the facts incl. the protected set: ~20 realpath()
# calls) is reused by a long-lived process (the resident evaluator, replay) for at most FS_TTL
# seconds after its file-system facts were gathered, so a new symlink is seen within that. The
# root and the protected set are also shared between Setups (another environment, the same
# project) under the same bound. A one-shot hook process resolves everything once anyway.
FS_TTL = 1.0
_SETUP_CACHE: dict[tuple[Any, ...], tuple[float, tuple[int, int], Setup]] = {}
# Every environment variable a Setup depends on, and so its cache key (the client hands the
# evaluator its whole environment; keying on all of it cost ~8 us per call with 75 variables).
# tests/test_setup_cache.py records what _setup() reads and fails if this list misses any.
SETUP_ENV = (
    "CLAUDE_PROJECT_DIR",
    "HOME",
    CONFIG_ENV,
    PHASE_ENV,
    BYPASS_ENV,
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_CONFIG_DIR",
    "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR",
    "XDG_RUNTIME_DIR",
)
_FS_FACTS: dict[tuple[Any, ...], tuple[float, Any]] = {}


def _fs_fact(key: tuple[Any, ...], make: Callable[[], T]) -> tuple[T, float]:
    """``make()``, reused for FS_TTL after it ran: (value, monotonic time it expires)."""
    now = time.monotonic()
    hit = _FS_FACTS.get(key)
    if hit is not None and now < hit[0]:
        return hit[1], hit[0]
    value = make()
    if len(_FS_FACTS) > 512:
        _FS_FACTS.clear()
    _FS_FACTS[key] = (now + FS_TTL, value)
    return value, now + FS_TTL


@dataclass(frozen=True, slots=True)
class Setup:
    """The environment facts for one invocation."""

    root: str
    config: Config
    problem: ConfigProblem | None
    phase: Phase
    phase_source: str
    bypass: bool
    home: str | None
    config_file: str
    audit_file: str
    facts: Facts  # what the policy core is told about the environment


def _stat_key(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    if not stat.S_ISREG(st.st_mode):
        return (-2, st.st_mode)
    return (st.st_mtime_ns, st.st_size)


def _cached_config(path: str, home: str | None) -> Config | ConfigProblem:
    key = _stat_key(path)
    hit = _CONFIG_CACHE.get((path, home))  # "~" in patterns is expanded with this home
    if hit and hit[0] == key:  # (-1, -1): no file, or unreadable; a new file changes the key
        return hit[1]
    if key[0] == -2:  # a FIFO or a device would block the read until Claude Code's timeout
        loaded: Config | ConfigProblem = ConfigProblem(path, "", "not a regular file")
    else:
        loaded = load_config(path, home)
    _CONFIG_CACHE[(path, home)] = (key, loaded)
    return loaded


def setup(
    root_hint: str,
    environ: Mapping[str, str],
    *,
    config_file: str | None = None,
    phase_override: Phase | None = None,
) -> Setup:
    """The Setup for these inputs. Long-lived processes reuse one for the same root hint and the
    same values of the variables it reads (SETUP_ENV) while the config file's stat key is
    unchanged, for at most FS_TTL."""
    key = (root_hint, config_file, phase_override, *map(environ.get, SETUP_ENV))
    hit = _SETUP_CACHE.get(key)
    if hit is not None and time.monotonic() < hit[0] and _stat_key(hit[2].config_file) == hit[1]:
        return hit[2]
    s, expires = _setup(root_hint, environ, config_file=config_file, phase_override=phase_override)
    if len(_SETUP_CACHE) > 256:
        _SETUP_CACHE.clear()
    # the stat key the config was loaded under (taken before reading it), not a newer one
    _SETUP_CACHE[key] = (expires, _CONFIG_CACHE[(s.config_file, s.home)][0], s)
    return s


def _setup(
    root_hint: str,
    environ: Mapping[str, str],
    *,
    config_file: str | None = None,
    phase_override: Phase | None = None,
) -> tuple[Setup, float]:
    """A new Setup, and when its file-system facts expire."""
    root = environ.get("CLAUDE_PROJECT_DIR") or root_hint
    if not root or not os.path.isabs(root):
        raise BoundaryInputError(f"no usable project root (CLAUDE_PROJECT_DIR or cwd): {root!r}")
    root, root_expires = _fs_fact(("root", root), functools.partial(_FS.realpath, root))
    home = environ.get("HOME") or None
    cfg_file = config_file or config_path(root, environ)
    loaded = _cached_config(cfg_file, home)
    problem = loaded if isinstance(loaded, ConfigProblem) else None
    config = loaded if isinstance(loaded, Config) else Config()
    env_value, env_problem = env_phase(environ)
    if env_problem and problem is None:
        problem = ConfigProblem("environment", "ORCHESTRATOR_BOUNDARY_PHASE", env_problem)
    if problem is not None:
        phase, source = Phase.ENFORCE, "broken config"
    elif phase_override is not None:
        phase, source = phase_override, "command line"
    elif env_value is not None:
        phase, source = env_value, "environment"
    elif isinstance(loaded, Config) and "phase" in loaded.model_fields_set:
        phase, source = config.phase, "config"
    else:
        phase, source = DEFAULT_PHASE, "default"
    audit_file = config.audit.path
    if not os.path.isabs(audit_file):
        audit_file = os.path.join(root, audit_file)
    bypass = bypass_requested(environ)
    # the facts follow from these inputs and the environment: gathered once, kept with the Setup
    protected, protected_expires = protected_for(root, home, cfg_file, audit_file, environ)
    facts = Facts(root, _FS, phase, source, bypass, home, problem, protected)
    made = Setup(root, config, problem, phase, source, bypass, home, cfg_file, audit_file, facts)
    return made, min(root_expires, protected_expires)


@functools.lru_cache(maxsize=1)
def runtime_dirs() -> tuple[str, ...]:
    """Where the interpreter running this hook finds its code: site-packages (the dependencies,
    and ``.pth`` files that run at start-up) and the scripts folder (console entry points).
    Changing any of them can make the hook crash, and a crashing hook fails open."""
    import site
    import sysconfig

    paths = sysconfig.get_paths()
    dirs = [paths.get(k) for k in ("purelib", "platlib", "scripts")]
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return tuple(dict.fromkeys(d for d in dirs if d and os.path.isabs(d)))


def _evaluator_dir(environ: Mapping[str, str]) -> str:
    """The resident evaluator's runtime folder (its socket and lock): no agent may touch it."""
    return _runtime_dir_for(
        environ.get("ORCHESTRATOR_BOUNDARY_RUNTIME_DIR", ""), environ.get("XDG_RUNTIME_DIR", "")
    )


@functools.lru_cache(maxsize=8)
def _runtime_dir_for(explicit: str, xdg: str) -> str:
    from orchestrator_boundary.client import runtime_dir

    env = {
        b"ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": os.fsencode(explicit),
        b"XDG_RUNTIME_DIR": os.fsencode(xdg),
    }
    return runtime_dir({k: v for k, v in env.items() if v})


def protected_for(
    root: str, home: str | None, config_file: str, audit_file: str, environ: Mapping[str, str]
) -> tuple[tuple[Protected, ...], float]:
    """What no agent may change (ADR 0010), and when this answer expires."""
    package_dirs = [PACKAGE_DIR, _HOOKS_DIR, *runtime_dirs(), _evaluator_dir(environ)]
    if environ.get("CLAUDE_PLUGIN_ROOT"):
        package_dirs.append(environ["CLAUDE_PLUGIN_ROOT"])
    config_dir = environ.get("CLAUDE_CONFIG_DIR") or None
    if config_dir and not os.path.isabs(config_dir):
        config_dir = os.path.join(home or root, config_dir)
    make = functools.partial(
        protected_set,
        root,
        home=home,
        config_file=config_file,
        audit_file=audit_file,
        package_dirs=package_dirs,
        fs=_FS,
        claude_config_dir=config_dir,
    )
    return _fs_fact(
        ("protected", root, home, config_file, audit_file, config_dir, *package_dirs), make
    )


def judge(payload: HookPayload, s: Setup) -> Verdict:
    """The verdict for one parsed payload (shared by the hooks, ``check`` and ``replay``)."""
    if payload.hook_event_name in TOOL_EVENTS:
        assessment = assess(payload, s.config, s.facts)
    else:  # not a tool event: nothing to decide, but still recorded
        assessment = Assessment(detect(payload), payload.tool_name, classify(payload.tool_name))
    return decide_phase(
        payload.hook_event_name,
        assessment,
        s.phase,
        s.phase_source,
        bypass=s.bypass,
        bypass_opens_protected=s.bypass and s.config.protect.bypass_opens,  # read with bypass
        config_note=f"config problem: {s.problem}; writes are blocked until it is fixed"
        if s.problem
        else "",
    )


def traces(payload: HookPayload, verdict: Verdict, root: str) -> list[dict[str, Any]]:
    """Content hashes of the files a successful write changed (PostToolUse)."""
    a = verdict.assessment
    if payload.hook_event_name != POST:
        return []
    if a.classification.tool_class is ToolClass.WRITE:
        paths = list(a.paths)
    elif a.bash is not None:
        paths = [e.resolved for e in a.bash.effects if e.resolved]
    else:
        return []
    out = []
    for p in paths:
        if not p or p == "?":
            continue
        full = p if os.path.isabs(p) else os.path.join(root, p)
        rel = os.path.relpath(full, root) if full.startswith(root + os.sep) else full
        out.append({"path": rel, "sha256": sha256_of(full)})
    return out


def iso(ts: float) -> str:
    """An audit timestamp: ISO 8601 in UTC, to the microsecond."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")


def record(payload: HookPayload | None, verdict: Verdict | None, **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"ts": iso(extra.pop("ts")), "event": extra.pop("event", "")}
    if payload is not None:
        s = detect(payload)
        rec.update(
            event=payload.hook_event_name,
            session_id=payload.session_id,
            session_kind=s.kind.value,
            agent_id=s.agent_id,
            agent_type=s.agent_type,
            tool_name=payload.tool_name,
            tool_use_id=payload.tool_use_id,
        )
    if verdict is not None:
        a, v = verdict.assessment, verdict.violation
        rec.update(
            tool_class=a.classification.tool_class.value,
            paths=list(a.paths),
            decision=verdict.decision.value,
            would_deny=verdict.would_deny,
            phase=verdict.phase.value,
            phase_source=verdict.phase_source,
            rule=v.rule if v else None,
            code=v.code.value if v else None,
            bypassed=verdict.bypassed,
            post_block=verdict.post_block,
        )
        if a.bash is not None:
            rec["bash_status"] = a.bash.status.value
        if payload is not None and payload.hook_event_name == POST and v is not None:
            rec["went_through"] = True
    rec.setdefault("error", None)
    rec.update(extra)
    rec["version"] = __version__
    return rec


def _bad_input(
    exc: BaseException, raw_len: int, environ: Mapping[str, str], event: str, root_hint: str
) -> tuple[HookAnswer, str | None, dict[str, Any]]:
    """A deliberate answer for input (or an internal state) the core cannot handle."""
    internal = not isinstance(exc, BoundaryInputError)
    message = f"internal error ({type(exc).__name__}: {exc})" if internal else str(exc)
    phase, audit_file = Phase.ENFORCE, None
    try:
        s = setup(root_hint or os.getcwd(), environ)
        phase, audit_file = s.phase, s.audit_file
    except Exception:  # noqa: BLE001, S110 - even the setup failed: stay fail-closed
        pass
    rec = {
        "event": event,
        "decision": "none",
        "phase": phase.value,
        "error": message,
        "input_bytes": raw_len,
        "would_deny": None,
    }
    if internal:
        rec["traceback"] = traceback.format_exc(limit=8)
    line = f"orchestrator-boundary: cannot judge this call: {message}"
    if phase in (Phase.ENFORCE, Phase.ASK):
        rec["decision"] = "deny"
        return HookAnswer(2, "", line[:2000] + "\n"), audit_file, rec
    return HookAnswer(0, "", line[:2000] + "\n"), audit_file, rec


def evaluate(
    raw: bytes, environ: Mapping[str, str], *, event: str = PRE, clock: Any = time.time
) -> HookAnswer:
    """One hook invocation, start to finish; never raises."""
    started = time.perf_counter()
    payload: HookPayload | None = None
    audit_file: str | None = None
    try:
        payload = parse_payload(raw)
        s = setup(payload.cwd, environ)
        audit_file = s.audit_file
        verdict = judge(payload, s)
        answer = render(verdict)
        rec = record(payload, verdict, ts=clock(), trace=traces(payload, verdict, s.root) or None)
        max_bytes, keep = s.config.audit.max_bytes, s.config.audit.keep
    except Exception as exc:  # noqa: BLE001 - the one guard: every failure gets a verdict
        cwd = payload.cwd if payload is not None else ""
        answer, audit_file, rec = _bad_input(exc, len(raw), environ, event, cwd)
        if payload is not None:
            rec = {**record(payload, None, ts=clock()), **rec, "event": payload.hook_event_name}
        rec.setdefault("ts", iso(clock()))
        max_bytes, keep = 0, 20
    rec["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
    if rec.get("trace") is None:
        rec.pop("trace", None)
    return _with_audit(answer, audit_file, rec, max_bytes, keep)


def _with_audit(
    answer: HookAnswer, audit_file: str | None, rec: dict[str, Any], max_bytes: int, keep: int
) -> HookAnswer:
    try:
        if audit_file is None:  # no root known: the hook's working folder (may be gone: guarded)
            audit_file = os.path.join(os.getcwd(), ".claude", "boundary", "audit.jsonl")
        audit.write(audit_file, rec, max_bytes=max_bytes, keep=keep)
    except Exception as exc:  # noqa: BLE001 - never lose the verdict over the trail
        import json

        lost = json.dumps(rec, default=str)
        note = f"orchestrator-boundary: audit trail not writable ({exc}); record: {lost}\n"
        return HookAnswer(answer.exit_code, answer.stdout, answer.stderr + note)
    return answer


def read_stdin(stream: IO[bytes]) -> bytes:
    return stream.read(MAX_PAYLOAD_BYTES + 1)


def main(
    argv: list[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    environ: Mapping[str, str] | None = None,
    event: str = PRE,
) -> int:
    del argv
    raw = read_stdin(stdin if stdin is not None else sys.stdin.buffer)
    answer = evaluate(raw, os.environ if environ is None else environ, event=event)
    out, err = stdout or sys.stdout, stderr or sys.stderr
    if answer.stdout:
        out.write(answer.stdout + "\n")
        out.flush()
    if answer.stderr:
        err.write(answer.stderr)
        err.flush()
    return answer.exit_code


def pre_tool_use_main(argv: list[str] | None = None, **kw: Any) -> int:
    return main(argv, event=PRE, **kw)


def post_tool_use_main(argv: list[str] | None = None, **kw: Any) -> int:
    return main(argv, event=POST, **kw)
