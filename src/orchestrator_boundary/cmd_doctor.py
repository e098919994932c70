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
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from orchestrator_boundary import evaluators, hook_routes, registration, subagent_permissions
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.config import ConfigProblem, config_path, load_config
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.hook import setup
from orchestrator_boundary.phase import BYPASS_ENV, PHASE_ENV, bypass_requested

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
    plugin_dirs: tuple[str, ...] = ()  # --plugin-dir folders Claude Code is started with
    platform: str = sys.platform
    which: Callable[[str], str | None] | None = None  # shutil.which on the environment's PATH
    exists: Callable[[str], bool] = os.path.exists

    def find(self, name: str) -> str | None:
        if self.which is not None:
            return self.which(name)
        return shutil.which(name, path=self.environ.get("PATH"))

    def plugin_routes(self) -> list[hook_routes.PluginRoute]:
        return hook_routes.plugin_routes(
            [d for _s, _p, d, _ in self.settings()], self.environ, self.plugin_dirs
        )

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


def claude_version(ctx: Context) -> tuple[str | None, tuple[int, ...] | None, str]:
    """(the ``claude`` on PATH, its version, what went wrong). Asked once per doctor run."""
    exe = shutil.which("claude", path=ctx.environ.get("PATH"))
    if exe is None:
        return None, None, "claude is not on PATH here"
    key = (exe, ctx.environ.get("PATH"))
    if key not in _VERSIONS:
        _VERSIONS[key] = _ask_version(exe, ctx.environ)
    version, problem = _VERSIONS[key]
    return exe, version, problem


_VERSIONS: dict[tuple[str, str | None], tuple[tuple[int, ...] | None, str]] = {}


def _ask_version(exe: str, environ: Mapping[str, str]) -> tuple[tuple[int, ...] | None, str]:
    try:
        done = subprocess.run(
            [exe, "--version"],
            capture_output=True,
            text=True,
            timeout=15,
            env=dict(environ),
            check=False,
        )
        text = (done.stdout or "") + (done.stderr or "")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{exe} --version did not answer ({exc})"
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    if m is None:
        return None, f"{exe} --version printed no version: {text.strip()[:80]!r}"
    return tuple(int(g) for g in m.groups()), ""


def shown(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def check_claude(ctx: Context) -> Check:
    exe, version, problem = claude_version(ctx)
    if exe is None:
        return Check(
            "claude",
            WARN,
            problem,
            "install Claude Code >= 2.1.69, or ignore if it runs elsewhere",
        )
    if version is None:
        return Check("claude", WARN, problem, "check the Claude Code installation")
    if version < MIN_CLAUDE:
        return Check(
            "claude",
            FAIL,
            f"claude {shown(version)} at {exe} is older than 2.1.69: its payloads carry no "
            "agent_id, so subagents cannot be told from the main agent",
            "update Claude Code (npm install -g @anthropic-ai/claude-code)",
        )
    return Check("claude", OK, f"claude {shown(version)} at {exe}")


def check_on_failure(ctx: Context) -> Check:
    """Our entries carry ``onFailure: "block"`` exactly in enforce and ask (ADR 0024), and the
    installed CLI understands what they use (``onFailure`` 2.1.295+, exec form 2.1.139+)."""
    env = {k: v for k, v in ctx.environ.items() if k != PHASE_ENV}  # what `phase` writes
    try:
        phase = setup(ctx.root, {**env, "CLAUDE_PROJECT_DIR": ctx.root}).phase.value
    except BoundaryInputError as exc:
        return Check("onfailure", FAIL, str(exc), "")
    found = [(p, h) for e in se.EVENTS for p, h in _ours(ctx)[e]]
    if not found:
        return Check("onfailure", OK, "no registered entry to check")
    want = registration.on_failure(phase)
    off = sorted({p for p, h in found if h.get("onFailure") != want and p.endswith(".json")})
    _exe, version, _ = claude_version(ctx)
    if want and off:
        return Check(
            "onfailure",
            FAIL,
            f'phase {phase}, but entries in {", ".join(off)} lack "onFailure": "block": '
            "a hook that cannot start, crashes or times out would let the call through",
            f"run: orchestrator-boundary phase {phase}",
        )
    if off:
        return Check(
            "onfailure",
            WARN,
            f'phase {phase}, but entries in {", ".join(off)} carry "onFailure": "block": '
            "a broken hook would block every call",
            f"run: orchestrator-boundary phase {phase}",
        )
    exec_form = any(isinstance(h.get("args"), list) for _p, h in found)
    if version is not None and exec_form and version < registration.EXEC_FORM_SINCE:
        return Check(
            "onfailure",
            FAIL,
            f'claude {shown(version)} does not know exec-form hooks ("args", 2.1.139+): '
            "our entries would not start",
            "update Claude Code",
        )
    if want and version is not None and version < registration.ON_FAILURE_SINCE:
        return Check(
            "onfailure",
            WARN,
            f'claude {shown(version)} ignores "onFailure" (2.1.295+): a hook that cannot start '
            "lets the call through",
            "update Claude Code to 2.1.295 or later",
        )
    if want:
        which = "" if version else " (the CLI version is unknown here: 2.1.295+ honours it)"
        return Check(
            "onfailure", OK, f"phase {phase}: every entry blocks when it cannot run{which}"
        )
    return Check(
        "onfailure",
        OK,
        f"phase {phase}: no onFailure, so a hook that cannot run lets calls through "
        "(as warn and off intend)",
    )


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
    routes = ctx.plugin_routes()
    plugin = (
        "plugin (" + ", ".join(f"{r.why}: {r.root}" for r in routes) + ")"
        if routes
        else _plugin_enabled(ctx)
    )
    if not missing:
        where = sorted({p for e in se.EVENTS for p, _ in found[e]})
        if plugin:
            return Check(
                "hooks",
                WARN,
                "both routes are active: settings (" + ", ".join(where) + f") and {plugin}; "
                "every call is judged twice and recorded twice",
                "keep one: orchestrator-boundary uninstall, or disable the plugin",
            )
        return Check("hooks", OK, "PreToolUse and PostToolUse registered in " + ", ".join(where))
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


def argv_of(hook: Mapping[str, Any]) -> list[str]:
    """How Claude Code starts a hook entry on POSIX: exec form (``args``) directly, else the
    command through ``sh -c``."""
    args = hook.get("args")
    if isinstance(args, list):
        return [str(hook.get("command")), *map(str, args)]
    return ["sh", "-c", str(hook.get("command"))]


def _run_hook(
    argv: list[str], stdin: bytes, env: dict[str, str], timeout: float, cwd: str
) -> tuple[int | None, str, str]:
    try:
        proc = subprocess.Popen(
            argv,
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


def probe_command(
    event: str,
    command: str | Mapping[str, Any],
    timeout: float,
    environ: Mapping[str, str],
    project: str | None = None,
    extra_env: Mapping[str, str] | None = None,
) -> str:
    """'' when the hook entry (or a plain ``command``) behaves like our hook in a temporary
    project; else what went wrong. A project launcher (ADR 0023) is copied from ``project``
    into the temporary one, so it runs as it would here."""
    hook = {"command": command} if isinstance(command, str) else command
    argv = argv_of(hook)
    with tempfile.TemporaryDirectory(prefix="ob-doctor-") as tmp:
        root = os.path.realpath(tmp)
        os.makedirs(os.path.join(root, ".claude"))
        shim = os.path.join(project or "", *registration.SHIM_RELPATH.split("/"))
        if project and registration.SHIM_RELPATH in " ".join(argv) and os.path.isfile(shim):
            copy = os.path.join(root, *registration.SHIM_RELPATH.split("/"))
            os.makedirs(os.path.dirname(copy))
            shutil.copyfile(shim, copy)
        env = {k: v for k, v in environ.items() if not k.startswith(_GUARDED)}
        env.update(CLAUDE_PROJECT_DIR=root, CLAUDECODE="1", **(extra_env or {}))
        # judged in the probe's own process: a probe must leave no evaluator behind
        env["ORCHESTRATOR_BOUNDARY_NO_DAEMON"] = "1"
        target = os.path.join(root, "src", "doctor.py")
        code, out, err = _run_hook(
            argv, _payload(root, event, "Read", {"file_path": target}), env, timeout, root
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
            argv,
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


def _entries_to_probe(ctx: Context) -> list[tuple[str, str, dict[str, Any], dict[str, str]]]:
    """(event, where, entry, extra environment) for each of our entries, settings and plugin."""
    out: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
        (e, path, hook, {}) for e, found in _ours(ctx).items() for path, hook in found
    ]
    for route in ctx.plugin_routes():
        for event, hooks in route.hooks.items():
            out.extend(
                (event, f"{route.root}/hooks/hooks.json", h, {"CLAUDE_PLUGIN_ROOT": route.root})
                for h in hooks
            )
    return out


def check_commands_runnable(ctx: Context) -> Check:
    seen: set[tuple[str, str]] = set()
    problems = []
    count = 0
    for event, path, hook, extra in _entries_to_probe(ctx):
        command = json.dumps(hook, sort_keys=True) + json.dumps(extra)
        if (event, command) in seen:
            continue
        seen.add((event, command))
        count += 1
        timeout = hook.get("timeout")
        limit = float(timeout) if isinstance(timeout, int | float) and timeout > 0 else 600.0
        why = probe_command(event, hook, min(limit, RUN_TIMEOUT_S), ctx.environ, ctx.root, extra)
        if why:
            shown = " ".join(argv_of(hook)[2:] if "args" not in hook else argv_of(hook))
            problems.append(f"{event} command {shown!r} in {path}: {why}")
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


def plugin_hook_files(ctx: Context) -> list[str]:
    """``hooks/hooks.json`` of the plugins installed under the user's Claude folder, ours
    left out."""
    return [
        os.path.join(folder, "hooks", "hooks.json")
        for folder in hook_routes.installed_plugin_folders(ctx.environ)
        if not hook_routes.is_our_plugin(folder)
        and os.path.isfile(os.path.join(folder, "hooks", "hooks.json"))
    ]


def check_other_hooks(ctx: Context) -> Check:
    """Other hooks that see writes: in any settings file, or in an installed plugin."""
    others = []
    for _scope, path, data, _ in ctx.settings():
        for matcher, what in se.foreign_write_hooks(data or {}):
            others.append(f"{what!r} (matcher {matcher!r}) in {path}")
    for path in plugin_hook_files(ctx):
        try:
            data = se.parse_settings(se.read_text(path) or "", path)
        except se.SettingsError:
            continue
        for matcher, what in se.foreign_write_hooks(data):
            others.append(f"{what!r} (matcher {matcher!r}) in plugin {path}")
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


def check_subagent_writes(ctx: Context) -> Check:
    """Claude Code's own permission rules must leave subagents able to write (issue: a known
    failure denies background subagents their writes; enforce then leaves nothing to edit)."""
    files = [(s, p, d) for s, p, d, _ in ctx.settings()]
    found = subagent_permissions.findings(files)
    if not found:
        return Check("subagent-writes", OK, "Claude Code's permission rules let subagents write")
    try:
        phase = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root}).phase.value
    except BoundaryInputError:
        phase = "enforce"
    blocking = any(f.blocking for f in found)
    status = FAIL if blocking and phase in ("enforce", "ask") else WARN
    lead = f"in {phase}, nothing could edit: " if status == FAIL else "subagents' writes refused: "
    return Check(
        "subagent-writes",
        status,
        lead + "; ".join(f.message for f in found),
        'allow subagents to edit, e.g. "permissions": {"defaultMode": "acceptEdits"} or '
        'allow rules "Edit", "Write", and drop deny/ask rules on them',
    )


def check_windows_shell(ctx: Context) -> Check:
    """On Windows: the hooks run in the shell Claude Code will use (ADR 0023)."""
    if ctx.platform != "win32":
        return Check("windows-shell", OK, "not Windows: hook commands run in sh")
    entries = [h for _e, _p, h, _x in _entries_to_probe(ctx)]
    shell, problems = hook_routes.windows_shell_problems(entries, ctx.environ, ctx.find, ctx.exists)
    if problems:
        return Check(
            "windows-shell",
            FAIL,
            f"hooks run in {shell} here: " + "; ".join(problems),
            "install Git for Windows (or put its usr\\bin on PATH), and reinstall with "
            "orchestrator-boundary install from the Python that has the package",
        )
    return Check("windows-shell", OK, f"hooks run in {shell} here, and every entry starts there")


def check_evaluators(ctx: Context) -> Check:
    """How many resident evaluators this user runs, for which projects, and their memory;
    more than one for a project is a leak (ADR 0009: one per user and project)."""
    line, twice = evaluators.summary(evaluators.running())
    if twice:
        return Check(
            "evaluators",
            WARN,
            line + f"; more than one for {', '.join(twice)}",
            "they quit on their own after their idle time; or end them by pid",
        )
    return Check("evaluators", OK, line)


def check_mods(ctx: Context) -> Check:
    """Mods (Claude Code 2.1.287+, in-process plugin modules) can answer a tool call before
    plugin hooks run; managed settings can limit them to the organization's."""
    managed = next((d for s, _p, d, _ in ctx.settings() if s == "managed" and d), None)
    plugins = sorted(
        {
            str(name)
            for _s, _p, data, _ in ctx.settings()
            for name, on in ((data or {}).get("enabledPlugins") or {}).items()
            if on and "orchestrator-boundary" not in str(name)
        }
    )
    if managed is not None and se.mods_managed_only(managed):
        return Check("mods", OK, "managed settings limit mods to the organization's")
    if plugins:
        return Check(
            "mods",
            WARN,
            f"enabled plugins ({', '.join(plugins)}) may bring mods, which can answer a tool "
            "call before plugin hooks run, and hooks that run beside ours",
            "an admin can limit both: orchestrator-boundary install --scope managed "
            "--managed-only (allowManagedHooksOnly, allowManagedModsOnly)",
        )
    return Check("mods", OK, "no other plugin enabled; mods are not limited by policy")


CHECKS: tuple[Callable[[Context], Check], ...] = (
    check_claude,
    check_settings_files,
    check_hooks_registered,
    check_commands_runnable,
    check_on_failure,
    check_config,
    check_audit,
    check_phase,
    check_bypass,
    check_other_hooks,
    check_mods,
    check_subagent_writes,
    check_windows_shell,
    check_evaluators,
)


def diagnose(ctx: Context) -> list[Check]:
    _VERSIONS.clear()  # one answer per run, a fresh one for the next
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
    p.add_argument(
        "--plugin-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="a plugin folder Claude Code is started with (claude --plugin-dir DIR)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    environ = dict(os.environ)
    root = os.path.realpath(args.project or environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    dirs = tuple(os.path.abspath(d) for d in getattr(args, "plugin_dir", []) or [])
    ctx = Context(root, environ, environ.get("HOME") or None, plugin_dirs=dirs)
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
