"""``orchestrator-boundary doctor``: is the boundary actually in force here? One line per check,
each with what to do. Every check is a small function returning a ``Check``; exit 1 when any
fails. The checks on what surrounds the hooks live in ``doctor_surroundings``."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from orchestrator_boundary import doctor_hooks_off, registration, wire
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.cli_project import PROJECT_HELP, find_root, for_project, trail_environ
from orchestrator_boundary.config import ConfigProblem, config_notes, config_path, load_config
from orchestrator_boundary.doctor_agents import check_agent_definitions
from orchestrator_boundary.doctor_context import (
    FAIL,
    MIN_CLAUDE,
    OK,
    RUN_TIMEOUT_S,
    WARN,
    Check,
    Context,
    claude_version,
    entries_to_probe,
    forget_versions,
    ours,
    plugin_enabled,
    reinstall_command,
    shown,
)
from orchestrator_boundary.doctor_hooks_off import check_hooks_disabled, check_settings_env
from orchestrator_boundary.doctor_probe import argv_of, probe_command
from orchestrator_boundary.doctor_start import (
    check_committed,
    check_start_folder,
    registered_twice,
)
from orchestrator_boundary.doctor_surroundings import (
    check_evaluators,
    check_launcher,
    check_mods,
    check_on_failure,
    check_other_hooks,
    check_subagent_writes,
    check_windows_shell,
)
from orchestrator_boundary.doctor_trail import check_impostor, check_trail
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.phase import BYPASS_ENV, PHASE_ENV, bypass_requested
from orchestrator_boundary.setups import setup

__all__ = ["Check", "Context", "check_windows_shell", "diagnose", "probe_command"]


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


def check_settings_files(ctx: Context) -> Check:
    files = ctx.settings()
    broken = [(p, why) for _s, p, d, why in files if d is None]
    if broken:
        return Check(
            "settings",
            FAIL,
            f"{broken[0][0]}: {broken[0][1]}: Claude Code ignores the whole file (seen on "
            "2.1.330: none of its hooks run and none of its permissions apply)",
            "fix the file by hand (JSON allows no comments and no trailing commas), then run "
            "orchestrator-boundary doctor again",
        )
    if odd := [f"{p}: {se.shape_problem(d)}" for _s, p, d, _ in files if se.shape_problem(d)]:
        return Check(
            "settings",
            FAIL,
            f"{odd[0]}: Claude Code cannot run the hooks registered there, and install will "
            "not edit the file",
            "fix it by hand (.claude/settings.example.json shows the shape), then run "
            "orchestrator-boundary install again",
        )
    return Check("settings", OK, "every settings file present is valid JSON")


def check_hooks_registered(ctx: Context) -> Check:
    found = ours(ctx)
    missing = [e for e in registration.TOOL_EVENTS if not found[e]]
    routes = ctx.plugin_routes()
    plugin = (
        "plugin (" + ", ".join(f"{r.why}: {r.root}" for r in routes) + ")"
        if routes
        else plugin_enabled(ctx)
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
        twice = [p for p in where if sum(q == p for q, _ in found["PreToolUse"]) != 1]
        if len(where) > 1 or twice:
            return registered_twice(ctx, where)
        return check_lifecycle_registered(found, where)
    if plugin:
        lacking = [
            e
            for e in (*registration.OBSERVE_EVENTS, *registration.LIFECYCLE_EVENTS)
            if routes and not any(r.hooks[e] for r in routes)
        ]
        if lacking:
            return Check(
                "hooks",
                WARN,
                f"registered through the {plugin}, but its hooks.json lacks {', '.join(lacking)}: "
                + without(lacking),
                "update the plugin to this version of orchestrator-boundary",
            )
        return Check("hooks", OK, f"registered through the {plugin}")
    if len(missing) == len(registration.TOOL_EVENTS):
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


def without(lacking: list[str]) -> str:
    """What a project misses without the observed and lifecycle events in ``lacking``."""
    misses = []
    if "PostToolUseFailure" in lacking:
        misses.append("a Bash command that fails is not compared with its analysis (field check)")
    if any(e in registration.LIFECYCLE_EVENTS for e in lacking):
        misses.append(
            "delegation deliverables are not checked, there is no stop summary, and delegation"
            " state is only cleaned by its bounds"
        )
    return "; ".join(misses)


def check_lifecycle_registered(found: dict[str, list[Any]], where: list[str]) -> Check:
    """The tool events are registered; a missing lifecycle event is a finding (ADR 0033)."""
    lacking = [
        e for e in (*registration.OBSERVE_EVENTS, *registration.LIFECYCLE_EVENTS) if not found[e]
    ]
    if lacking:
        return Check(
            "hooks",
            WARN,
            f"PreToolUse and PostToolUse registered in {', '.join(where)}, but not "
            f"{', '.join(lacking)}: " + without(lacking),
            "run: orchestrator-boundary install",
        )
    return Check("hooks", OK, f"{', '.join(se.EVENTS)} registered in {', '.join(where)}")


def check_commands_runnable(ctx: Context) -> Check:
    seen: set[tuple[str, str]] = set()
    problems = []
    count = 0
    for event, path, hook, extra in entries_to_probe(ctx):
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
            "reinstall from the interpreter that has the package, e.g. this one: "
            + reinstall_command(ctx.platform),
        )
    return doctor_hooks_off.cached_interpreter(ctx) or Check(
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
    notes = config_notes(loaded)  # tool names no current tool has: allowed, but likely typos
    if notes:
        return Check(
            "config",
            WARN,
            f"{path}: {state}, but " + " ".join(notes),
            "correct the names the notes point at: a name no tool has matches nothing",
        )
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


CHECKS: tuple[Callable[[Context], Check], ...] = (
    check_claude,
    check_settings_files,
    check_hooks_registered,
    check_hooks_disabled,
    check_start_folder,
    check_commands_runnable,
    check_launcher,
    check_committed,
    check_on_failure,
    check_config,
    check_agent_definitions,
    check_audit,
    check_phase,
    check_bypass,
    check_settings_env,
    check_other_hooks,
    check_mods,
    check_subagent_writes,
    check_windows_shell,
    check_evaluators,
    check_impostor,  # issue 13 point 3
    check_trail,  # issue 13 point 6: the hash chain
)


def diagnose(ctx: Context) -> list[Check]:
    forget_versions()
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
    p.add_argument("--project", default=None, help=PROJECT_HELP)
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
    root = os.path.realpath(find_root(args.project, os.environ))
    environ = trail_environ(root, os.environ)
    dirs = tuple(os.path.abspath(d) for d in getattr(args, "plugin_dir", []) or [])
    start = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    ctx = Context(root, environ, wire.user_home(environ), plugin_dirs=dirs, start=start)
    checks = [replace(c, fix=for_project(c.fix, root)) for c in diagnose(ctx)]
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
