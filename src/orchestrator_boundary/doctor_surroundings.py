"""``doctor``'s checks on what surrounds the hooks: ``onFailure`` against the phase and the CLI,
other hooks and mods that could answer first, Claude Code's permission rules for subagents, the
Windows hook shell, the resident evaluators and the committed project launcher."""

from __future__ import annotations

import os

from orchestrator_boundary import (
    evaluators,
    hook_routes,
    registration,
    subagent_permissions,
    user_scope,
    wire,
)
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.doctor_context import (
    FAIL,
    OK,
    WARN,
    Check,
    Context,
    claude_version,
    entries_to_probe,
    ours,
    shown,
)
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.phase import PHASE_ENV
from orchestrator_boundary.setups import setup


def check_on_failure(ctx: Context) -> Check:
    """Our entries carry ``onFailure: "block"`` exactly in enforce and ask (ADR 0024), and the
    installed CLI understands what they use (``onFailure`` 2.1.295+, exec form 2.1.139+).
    User-scope entries serve every project of the user: they block while any of those projects
    is in enforce or ask (ADR 0052)."""
    env = {k: v for k, v in ctx.environ.items() if k != PHASE_ENV}  # what `phase` writes
    try:
        phase = setup(ctx.root, {**env, "CLAUDE_PROJECT_DIR": ctx.root}).phase.value
    except BoundaryInputError as exc:
        return Check("onfailure", FAIL, str(exc), "")
    found = [(p, h) for e in registration.TOOL_EVENTS for p, h in ours(ctx)[e]]
    if not found:
        return Check("onfailure", OK, "no registered entry to check")
    want = registration.on_failure(phase)
    user = sf.settings_path("user", ctx.root, home=ctx.home, environ=ctx.environ)
    user_phase, held_by = user_scope.entries_phase(ctx.root, phase, env)
    wants = {user: registration.on_failure(user_phase)}
    off = sorted(
        {p for p, h in found if h.get("onFailure") != wants.get(p, want) and p.endswith(".json")}
    )
    if off:
        return _out_of_step(phase, off, user)
    _exe, version, _ = claude_version(ctx)
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
    held = any(p == user for p, _h in found) and held_by is not None
    return Check(
        "onfailure",
        OK,
        f"phase {phase}: your user-scope entries in {user} are one set for every project of "
        f'yours and keep "onFailure": "block" while {held_by} is in {user_phase}, so a hook '
        "that cannot run blocks calls here too"
        if held
        else f"phase {phase}: no onFailure, so a hook that cannot run lets calls through "
        "(as warn and off intend)",
    )


def _out_of_step(phase: str, off: list[str], user: str) -> Check:
    """The failure (or warning) for entries whose ``onFailure`` does not fit the phase."""
    want = registration.on_failure(phase)
    if want and user in off:
        return Check(
            "onfailure",
            FAIL,
            f'phase {phase}, but your user-scope entries in {user} lack "onFailure": "block": '
            "they are one set for every project of yours, last written for a project in warn "
            "or off; a hook that cannot start, crashes or times out would "
            "let this project's calls through",
            f"run here: orchestrator-boundary phase {phase} (the entries then block while any "
            "project of yours is in enforce or ask)",
        )
    if want:
        return Check(
            "onfailure",
            FAIL,
            f'phase {phase}, but entries in {", ".join(off)} lack "onFailure": "block": '
            "a hook that cannot start, crashes or times out would let the call through",
            f"run: orchestrator-boundary phase {phase}",
        )
    return Check(
        "onfailure",
        WARN,
        f'phase {phase}, but entries in {", ".join(off)} carry "onFailure": "block": '
        "a broken hook would block every call",
        f"run: orchestrator-boundary phase {phase}",
    )


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
            data = se.parse_settings(sf.read_text(path) or "", path)
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
    entries = [h for _e, _p, h, _x in entries_to_probe(ctx)]
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
    limited = any(  # by the managed file or any of its drop-ins
        s == "managed" and isinstance(d, dict) and se.mods_managed_only(d)
        for s, _p, d, _ in ctx.settings()
    )
    plugins = sorted(
        {
            str(name)
            for _s, _p, data, _ in ctx.settings()
            for name, on in ((data or {}).get("enabledPlugins") or {}).items()
            if on and "orchestrator-boundary" not in str(name)
        }
    )
    if limited:
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


def check_launcher(ctx: Context) -> Check:
    """The committed project launcher (ADR 0023) is the one this version writes: an older copy
    still works, but misses what changed since (the lookup order, speed, the events it knows)."""
    shim = os.path.join(ctx.root, *registration.SHIM_RELPATH.split("/"))
    try:
        with open(shim, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        return Check("launcher", OK, f"no committed {registration.SHIM_RELPATH} (not needed)")
    except (OSError, UnicodeDecodeError) as exc:
        return Check("launcher", FAIL, f"{registration.SHIM_RELPATH} unreadable: {exc}", "")
    if "\r" in text:
        return Check(
            "launcher",
            FAIL,
            f"{registration.SHIM_RELPATH} has Windows line endings (git's core.autocrlf): sh "
            "cannot run it, so every tool call is blocked, in warn too",
            "run: orchestrator-boundary install (it writes the launcher with LF and adds the "
            ".gitattributes line that keeps it so), then commit .gitattributes",
        )
    if text != registration.shim_text():
        return Check(
            "launcher",
            WARN,
            f"{registration.SHIM_RELPATH} differs from the one this version "
            f"({wire.package_version()}) writes: a teammate's newer or older package wrote it",
            "if your package is the older one, upgrade it and run: orchestrator-boundary "
            "install (commit nothing); if it is the newer one, run: orchestrator-boundary "
            "install, then commit it",
        )
    return Check("launcher", OK, f"{registration.SHIM_RELPATH} is current")
