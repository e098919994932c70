"""``orchestrator-boundary phase [PHASE]``: show the effective phase and where it comes from, or
set ``phase`` in ``.claude/boundary.toml`` keeping its comments and layout. The one-command
rollback is ``orchestrator-boundary phase warn``."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from orchestrator_boundary import audit, registration, user_scope, wire
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.cli_project import (
    PROJECT_HELP,
    find_root,
    for_project,
    trail_environ,
)
from orchestrator_boundary.cmd_report import NoReport, project_report
from orchestrator_boundary.config import (
    Config,
    config_notes,
    config_path,
    load_config,
    parse_config,
)
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.phase import PHASE_ENV, Phase, env_phase
from orchestrator_boundary.report import Report
from orchestrator_boundary.setups import audit_setting, setup


def register(sub: Any) -> None:
    p = sub.add_parser("phase", help="show the effective phase, or set it in .claude/boundary.toml")
    p.add_argument(
        "value",
        nargs="?",
        choices=[ph.value for ph in Phase],
        metavar="PHASE",
        help="off, warn, ask or enforce; leave out to show the current one",
    )
    p.add_argument("--project", default=None, help=PROJECT_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--force",
        action="store_true",
        help="switch to enforce even when the report says NOT READY",
    )
    p.set_defaults(func=run)


def effective(root: str, environ: Mapping[str, str]) -> dict[str, Any]:
    """The phase the hooks would use now, its source and any config problem."""
    s = setup(root, {**environ, "CLAUDE_PROJECT_DIR": root})
    env_value, _ = env_phase(environ)
    return {
        "phase": s.phase.value,
        "source": s.phase_source,
        "config_file": s.config_file,
        "problem": str(s.problem) if s.problem else None,
        "environment": env_value.value if env_value else environ.get(PHASE_ENV) or None,
    }


def set_phase_text(text: str, value: str) -> str:
    """``text`` with its top-level ``phase`` set to ``value``; comments and layout kept."""
    doc = tomlkit.parse(text)
    doc["phase"] = value
    return tomlkit.dumps(doc)


def hooks_in_step(root: str, phase: str, environ: Mapping[str, str]) -> list[str]:
    """Bring our entries in the settings files that guard the project in step with ``phase``:
    their ``onFailure`` (ADR 0024) and the launcher's fallback phase (ADR 0023). The user's
    own settings count too: a user-scope install guards this project through them (and every
    other project of the user's, so the note of ``text_report`` says so). The files changed."""
    changed = []
    for scope in ("project", "local", "user"):
        path = sf.settings_path(scope, root, environ=environ)
        text = sf.read_text(path)
        if text is None:
            continue
        data = se.parse_settings(text, path)
        step = phase
        if scope == "user" and any(se.registered(data).values()):
            user_scope.remember(root, environ)  # one set of entries for all: ADR 0052
            step = user_scope.entries_phase(root, phase, environ)[0]
        change = se.in_step(data, step, path)
        if change.changed:
            new = se.render_settings(text, change.old, change.new)
            sf.write_atomic(path, new, backup_to=sf.backup_dir(environ))
            changed.append(path)
    return changed


def readiness(root: str, environ: Mapping[str, str], today: date | None = None) -> Report | str:
    """The rollout report for the project's trail (ADR 0012, 0025) exactly as ``report`` makes
    it, or why there is none."""
    try:
        made = project_report(root, environ, today or datetime.now(UTC).date())
    except NoReport as exc:
        return str(exc).rstrip(".")  # a clause of the refusal's sentence
    return made.report


def not_ready(root: str, environ: Mapping[str, str], rep: Report | str | None = None) -> str:
    """'' when the report says READY; else why not, in one paragraph."""
    rep = readiness(root, environ) if rep is None else rep
    if isinstance(rep, str):
        return rep
    if rep.ready:
        return ""
    missing = [f"{c.label}: {c.value} (needs {c.needed})" for c in rep.criteria if not c.ok]
    return "the report says NOT READY: " + "; ".join(missing or ["no criteria met"])


def run(args: argparse.Namespace) -> int:
    root = find_root(args.project, os.environ)
    environ = trail_environ(root, os.environ)
    out: dict[str, Any] = {"changed": False, "notes": []}
    if args.value == Phase.ENFORCE.value and not getattr(args, "force", False):
        refusal = enforce_refusal(root, environ)
        if refusal:
            return _fail(args, for_project(refusal, root))
    if args.value is not None and not args.project:
        stray = stray_folder(root, args.value, environ)
        if stray:
            return _fail(args, stray)
    if args.value is not None:
        failure = _set(root, args.value, environ, out)
        if failure:
            return _fail(args, failure)
    try:
        out.update(effective(root, environ))
    except BoundaryInputError as exc:
        return _fail(args, str(exc))
    out["notes"].extend(environment_notes(out, args.value))
    if out["phase"] != Phase.OFF.value:
        out["notes"].extend(unguarded_notes(root, environ))
    if args.value == Phase.ENFORCE.value:
        out["config_notes"] = project_config_notes(root, environ)
    out["notes"] = [for_project(note, root) for note in out["notes"]]
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(text_report(out, args.value))
    return 1 if out["problem"] else 0


def stray_folder(root: str, value: str, environ: Mapping[str, str]) -> str:
    """'' when ``root`` is a project to set the phase of; else why not. Run without
    ``--project`` in a folder with no config here or above and no hooks of ours registered
    for it, ``phase warn`` would write a config nothing reads and report success, while the
    project meant stays in enforce (ADR 0052)."""
    if environ.get("CLAUDE_PROJECT_DIR") or os.path.exists(config_path(root, environ)):
        return ""
    for scope in ("project", "local", "user"):
        path = sf.settings_path(scope, root, environ=environ)
        try:
            text = sf.read_text(path)
            if text and any(se.registered(se.parse_settings(text, path)).values()):
                return ""
        except se.SettingsError:
            continue
    return (
        f"{root} is not a guarded project: no .claude/boundary.toml here or in a folder above, "
        "and no orchestrator-boundary hooks in its settings; nothing changed. Run this in the "
        f"project's folder, or name it: orchestrator-boundary phase {value} --project DIR"
    )


def enforce_refusal(
    root: str,
    environ: Mapping[str, str],
    *,
    doing: str = "switching to enforce",
    first: str = "",
    override: str = "orchestrator-boundary phase enforce --force",
) -> str:
    """'' when switching to enforce may go ahead; else why not and how to force it. ``install
    --phase enforce`` asks the same (ADR 0052), with its own words for what it does, what to
    do first and how to override."""
    if effective(root, environ)["phase"] == Phase.ENFORCE.value:
        return ""
    rep = readiness(root, environ)
    why = not_ready(root, environ, rep).rstrip(".")
    if not why:
        return ""
    # no report at all (no trail, a broken config): doctor says why; else the report does
    see = "Run: orchestrator-boundary doctor." if isinstance(rep, str) else ""
    return (
        f"not {doing}: {why}{'' if why.endswith('?') else '.'} "
        f"{first or see or 'See: orchestrator-boundary report.'} "
        f"To enforce anyway: {override}"
    )


def _set(root: str, value: str, environ: Mapping[str, str], out: dict[str, Any]) -> str:
    """Write ``phase = value`` and bring the hook entries in step; '' or why it failed."""
    path = config_path(root, environ)
    try:
        old = sf.read_text(path)
        new = set_phase_text(old or "", value)
    except (TOMLKitError, se.SettingsError) as exc:
        return f"{path}: cannot set the phase, the file is not valid TOML ({exc}); left unchanged"
    if new != old:
        try:
            sf.write_atomic(path, new, backup=False)
        except OSError as exc:
            return f"{path}: cannot write ({exc})"
        out["changed"] = True
    out["set"] = value
    try:
        out["hooks_in_step"] = hooks_in_step(root, value, environ)
    except se.SettingsError as exc:
        why = f". {se.IGNORED}" if exc.problem.startswith("not valid JSON") else ""
        out["notes"].append(
            f"the hook entries were not brought in step: {exc}{why}. Fix the file by hand, "
            "then run: orchestrator-boundary install"
        )
    except OSError as exc:
        out["notes"].append(
            f"the hook entries were not brought in step ({exc}); run: orchestrator-boundary install"
        )
    out["notes"].extend(in_step_notes(root, value, environ, out.get("hooks_in_step", [])))
    checked = parse_config(new, path)
    if not isinstance(checked, Config):
        out["notes"].append(
            f"the config is still broken ({checked}); writes stay blocked until it is fixed"
        )
    return ""


def unguarded_notes(root: str, environ: Mapping[str, str]) -> list[str]:
    """Nothing when a settings file Claude Code reads for ``root`` registers our PreToolUse hook
    or enables our plugin; else that no phase guards anything yet. ``phase enforce`` on a
    project without hooks said "set" and exited 0, and nothing was judged or recorded."""
    for _scope, _path, data in sf.parsed_settings(root, environ=environ):
        if se.registered(data)["PreToolUse"]:
            return []
        plugins = data.get("enabledPlugins")
        if isinstance(plugins, dict) and any(
            on and "orchestrator-boundary" in str(name) for name, on in plugins.items()
        ):
            return []
    named = f'"{root}"' if " " in root else root
    return [
        f"no settings file Claude Code reads for {root} registers the orchestrator-boundary "
        "hooks, so no call is judged or recorded in any phase; run: orchestrator-boundary "
        f"install --project {named} (or start Claude Code with --plugin-dir)"
    ]


def in_step_notes(
    root: str, value: str, environ: Mapping[str, str], changed: list[str]
) -> list[str]:
    """What a person must know about the settings files ``phase`` changed."""
    notes = []
    if sf.settings_path("project", root, environ=environ) in changed:
        notes.append(
            "commit .claude/settings.json with .claude/boundary.toml: teammates' hooks read both"
        )
    user = sf.settings_path("user", root, environ=environ)
    try:
        text = sf.read_text(user)
        mine = text is not None and any(se.registered(se.parse_settings(text, user)).values())
    except se.SettingsError:
        mine = False
    if not mine:
        return notes
    step, held_by = user_scope.entries_phase(root, value, environ)
    shared = f"{user} holds your user-scope hooks, one set for every project of yours"
    if held_by is not None:
        notes.append(
            f'{shared}: they keep "onFailure": "block" (a hook that cannot run blocks the '
            f"call) while {held_by} is in {step}"
        )
    elif user in changed:
        on = "on" if registration.on_failure(step) else "off"
        notes.append(
            f'{shared}: "onFailure": "block" is now {on}, as {value} needs (it is on while '
            "any project of yours guarded this way is in enforce or ask)"
        )
    return notes


def environment_notes(out: Mapping[str, Any], value: str | None) -> list[str]:
    """What the environment's phase override means for the phase just shown or set."""
    if out["source"] == "environment" and value and out["phase"] != value:
        return [
            f"{PHASE_ENV}={out['environment']} in this environment overrides the "
            f"config; unset it for {value!r} to take effect"
        ]
    if out["environment"] and out["source"] == "environment" and not value:
        return [f"set by {PHASE_ENV}; the config file's value is ignored while it is set"]
    return []


def project_config_notes(root: str, environ: Mapping[str, str]) -> list[str]:
    """``config.config_notes`` of the project's config: tool names no current tool has, which
    enforce would then match nothing. Empty when the config is broken (its problem is shown)."""
    loaded = load_config(config_path(root, environ), wire.user_home(environ))
    return config_notes(loaded) if isinstance(loaded, Config) else []


def text_report(out: Mapping[str, Any], value: str | None) -> str:
    lines = []
    if value is not None:
        verb = "set" if out["changed"] else "already"
        lines.append(f'{verb}: phase = "{value}" in {out["config_file"]}')
        lines.extend(f"hooks in step with {value}: {path}" for path in out.get("hooks_in_step", []))
    lines.append(f"effective phase: {out['phase']} (from {out['source']})")
    if out["problem"]:
        lines.append(f"config problem: {out['problem']}")
    lines.extend(f"note: {note}" for note in out["notes"])
    lines.extend(f"config note: {note}" for note in out.get("config_notes", []))
    return "\n".join(lines)


def _fail(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print(json.dumps({"changed": False, "error": message}))
    else:
        print(f"error: {message}")
    return 1


def enforce_gate(project: str, phase: str | None, environ: Any = None) -> str:
    """'' unless ``install --phase enforce`` would start a project in enforce that ``phase
    enforce`` would refuse: the same readiness check (ADR 0052). Only a new config takes the
    phase; an existing one keeps its own, so a teammate's install is never refused."""
    env = os.environ if environ is None else environ
    if phase != Phase.ENFORCE.value or os.path.exists(config_path(project, env)):
        return ""
    first = (
        "Install in warn (orchestrator-boundary install), work for a while, read: "
        "orchestrator-boundary report, then run: orchestrator-boundary phase enforce."
    )
    override = "orchestrator-boundary install --phase enforce --force"
    trail_env = trail_environ(project, env)
    if not audit.trail_files(audit.trail_path(project, audit_setting(Config(), trail_env))):
        return (
            "not installing in enforce: this project has no audit trail yet, so nothing shows "
            f"that enforce would let its work through. {first} To enforce anyway: {override}"
        )
    return enforce_refusal(
        project, trail_env, doing="installing in enforce", first=first, override=override
    )
