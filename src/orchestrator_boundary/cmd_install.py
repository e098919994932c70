"""``orchestrator-boundary install`` / ``uninstall``: register our hooks in a Claude Code settings
file, merged into what is there. ADR 0011. The JSON logic lives in ``settings_edit``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from orchestrator_boundary import hook_main, registration, user_scope, wire
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.cli_project import (
    GITATTRIBUTES_LINE,
    INSTALL_PROJECT_HELP,
    LOCAL_SETTINGS_LINE,
    checkout_notes,
    find_root,
    for_project,
    gitattributes_with,
    ignored_note,
    in_git_repo,
    launcher_note,
    left_in_place,
    local_settings_ignored,
    windows_shell_note,
)
from orchestrator_boundary.cmd_phase import enforce_gate as enforce_gate
from orchestrator_boundary.config import (
    DEFAULT_CONFIG_PATH,
    Config,
    ConfigProblem,
    config_notes,
    config_path,
    load_config,
)
from orchestrator_boundary.doctor_hooks_off import cached_install, install_notes
from orchestrator_boundary.phase import DEFAULT_PHASE, Phase
from orchestrator_boundary.project_files import GITIGNORE_LINE, gitignore_with, starter_config


@dataclass
class FileEdit:
    """One file to write (``new``) or to remove (``new`` None)."""

    path: str
    old: str | None
    new: str | None
    what: str
    backup: bool = True
    written: bool = False
    backup_file: str | None = None


@dataclass
class Result:
    command: str
    settings_file: str
    scope: str
    changed: bool = False
    dry_run: bool = False
    actions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    edits: list[FileEdit] = field(default_factory=list)
    error: str | None = None
    project: str = ""  # the folder installed for: the next command names it

    def as_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "scope": self.scope,
            "settings_file": self.settings_file,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "actions": self.actions,
            "notes": self.notes,
            "error": self.error,
            "files": [
                {
                    "path": e.path,
                    "what": e.what,
                    "created": e.old is None,
                    "removed": e.new is None,
                    "written": e.written,
                    "backup": e.backup_file,
                    **(
                        {"diff": se.unified_diff(e.old or "", e.new or "", e.path)}
                        if self.dry_run
                        else {}
                    ),
                }
                for e in self.edits
            ],
        }


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", default=None, help=INSTALL_PROJECT_HELP)
    p.add_argument(
        "--scope",
        choices=sf.SCOPES,
        default="project",
        help="which settings file: project (.claude/settings.json), local "
        "(.claude/settings.local.json), user (~/.claude/settings.json), managed",
    )
    p.add_argument(
        "--managed-only",
        action="store_true",
        help="with --scope managed: also set allowManagedHooksOnly and allowManagedModsOnly",
    )
    p.add_argument("--dry-run", action="store_true", help="print a unified diff, write nothing")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def register(sub: Any) -> None:
    p = sub.add_parser("install", help="register the hooks in a Claude Code settings file")
    add_common(p)
    p.add_argument(
        "--phase",
        choices=[ph.value for ph in Phase],
        help=f"phase for a new .claude/boundary.toml (default: {DEFAULT_PHASE.value})",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="with --phase enforce: start in enforce even when the report says NOT READY",
    )
    p.set_defaults(func=run_install)
    u = sub.add_parser("uninstall", help="remove exactly the hooks install added")
    add_common(u)
    u.set_defaults(func=run_uninstall)


def _project(args: argparse.Namespace) -> str:
    # not $CLAUDE_PROJECT_DIR: a person names the project to install in, or stands in it
    env = {k: v for k, v in os.environ.items() if k != wire.PROJECT_DIR_ENV}
    return find_root(args.project, env)


def hook_phase(loaded: Config | ConfigProblem, phase: str | None) -> str:
    """The phase the registered entries are written for (``onFailure``, the launcher's
    fallback): the project config's own, else ``--phase``, else the default. A broken config
    counts as enforce, as the hooks treat it. The environment's override is not persisted."""
    if isinstance(loaded, ConfigProblem):
        return Phase.ENFORCE.value
    if "phase" in loaded.model_fields_set:
        return loaded.phase.value
    return phase or DEFAULT_PHASE.value


def plan(
    action: str,
    project: str,
    scope: str,
    *,
    phase: str | None = None,
    managed_only: bool = False,
    environ: Any = None,
    python: str | None = None,
    platform: str | None = None,
) -> Result:
    """What ``install``/``uninstall`` would change; raises ``SettingsError`` for a file we must
    leave alone."""
    env = os.environ if environ is None else environ
    path = sf.settings_path(scope, project, environ=env)
    res = Result(action, path, scope, project=project)
    old_text = sf.read_text(path)
    old = se.parse_settings(old_text or "", path)
    if managed_only and scope != "managed":
        res.notes.append("--managed-only only applies to --scope managed; ignored")
        managed_only = False
    loaded = load_config(config_path(project, env), wire.user_home(env))
    written_phase = hook_phase(loaded, phase)
    if scope == "user":  # one set of entries for every project of this user (ADR 0052)
        written_phase = user_scope.entries_phase(project, written_phase, env)[0]
    if action == "install":
        # tool names no current tool has (config.config_notes): allowed, but likely typos
        res.notes.extend(config_notes(loaded) if isinstance(loaded, Config) else [])
        entries = registration.entries(
            scope, written_phase, python=python, platform=platform, timeout=se.HOOK_TIMEOUT_S
        )
        change = se.with_hooks(old, path, entries=entries, managed_only=managed_only)
    else:
        change = se.without_hooks(old, path, managed_only=managed_only)
    res.actions.extend(change.actions)
    if action == "uninstall" and change.changed and not change.new and old_text is not None:
        res.edits.append(FileEdit(path, old_text, None, "settings"))
        res.actions.append("removed the settings file, left empty")
    elif change.changed or (action == "install" and old_text is None):
        text = se.render_settings(old_text, old, change.new)
        res.edits.append(FileEdit(path, old_text, text, "settings"))
    if action == "install":
        _plan_machine_files(res, project, scope, env, python)
        cached = cached_install(scope, sys.prefix) if scope == "project" and not python else ""
        res.notes.extend([*install_notes(project, scope, env), *filter(None, [cached])])
    if action == "install" and scope in ("project", "local"):
        _plan_project_files(res, project, phase, scope)
        res.notes.extend(checkout_notes(project, scope))
    elif action == "install" and phase:  # user, managed: the phase lives in the config alone
        _plan_config(res, project, phase, f'phase = "{phase}"\n')  # as `phase` writes it
    if action == "install" and scope == "project":  # the shim is shell form (ADR 0058)
        res.notes.extend(filter(None, [windows_shell_note(env, platform)]))
    if action == "uninstall":
        _plan_uninstall_files(res, project, scope, env)
    res.changed = bool(res.edits)
    return res


def _plan_uninstall_files(res: Result, project: str, scope: str, env: Any) -> None:
    """The project's launcher and the user-scope project list go with the entries."""
    if scope == "project":
        shim = os.path.join(project, *registration.SHIM_RELPATH.split("/"))
        shim_old = sf.read_text(shim)
        if shim_old is not None:
            res.edits.append(FileEdit(shim, shim_old, None, "launcher", backup=False))
            res.actions.append(f"removed {registration.SHIM_RELPATH}")
    if scope == "user":
        listed = user_scope.list_path(env)
        listed_old = sf.read_text(listed)
        if listed_old is not None:
            res.edits.append(FileEdit(listed, listed_old, None, "user projects", backup=False))
    trail = hook_main.user_trail(project, env) if scope == "user" else ""
    res.notes.extend(left_in_place(project, trail, scope))


def _plan_machine_files(
    res: Result, project: str, scope: str, env: Any, python: str | None
) -> None:
    """The launcher (project scope, committed) and this user's pointer to this installation."""
    if scope == "project":
        shim = os.path.join(project, *registration.SHIM_RELPATH.split("/"))
        shim_old, shim_new = sf.read_text(shim), registration.shim_text()
        if shim_old != shim_new:
            res.edits.append(FileEdit(shim, shim_old, shim_new, "launcher", backup=False))
            res.actions.append(f"wrote {registration.SHIM_RELPATH} (commit it)")
            res.notes.extend(filter(None, [launcher_note(shim_old)]))
        attrs = os.path.join(project, ".gitattributes")
        attrs_old = sf.read_text(attrs) if in_git_repo(project) else GITATTRIBUTES_LINE  # no git
        if (attrs_new := gitattributes_with(attrs_old)) is not None:
            res.edits.append(FileEdit(attrs, attrs_old, attrs_new, "gitattributes", backup=False))
            res.actions.append("added the launcher's eol=lf line to .gitattributes (commit it)")
    if scope == "user":
        listed = user_scope.list_path(env)
        listed_new = user_scope.with_root(project, env)
        if listed_new is not None:
            edit = FileEdit(listed, sf.read_text(listed), listed_new, "user projects", backup=False)
            res.edits.append(edit)
    pointer = registration.pointer_path(env)
    pointer_old, pointer_new = sf.read_text(pointer), registration.pointer_text(python)
    if pointer_old != pointer_new:
        res.edits.append(FileEdit(pointer, pointer_old, pointer_new, "pointer", backup=False))
        res.actions.append(f"pointed {pointer} at this installation")


def _plan_config(res: Result, project: str, phase: str | None, text: str) -> None:
    """``text`` as the project's config when it has none; else a note that ``--phase`` is not
    written (``orchestrator-boundary phase`` changes it, keeping the file's comments)."""
    cfg = os.path.join(project, DEFAULT_CONFIG_PATH)
    if not os.path.exists(cfg):
        res.edits.append(FileEdit(cfg, None, text, "starter config", backup=False))
        res.actions.append(
            f"wrote a starter {DEFAULT_CONFIG_PATH} (phase {phase or DEFAULT_PHASE.value})"
        )
    elif phase:
        res.notes.append(
            f"{cfg} exists; --phase ignored (use: orchestrator-boundary phase {phase})"
        )


def _plan_project_files(res: Result, project: str, phase: str | None, scope: str) -> None:
    _plan_config(res, project, phase, starter_config(phase or DEFAULT_PHASE.value))
    if in_git_repo(project):
        gi = os.path.join(project, ".gitignore")
        gi_old = sf.read_text(gi)
        if (gi_new := gitignore_with(gi_old)) is not None:
            res.actions.append(f"added {GITIGNORE_LINE} to .gitignore")
        # the local entries name this machine's interpreter: never committed (ADR 0084)
        if scope == "local" and (ignored := local_settings_ignored(project, gi_new or gi_old)):
            gi_new = ignored
            res.actions.append(f"added {LOCAL_SETTINGS_LINE} to .gitignore")
        if gi_new is not None:
            res.edits.append(FileEdit(gi, gi_old, gi_new, "gitignore", backup=False))


def apply(res: Result, environ: Any = None) -> None:
    backups = sf.backup_dir(os.environ if environ is None else environ)
    for e in res.edits:
        keep = e.backup and e.old is not None
        if e.new is None:
            e.backup_file = sf.remove_with_backup(e.path, backup_to=backups) if keep else None
            if not keep:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(e.path)
                with contextlib.suppress(OSError):
                    os.rmdir(os.path.dirname(e.path))  # only when left empty
        else:
            e.backup_file = sf.write_atomic(e.path, e.new, backup=keep, backup_to=backups)
        e.written = True


def _refuse(action: str, args: argparse.Namespace, msg: str, file: str | None = None) -> int:
    shown = {"command": action, "changed": False, "error": msg, "settings_file": file}
    print(
        json.dumps(shown) if args.json else f"error: {msg}",
        file=sys.stdout if args.json else sys.stderr,
    )
    return 1


def _run(action: str, args: argparse.Namespace) -> int:
    project = _project(args)
    if action == "install":  # a cache's interpreter; enforce before the report says READY
        local = args.scope != "project" and cached_install(args.scope, sys.prefix)
        gate = not args.force and args.scope in ("project", "local")
        if refusal := local or (enforce_gate(project, args.phase) if gate else ""):
            return _refuse(action, args, refusal)
    try:
        res = plan(
            action,
            project,
            args.scope,
            phase=getattr(args, "phase", None),
            managed_only=args.managed_only,
        )
    except se.SettingsError as exc:
        why = f". {se.IGNORED}" if exc.problem.startswith("not valid JSON") else ""
        msg = f"{exc}; left unchanged, fix it by hand and run {action} again{why}"
        return _refuse(action, args, msg, exc.file)
    res.dry_run = bool(args.dry_run)
    if not res.dry_run:
        try:
            apply(res)
        except OSError as exc:
            res.error = f"could not write: {exc}"
        if action == "install" and args.scope == "project":  # on disk now: ask git
            res.notes.extend(filter(None, [ignored_note(project)]))
    if args.json:
        print(json.dumps(res.as_json(), ensure_ascii=False))
    else:
        print(text_report(res))
    return 1 if res.error else 0


def text_report(res: Result) -> str:
    lines: list[str] = []
    if res.error:
        lines.append(f"error: {res.error}")
        written = [e.path for e in res.edits if e.written]
        lines.append("  written before the error: " + (", ".join(written) or "nothing"))
        return "\n".join(lines)
    if not res.changed:
        done = "registers our hooks" if res.command == "install" else "has none of our hooks"
        lines.append(f"nothing to change: {res.settings_file} already {done}")
    elif res.dry_run:
        lines.append(f"dry run: {res.command} would change (nothing written):")
        lines.extend(
            se.unified_diff(e.old or "", e.new or "", e.path).rstrip("\n") for e in res.edits
        )
    else:
        lines.append(f"{res.command}: {res.settings_file} ({res.scope} scope)")
        lines.extend(f"  {a}" for a in res.actions)
        lines.extend(
            f"  backup of the previous {e.path}: {e.backup_file}"
            for e in res.edits
            if e.backup_file
        )
        if res.command == "install":
            lines.append("  next: " + for_project("orchestrator-boundary doctor", res.project))
    lines.extend(f"note: {n}" for n in res.notes)
    return "\n".join(lines)


def run_install(args: argparse.Namespace) -> int:
    return _run("install", args)


def run_uninstall(args: argparse.Namespace) -> int:
    return _run("uninstall", args)
