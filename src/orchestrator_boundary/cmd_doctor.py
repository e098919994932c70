"""``orchestrator-boundary doctor``: is the boundary actually in force here? One line per check,
each with what to do. Every check is a small function returning a ``Check``; exit 1 when any
fails."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.config import ConfigProblem, config_path, load_config
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.phase import BYPASS_ENV, PHASE_ENV, bypass_requested
from orchestrator_boundary.setups import setup

MIN_CLAUDE = (2, 1, 69)  # first version whose payloads carry agent_id
RUN_TIMEOUT_S = 20.0
OK, WARN, FAIL = "ok", "warn", "fail"
_GUARDED = ("CLAUDE", "ORCHESTRATOR_BOUNDARY", "AMPLIFIER_BYPASS")


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Context:
    root: str
    environ: Mapping[str, str]
    home: str | None

    def settings(self) -> list[tuple[str, str, dict[str, Any] | None, str]]:
        """(scope, path, parsed or None, problem) for each settings file that exists."""
        out: list[tuple[str, str, dict[str, Any] | None, str]] = []
        for scope, path in se.all_settings_paths(self.root, home=self.home, environ=self.environ):
            try:
                text = se.read_text(path)
                if text is None:
                    continue
                out.append((scope, path, se.parse_settings(text, path), ""))
            except se.SettingsError as exc:
                out.append((scope, path, None, exc.problem))
            except OSError as exc:
                out.append((scope, path, None, f"cannot be read ({exc})"))
        return out


def check_claude(ctx: Context) -> Check:
    exe = shutil.which("claude", path=ctx.environ.get("PATH"))
    if exe is None:
        return Check(
            "claude",
            WARN,
            "claude is not on PATH here",
            "install Claude Code >= 2.1.69, or ignore if it runs elsewhere",
        )
    try:
        done = subprocess.run(
            [exe, "--version"],
            capture_output=True,
            text=True,
            timeout=15,
            env=dict(ctx.environ),
            check=False,
        )
        text = (done.stdout or "") + (done.stderr or "")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check(
            "claude",
            WARN,
            f"{exe} --version did not answer ({exc})",
            "check the Claude Code installation",
        )
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    if m is None:
        return Check(
            "claude",
            WARN,
            f"{exe} --version printed no version: {text.strip()[:80]!r}",
            "check the Claude Code installation",
        )
    version = tuple(int(g) for g in m.groups())
    shown = ".".join(m.groups())
    if version < MIN_CLAUDE:
        return Check(
            "claude",
            FAIL,
            f"claude {shown} at {exe} is older than 2.1.69: its payloads carry no "
            "agent_id, so subagents cannot be told from the main agent",
            "update Claude Code (npm install -g @anthropic-ai/claude-code)",
        )
    return Check("claude", OK, f"claude {shown} at {exe}")


def _ours(ctx: Context) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    found: dict[str, list[tuple[str, dict[str, Any]]]] = {e: [] for e in se.EVENTS}
    for _scope, path, data, _problem in ctx.settings():
        if data is None:
            continue
        for event, hooks in se.registered(data).items():
            found[event].extend((path, h) for h in hooks)
    return found


def _plugin_enabled(ctx: Context) -> str | None:
    for _scope, path, data, _ in ctx.settings():
        plugins = (data or {}).get("enabledPlugins")
        if isinstance(plugins, dict):
            for name, on in plugins.items():
                if on and "orchestrator-boundary" in str(name):
                    return f"plugin {name} enabled in {path}"
    return None


def check_settings_files(ctx: Context) -> Check:
    broken = [(p, why) for _s, p, d, why in ctx.settings() if d is None]
    if broken:
        path, why = broken[0]
        return Check(
            "settings",
            FAIL,
            f"{path}: {why}",
            "fix the file by hand; Claude Code may ignore it entirely",
        )
    return Check("settings", OK, "every settings file present is valid JSON")


def check_hooks_registered(ctx: Context) -> Check:
    found = _ours(ctx)
    missing = [e for e in se.EVENTS if not found[e]]
    if not missing:
        where = sorted({p for e in se.EVENTS for p, _ in found[e]})
        return Check("hooks", OK, "PreToolUse and PostToolUse registered in " + ", ".join(where))
    plugin = _plugin_enabled(ctx)
    if plugin:
        return Check("hooks", OK, f"registered through the {plugin}")
    if len(missing) == 2:
        return Check(
            "hooks",
            FAIL,
            "no orchestrator-boundary hooks in any settings file",
            "run: orchestrator-boundary install (or load the plugin with --plugin-dir)",
        )
    return Check(
        "hooks",
        FAIL,
        f"{missing[0]} hook not registered (only the other one is)",
        "run: orchestrator-boundary install",
    )


def _payload(root: str, event: str, tool: str, tool_input: dict[str, Any]) -> bytes:
    data: dict[str, Any] = {
        "session_id": "doctor",
        "transcript_path": "",
        "cwd": root,
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_doctor",
    }
    if event == "PostToolUse":
        data["tool_response"] = {}
    return json.dumps(data).encode()


def _run_hook(
    command: str, stdin: bytes, env: dict[str, str], timeout: float, cwd: str
) -> tuple[int | None, str, str]:
    try:
        proc = subprocess.Popen(
            ["sh", "-c", command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        return None, "", str(exc)
    try:
        out_b, err_b = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the whole group: no orphan keeps the pipes
        proc.communicate()
        return None, "", f"no answer within {timeout:g}s"
    return proc.returncode, out_b.decode(errors="replace"), err_b.decode(errors="replace")


def probe_command(event: str, command: str, timeout: float, environ: Mapping[str, str]) -> str:
    """'' when ``command`` behaves like our hook in a temporary project; else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="ob-doctor-") as tmp:
        root = os.path.realpath(tmp)
        os.makedirs(os.path.join(root, ".claude"))
        env = {k: v for k, v in environ.items() if not k.startswith(_GUARDED)}
        env.update(CLAUDE_PROJECT_DIR=root, CLAUDECODE="1")
        target = os.path.join(root, "src", "doctor.py")
        code, out, err = _run_hook(
            command, _payload(root, event, "Read", {"file_path": target}), env, timeout, root
        )
        if code != 0 or out.strip():
            return (
                f"main agent Read: exit {code}, stdout {out.strip()[:80]!r}, "
                f"stderr {err.strip()[:160]!r} (expected exit 0 and no output)"
            )
        if event != "PreToolUse":
            return ""
        env[PHASE_ENV] = "enforce"
        code, out, err = _run_hook(
            command,
            _payload(root, event, "Write", {"file_path": target, "content": "x\n"}),
            env,
            timeout,
            root,
        )
        try:
            decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"]
        except (ValueError, KeyError, TypeError):
            decision = None
        if code != 0 or decision != "deny":
            return (
                f"main agent Write in enforce: exit {code}, stdout {out.strip()[:80]!r}, "
                f"stderr {err.strip()[:160]!r} (expected a deny)"
            )
    return ""


def check_commands_runnable(ctx: Context) -> Check:
    found = _ours(ctx)
    seen: set[tuple[str, str]] = set()
    problems = []
    count = 0
    for event in se.EVENTS:
        for path, hook in found[event]:
            command = str(hook.get("command"))
            if (event, command) in seen:
                continue
            seen.add((event, command))
            count += 1
            timeout = hook.get("timeout")
            limit = float(timeout) if isinstance(timeout, int | float) and timeout > 0 else 600.0
            why = probe_command(event, command, min(limit, RUN_TIMEOUT_S), ctx.environ)
            if why:
                problems.append(f"{event} command {command!r} in {path}: {why}")
    if not count:
        return Check(
            "commands", WARN, "no registered command to try", "run: orchestrator-boundary install"
        )
    if problems:
        return Check(
            "commands",
            FAIL,
            problems[0] + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""),
            "reinstall from the interpreter that has the package: "
            "/path/to/python -m orchestrator_boundary.cli install",
        )
    return Check(
        "commands",
        OK,
        f"{count} registered command(s) answer as expected "
        "(Read passes, Write in enforce is denied)",
    )


def check_config(ctx: Context) -> Check:
    path = config_path(ctx.root, ctx.environ)
    loaded = load_config(path, ctx.home)
    if isinstance(loaded, ConfigProblem):
        return Check(
            "config",
            FAIL,
            f"{loaded} (writes are blocked until it is fixed)",
            f"fix {loaded.key or 'the file'} in {loaded.file}, then run doctor again",
        )
    state = "valid" if os.path.exists(path) else "absent (defaults apply)"
    fix = "" if os.path.exists(path) else "run: orchestrator-boundary install (writes a starter)"
    return Check("config", OK, f"{path}: {state}", fix)


def check_audit(ctx: Context) -> Check:
    try:
        s = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root})
    except BoundaryInputError as exc:
        return Check("audit", FAIL, str(exc), "pass --project with an absolute, existing folder")
    path = s.audit_file
    directory = os.path.dirname(path)
    if os.path.exists(path):
        if os.path.isdir(path) or not os.access(path, os.W_OK):
            return Check(
                "audit",
                FAIL,
                f"{path} is not a writable file",
                "fix its permissions or [audit] path in the config",
            )
        return Check("audit", OK, f"{path} writable")
    cur = directory
    while not os.path.exists(cur):
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    if not os.path.isdir(cur) or not os.access(cur, os.W_OK | os.X_OK):
        what = "is not a folder" if not os.path.isdir(cur) else "is not writable"
        return Check(
            "audit",
            FAIL,
            f"cannot create {directory}: {cur} {what}",
            "fix it, or point [audit] path in the config somewhere writable",
        )
    return Check("audit", OK, f"{directory} can be created/written")


def check_phase(ctx: Context) -> Check:
    try:
        s = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root})
    except BoundaryInputError as exc:
        return Check("phase", FAIL, str(exc), "")
    if s.problem:
        return Check(
            "phase",
            FAIL,
            f"enforce (broken config: {s.problem})",
            "fix the config; orchestrator-boundary phase shows the result",
        )
    message = f"{s.phase.value} (from {s.phase_source})"
    if s.phase_source == "environment":
        return Check(
            "phase",
            WARN,
            message + f"; {PHASE_ENV} overrides the config here",
            f"unset {PHASE_ENV} to use the config's phase",
        )
    if s.phase.value == "off":
        return Check(
            "phase",
            WARN,
            message + "; nothing is recorded or blocked",
            "orchestrator-boundary phase warn",
        )
    return Check("phase", OK, message)


def check_bypass(ctx: Context) -> Check:
    if bypass_requested(ctx.environ):
        return Check(
            "bypass",
            WARN,
            f"{BYPASS_ENV} is set in this environment: hooks started "
            "from here let every write through",
            f"unset {BYPASS_ENV}",
        )
    return Check("bypass", OK, f"{BYPASS_ENV} not set")


def check_other_hooks(ctx: Context) -> Check:
    others = []
    for _scope, path, data, _ in ctx.settings():
        for matcher, what in se.foreign_write_hooks(data or {}):
            others.append(f"{what!r} (matcher {matcher!r}) in {path}")
    if others:
        return Check(
            "other-hooks",
            WARN,
            "another PreToolUse hook sees Write/Edit and could answer allow: "
            + "; ".join(others)
            + " — it would not override a deny, but worth knowing",
            "make sure it answers nothing rather than allow for writes",
        )
    return Check("other-hooks", OK, "no other PreToolUse hook sees Write/Edit")


CHECKS: tuple[Callable[[Context], Check], ...] = (
    check_claude,
    check_settings_files,
    check_hooks_registered,
    check_commands_runnable,
    check_config,
    check_audit,
    check_phase,
    check_bypass,
    check_other_hooks,
)


def diagnose(ctx: Context) -> list[Check]:
    out = []
    for check in CHECKS:
        try:
            out.append(check(ctx))
        except Exception as exc:  # noqa: BLE001 - one broken check must not hide the others
            out.append(
                Check(
                    check.__name__.removeprefix("check_"),
                    FAIL,
                    f"the check itself failed: {type(exc).__name__}: {exc}",
                    "",
                )
            )
    return out


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check that the boundary is installed and working here")
    p.add_argument("--project", default=None, help="project root (default: current directory)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    environ = dict(os.environ)
    root = os.path.realpath(args.project or environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    ctx = Context(root, environ, environ.get("HOME") or None)
    checks = diagnose(ctx)
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        print(
            json.dumps(
                {"ok": not failed, "project": root, "checks": [asdict(c) for c in checks]},
                ensure_ascii=False,
            )
        )
    else:
        for c in checks:
            line = f"{c.status.upper():4} {c.name}: {c.message}"
            if c.fix and c.status != OK:
                line += f"  -> {c.fix}"
            print(line)
    return 1 if failed else 0
