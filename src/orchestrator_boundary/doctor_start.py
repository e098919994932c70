"""``doctor``'s check on the folder Claude Code is started in.

Claude Code 2.1.330 reads ``.claude/settings.json`` and ``.claude/settings.local.json`` only
from the folder it is started in (seen on the real CLI; a long-standing Claude Code issue): a
session started in ``src/`` of a guarded project runs none of the project's hooks, so nothing
is blocked, recorded or said. User-scope hooks do run there, but judge ``src/`` as a project of
its own, with no config (phase warn). ``doctor`` cannot change that; it says so when it is run
from such a folder (or by a session started in one), naming the folder to start in.
"""

from __future__ import annotations

import os
import shlex

from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary import wire
from orchestrator_boundary.cli_project import ignored_by_git, ignored_note
from orchestrator_boundary.doctor_context import FAIL, OK, WARN, Check, Context
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.setups import setup


def _registers_ours(folder: str, environ: dict[str, str]) -> bool:
    for scope in ("project", "local"):
        path = sf.settings_path(scope, folder, environ=environ)
        try:
            text = sf.read_text(path)
            if text and any(se.registered(se.parse_settings(text, path)).values()):
                return True
        except se.SettingsError:
            continue
    return False


def _inside(child: str, parent: str) -> bool:
    return child != parent and child.startswith(parent.rstrip(os.sep) + os.sep)


def _user_hooks(root: str, environ: dict[str, str]) -> bool:
    user = sf.settings_path("user", root, environ=environ)
    try:
        text = sf.read_text(user)
        return bool(text) and any(se.registered(se.parse_settings(text or "", user)).values())
    except se.SettingsError:
        return False


def check_start_folder(ctx: Context) -> Check:
    env = dict(ctx.environ)
    start = os.path.realpath(ctx.start) if ctx.start else None
    root = ctx.root
    if start is not None and start == root:  # a session started in an unconfigured subfolder
        above = wire.configured_above(os.path.dirname(start), wire.user_home(env))
        root = os.path.realpath(above) if above else root
    project_hooks, user_hooks = _registers_ours(root, env), _user_hooks(root, env)
    advice = (
        f"start claude in {root}: Claude Code reads .claude/settings.json only from the "
        "folder it starts in"
    )
    if start is None or not _inside(start, root) or not (project_hooks or user_hooks):
        return Check("start-folder", OK, advice)
    if _registers_ours(start, env):
        return Check("start-folder", OK, f"{start} registers the hooks itself")
    try:
        phase = setup(root, {**env, "CLAUDE_PROJECT_DIR": root}).phase.value
    except BoundaryInputError:
        phase = "enforce"
    if project_hooks:
        what = (
            f"Claude Code started in {start} runs none of the hooks of {root} (phase {phase}): "
            "it reads .claude/settings.json only from the folder it starts in, so nothing is "
            "blocked, recorded or said"
        )
    else:
        what = (
            f"Claude Code started in {start}: your user-scope hooks judge it as a project of "
            f"its own, with no config (phase warn), not as {root} (phase {phase})"
        )
    return Check(
        "start-folder",
        FAIL if phase in ("enforce", "ask") else WARN,
        what,
        f"start claude in the project's folder: cd {shlex.quote(root)} && claude",
    )


def registered_twice(ctx: Context, where: list[str]) -> Check:
    """Our entries in more than one settings file (or twice in one). The project's own entries
    are committed and guard the team: the advice never names them for removal. User-scope
    entries are what guards a session started in a subfolder (ADR 0054), so removing them is a
    trade-off the person must know of (ADR 0058)."""
    scopes = {p: s for s, p, _d, _w in ctx.settings()}
    named = [f"{scopes.get(p, '?')}: {p}" for p in where]
    others = sorted({scopes[p] for p in where if scopes.get(p) not in (None, "project")})
    if len(where) == 1:
        fix = "run orchestrator-boundary install again in that scope: it keeps one set"
    elif others:
        fix = (
            "keep the project's entries (committed: they guard the team); remove yours with "
            + " and ".join(f"orchestrator-boundary uninstall --scope {s}" for s in others)
            + (
                ", unless you start sessions in subfolders of guarded projects: only the user "
                "entries run there"
                if "user" in others
                else ""
            )
        )
    else:
        fix = "keep one: orchestrator-boundary uninstall --scope SCOPE for the others"
    return Check(
        "hooks",
        WARN,
        "registered more than once (" + ", ".join(named) + "): in a session started here "
        "every call is judged twice and the model reads each warning twice (the report "
        "counts each call once)",
        fix,
    )


def check_committed(ctx: Context) -> Check:
    """The files teammates need are not ignored by git: a ``.claude/`` line in ``.gitignore``
    (common) leaves them out of every commit, and a teammate's clone runs no hook at all."""
    ignored = ignored_by_git(ctx.root)
    if not ignored:
        return Check("committed", OK, "git ignores none of the files teammates need")
    note = ignored_note(ctx.root) or ""
    message, _, fix = note.partition(" Add them anyway (once tracked, git keeps them): ")
    return Check("committed", WARN, message, fix and f"run: {fix} (once tracked, git keeps them)")
