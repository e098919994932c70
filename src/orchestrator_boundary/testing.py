"""Helpers for testing a ``boundary.toml`` against the REAL hook (used by the pytest plugin,
usable without it): payloads shaped like Claude Code's, one hook run in a subprocess, and
captured JSONL cases with ``expect`` fields. See docs/testing-your-config.md.

Kept apart from ``pytest_plugin`` so that importing these from a test module never imports the
plugin module before pytest registers it (which would defeat its assertion rewriting).
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orchestrator_boundary import registration, wire

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)
# what the hook reads from its environment; cleared so the developer's shell cannot leak in
OWN_ENV = (
    wire.PROJECT_DIR_ENV,
    wire.PHASE_ENV,
    wire.CONFIG_ENV,
    wire.BYPASS_ENV,
    wire.PLUGIN_ROOT_ENV,
)
PATH_KEYS = ("file_path", "notebook_path")


# ---------------------------------------------------------------------------- payloads


def make_payload(
    tool: str = "Write",
    input: Mapping[str, Any] | None = None,
    *,
    agent_type: str | None = None,
    subagent: bool = False,
    event: str = "PreToolUse",
    cwd: str | os.PathLike[str] = ".",
    session_id: str | None = None,
    permission_mode: str = "acceptEdits",
    tool_response: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    """A hook payload like the real CLI's (see the protocol notes)."""
    root = os.path.abspath(os.fspath(cwd))
    tool_input = dict(input or {})
    for key in PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value and not _is_abs(value):
            tool_input[key] = os.path.join(root, value)
    if tool == "Write" and "file_path" in tool_input:
        tool_input.setdefault("content", "")
    sid = session_id or str(uuid.uuid4())
    payload: dict[str, Any] = {
        "session_id": sid,
        "transcript_path": os.path.join(
            os.path.expanduser("~"),
            ".claude",
            "projects",
            root.replace(os.sep, "-"),
            f"{sid}.jsonl",
        ),
        "cwd": root,
        "permission_mode": permission_mode,
    }
    if subagent:
        payload["agent_id"] = "a" + uuid.uuid4().hex[:16]
    if agent_type is not None:  # without subagent=True: a main thread run with --agent NAME
        payload["agent_type"] = agent_type
    payload.update(
        hook_event_name=event,
        tool_name=tool,
        tool_input=tool_input,
        tool_use_id="toolu_" + uuid.uuid4().hex[:24],
    )
    if event == "PostToolUse":
        payload["tool_response"] = tool_response if tool_response is not None else {}
    payload.update(extra)
    return payload


def _is_abs(p: str) -> bool:
    return os.path.isabs(p) or (len(p) > 2 and p[1] == ":" and p[2] in "\\/")


# ---------------------------------------------------------------------------- the hook


@dataclass(frozen=True)
class BoundaryAnswer:
    """What the hook answered, as Claude Code would read it."""

    exit_code: int
    stdout: str
    stderr: str
    output: dict[str, Any] | None  # stdout parsed as JSON, None when empty / not JSON
    decision: str  # "deny" | "ask" | "warn" | "none" | "block"
    reason: str  # the text the model would see ("" for none)
    record: dict[str, Any] | None = None  # the audit line the call wrote, when found
    command: list[str] = field(default_factory=list)

    @property
    def code(self) -> str | None:
        return (self.record or {}).get("code")

    @property
    def rule(self) -> str | None:
        return (self.record or {}).get("rule")

    @property
    def would_deny(self) -> bool | None:
        return (self.record or {}).get("would_deny")

    def mismatch(self, expect: Any) -> str:
        """'' when the answer meets ``expect`` (a decision or a dict of fields), else why not."""
        wanted = {"decision": expect} if isinstance(expect, str) else expect
        if not isinstance(wanted, Mapping):
            return f"unusable expect {expect!r}"
        have = {
            "decision": self.decision,
            "exit_code": self.exit_code,
            "code": self.code,
            "rule": self.rule,
            "would_deny": self.would_deny,
        }
        bad = [
            f"{k}={have.get(k, (self.record or {}).get(k))!r} (expected {v!r})"
            for k, v in wanted.items()
            if have.get(k, (self.record or {}).get(k)) != v
        ]
        return "; ".join(bad)


def hook_command(event: str = "PreToolUse") -> list[str]:
    """The hook's real entry point, exactly as ``install`` registers it in local, user and
    managed settings (``registration.direct_entry``): this Python with ``-I -S`` running the
    package's ``launcher.py`` with the event. A project install's committed ``launch.sh``
    ends in the same command."""
    if event not in registration.EVENTS:
        raise ValueError(f"event must be one of {', '.join(registration.EVENTS)}, not {event!r}")
    return registration.entry_argv(registration.direct_entry(event))


def _decision(
    event: str,
    exit_code: int,
    out: dict[str, Any] | None,
    stderr: str,
    record: dict[str, Any] | None,
) -> tuple[str, str]:
    if exit_code == 2:
        return ("deny" if event == "PreToolUse" else "block"), stderr.strip()
    out = out or {}
    if out.get("decision") == "block":
        return "block", str(out.get("reason", ""))
    specific = out.get("hookSpecificOutput") or {}
    if specific.get("permissionDecision") in ("deny", "ask"):
        return specific["permissionDecision"], str(specific.get("permissionDecisionReason", ""))
    context = str(specific.get("additionalContext", ""))
    if record is not None and record.get("decision") == "warn":
        return "warn", context
    if record is None and "(warn phase" in context:
        return "warn", context
    return "none", ""


def _audit_file(project: str, config_file: str | None, home: str | None) -> str:
    from orchestrator_boundary.config import DEFAULT_CONFIG_PATH, Config, load_config

    loaded = load_config(config_file or os.path.join(project, DEFAULT_CONFIG_PATH), home)
    from orchestrator_boundary.audit import trail_path

    path = loaded.audit.path if isinstance(loaded, Config) else Config().audit.path
    return trail_path(project, path)


def _last_record(path: str, offset: int, tool_use_id: str) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            lines = fh.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and (not tool_use_id or rec.get("tool_use_id") == tool_use_id):
            return rec
    return None


def _config_file(
    project: str,
    config: str | None,
    config_file: str | os.PathLike[str] | None,
    scratch: str | None,
) -> str | None:
    """The config the hook is to read: TOML text written to a scratch file, or a path."""
    if config is not None and config_file is not None:
        raise ValueError("give config (TOML text) or config_file (a path), not both")
    if config is not None:
        where = Path(scratch or project) / ".boundary-test-config.toml"
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(config, encoding="utf-8")
        return str(where)
    if config_file is not None:
        return os.path.abspath(os.fspath(config_file))
    return None


def _hook_environ(project: str, cfg: str | None, phase: str | None) -> dict[str, str]:
    """This process's environment without the project's own variables, set for one run."""
    environ = {k: v for k, v in os.environ.items() if k not in OWN_ENV}
    environ[wire.PROJECT_DIR_ENV] = project
    environ["PYTHONPATH"] = os.pathsep.join(
        [PACKAGE_PARENT, *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    if cfg:
        environ[wire.CONFIG_ENV] = cfg
    if phase:
        environ[wire.PHASE_ENV] = phase
    # judged in the hook process itself: no resident evaluator outlives the test run (the
    # verdicts are the same either way, tests/test_daemon.py)
    environ.setdefault(wire.NO_DAEMON_ENV, "1")
    return environ


def run_hook(
    payload: Mapping[str, Any] | bytes | str,
    *,
    project: str | os.PathLike[str],
    config: str | None = None,
    config_file: str | os.PathLike[str] | None = None,
    phase: str | None = None,
    env: Mapping[str, str] | None = None,
    event: str | None = None,
    timeout: float = 60,
    scratch: str | None = None,
) -> BoundaryAnswer:
    """Run the real hook once on ``payload`` in ``project`` and read its answer."""
    project = os.path.abspath(os.fspath(project))
    if isinstance(payload, Mapping):
        event = event or str(payload.get("hook_event_name", "PreToolUse"))
        raw = json.dumps(payload).encode()
        tool_use_id = str(payload.get("tool_use_id", ""))
    else:
        raw = payload.encode() if isinstance(payload, str) else payload
        event, tool_use_id = event or "PreToolUse", ""
    environ = _hook_environ(project, _config_file(project, config, config_file, scratch), phase)
    environ.update(env or {})
    trail = _audit_file(project, environ.get(wire.CONFIG_ENV), wire.user_home(environ))
    try:
        offset = os.path.getsize(trail)
    except OSError:
        offset = 0
    command = hook_command(event)
    proc = subprocess.run(
        command,
        input=raw,
        capture_output=True,
        cwd=project,
        env=environ,
        timeout=timeout,
        check=False,
    )
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    try:
        parsed = json.loads(stdout) if stdout.strip() else None
    except ValueError:
        parsed = None
    output = parsed if isinstance(parsed, dict) else None
    record = _last_record(trail, offset, tool_use_id)
    decision, reason = _decision(event, proc.returncode, output, stderr, record)
    return BoundaryAnswer(
        proc.returncode, stdout, stderr, output, decision, reason, record, command
    )


# ---------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class BoundaryCase:
    payload: dict[str, Any]
    expect: Any
    where: str  # "file:line"

    def payload_in(self, project: str | os.PathLike[str]) -> dict[str, Any]:
        """The payload moved into ``project``: strings under its captured cwd are rebased."""
        old = str(self.payload.get("cwd", "")).rstrip("/\\")
        new = os.path.abspath(os.fspath(project))
        if not old:
            return {**self.payload, "cwd": new}

        def move(value: Any) -> Any:
            under = isinstance(value, str) and value.startswith((old + "/", old + "\\"))
            if isinstance(value, str) and (value == old or under):
                return new + value[len(old) :].replace("\\", os.sep)
            if isinstance(value, dict):
                return {k: move(v) for k, v in value.items()}
            if isinstance(value, list):
                return [move(v) for v in value]
            return value

        moved: dict[str, Any] = move(self.payload)
        moved["transcript_path"] = self.payload.get("transcript_path", "")
        return moved


def load_cases(*files: str | os.PathLike[str], require_expect: bool = True) -> list[Any]:
    """``pytest.param`` objects (id ``file:line``) of ``BoundaryCase`` from JSONL files."""
    import pytest

    params = []
    for name in files:
        path = Path(name)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError(f"{path}:{n}: expected a JSON object")
            expect = data.pop("expect", None)
            if expect is None and require_expect:
                continue
            where = f"{path.name}:{n}"
            params.append(pytest.param(BoundaryCase(data, expect, where), id=where))
    return params


__all__ = [
    "BoundaryAnswer",
    "BoundaryCase",
    "hook_command",
    "load_cases",
    "make_payload",
    "run_hook",
]
