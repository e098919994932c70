"""Which project a command a person runs acts on, and where that project's trail is.

``phase``, ``report``, ``doctor``, ``trace`` and ``install`` take ``--project``; without it they
used to act on the folder they were run in. Run from ``src/`` of a guarded project,
``phase warn`` then wrote ``src/.claude/boundary.toml``, said "effective phase: warn" and left
the project in enforce: a rollback that reports success and changes nothing. So, as git finds
its repository, the project is ``--project``, else the nearest folder at or above
``$CLAUDE_PROJECT_DIR`` (set when Claude Code runs the command, as the hook reads it: ADR 0054)
or else the current folder that has ``.claude/boundary.toml`` (never the home folder itself,
whose ``.claude`` is the user's Claude folder), else that folder itself. A project found
above it is named on stderr.

A user-scope install (``install --scope user``) keeps each project's trail under the user's
Claude folder: its hook names the trail in ``ORCHESTRATOR_BOUNDARY_AUDIT_PATH``
(``hook_main.prepare``). ``trail_environ`` names it the same way for the commands, so ``report``,
``phase enforce``, ``doctor`` and ``trace`` read the trail the hooks write.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

from orchestrator_boundary import hook_main, hook_routes, registration, wire
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.config import DEFAULT_CONFIG_PATH

PROJECT_HELP = (
    "project root (default: the nearest folder at or above $CLAUDE_PROJECT_DIR, else the "
    "current folder, that has .claude/boundary.toml; else that folder itself)"
)
INSTALL_PROJECT_HELP = (
    "project root (default: the nearest folder at or above the current one that has "
    ".claude/boundary.toml, else the current folder)"
)


def find_root(explicit: str | None, environ: Mapping[str, str], cwd: str | None = None) -> str:
    """The project a command acts on (module docstring); a project found above the start
    folder is named on stderr."""
    if explicit:
        if not os.path.isdir(explicit):  # a typo: never make a folder, never "set" in one
            sys.stderr.write(
                f"error: --project {explicit}: no such folder; name the project's folder "
                "(the one you start claude in)\n"
            )
            raise SystemExit(2)
        return _as_claude_code_names(explicit)
    here = _as_claude_code_names(environ.get(wire.PROJECT_DIR_ENV) or cwd or os.getcwd())
    found = wire.configured_above(here, wire.user_home(environ))
    if found and found != here:
        sys.stderr.write(f"project: {found} (the nearest folder with {DEFAULT_CONFIG_PATH})\n")
    return found or here


def _as_claude_code_names(folder: str) -> str:
    """``folder`` as Claude Code names it in ``CLAUDE_PROJECT_DIR``: on Linux and macOS the
    real path (its working folder, symlinks resolved: seen on 2.1.330), which the per-user
    trail's name is made from. ``report --project ~/work/p`` through a symlinked ``~/work``
    read another trail and said there was none. Windows keeps the path as given."""
    return os.path.abspath(folder) if os.name == "nt" else os.path.realpath(folder)


def trail_environ(root: str, environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` naming the trail the hooks write for ``root``: the per-user one when this
    user's settings register the hooks with a per-user trail and the project's own settings
    files register none (then only the user's hooks run here)."""
    out = dict(environ)
    if out.get(wire.AUDIT_ENV) or not _user_trail_registered(root, out):
        return out
    for scope in ("project", "local"):
        if _ours(sf.settings_path(scope, root, environ=out)):
            return out
    out[wire.AUDIT_ENV] = hook_main.user_trail(root, out)
    return out


def _user_trail_registered(root: str, environ: Mapping[str, str]) -> bool:
    """The user's settings hold our entry with the per-user trail (``... PreToolUse user``)."""
    entries = _ours(sf.settings_path("user", root, environ=environ))
    return any(registration.entry_argv(entry)[-1:] == [hook_main.USER_TRAIL] for entry in entries)


def _ours(path: str) -> list[dict[str, Any]]:
    """Our tool-hook entries in the settings file at ``path`` (none when it is missing or
    cannot be read as settings)."""
    text = sf.read_text(path)
    if not text:
        return []
    try:
        found = se.registered(se.parse_settings(text, path))
    except se.SettingsError:
        return []
    return [*found.get("PreToolUse", []), *found.get("PostToolUse", [])]


def git_top(path: str) -> str | None:
    """The folder of the git repository ``path`` is in (the nearest with ``.git``), or None."""
    cur = os.path.abspath(path)
    while True:
        if os.path.exists(os.path.join(cur, ".git")):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent


def in_git_repo(path: str) -> bool:
    return git_top(path) is not None


def _git(project: str, *args: str) -> subprocess.CompletedProcess[str] | None:
    """``git -C project ARGS``, its output as text; None when git cannot be run."""
    try:
        return subprocess.run(
            ["git", "-C", project, *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None


LOCAL_SETTINGS_LINE = "/.claude/settings.local.json"


def local_settings_ignored(project: str, text: str | None) -> str | None:
    """The ``.gitignore`` text with ``LOCAL_SETTINGS_LINE`` added; None when git ignores the
    file already (Claude Code adds it when it writes the file itself; ``install`` did not):
    a local install's entries name this machine's interpreter, and once committed every
    teammate's clone ran them, answered by the gone guard (ADR 0084)."""
    current = text or ""
    lines = {line.strip() for line in current.splitlines()}
    if lines & {LOCAL_SETTINGS_LINE, LOCAL_SETTINGS_LINE[1:], ".claude/", "/.claude/"}:
        return None
    done = _git(project, "check-ignore", "-q", "--", LOCAL_SETTINGS_LINE[1:])
    if done is not None and done.returncode == 0:
        return None
    sep = "" if not current or current.endswith("\n") else "\n"
    said = "# this machine's own hook entries (orchestrator-boundary install --scope local)"
    return f"{current}{sep}{said}\n{LOCAL_SETTINGS_LINE}\n"


def other_checkouts_note(project: str, scope: str) -> str | None:
    """``settings.local.json`` is not committed (Claude Code's own ``.gitignore`` for it): a
    second checkout of the repository (``git worktree add``, another clone) starts its sessions
    with none of these hooks, and nothing says so there (ADR 0084). A session moved into a
    worktree with ``EnterWorktree`` keeps the hooks it started with."""
    if scope != "local" or git_top(project) is None:
        return None
    return (
        "local scope writes .claude/settings.local.json, which git does not carry (it is "
        "ignored: it names this machine's interpreter): a session "
        "started in another checkout of this repository (git worktree add, a clone) runs none "
        "of these hooks. Run orchestrator-boundary install --scope local there too, or use "
        "--scope project (committed) to guard every checkout"
    )


def checkout_notes(project: str, scope: str) -> list[str]:
    """What ``install`` says of the checkouts that run these hooks: a project below its
    repository's top, another checkout of a repository installed at local scope."""
    notes = [start_folder_note(project), other_checkouts_note(project, scope)]
    return [n for n in [*notes, local_settings_tracked(project, scope)] if n]


def local_settings_tracked(project: str, scope: str) -> str | None:
    """A ``settings.local.json`` that git tracks already (committed by an install before
    this one ignored it): every clone runs this machine's entries until it is untracked."""
    if scope != "local" or git_top(project) is None:
        return None
    done = _git(project, "ls-files", "--error-unmatch", "--", LOCAL_SETTINGS_LINE[1:])
    if done is None or done.returncode != 0:
        return None
    return (
        f"{LOCAL_SETTINGS_LINE[1:]} is committed: every clone runs this machine's entries "
        "(its interpreter's path), answered without the package there. Untrack it: git rm "
        f"--cached {LOCAL_SETTINGS_LINE[1:]}, then commit"
    )


def start_folder_note(project: str) -> str | None:
    """Claude Code 2.1.330 reads project settings only from the folder it starts in: a
    project below its repository's top is guarded only in sessions started in it."""
    top = git_top(project)
    if top is None or top == os.path.abspath(project):
        return None
    return (
        f"{project} is below the top of its git repository ({top}): Claude Code reads "
        ".claude/settings.json only from the folder it starts in, so these hooks run only in "
        f"sessions started in {project}, not in {top} or another folder "
        f"(to guard the whole repository: orchestrator-boundary install --project {top})"
    )


def windows_shell_note(environ: Mapping[str, str], platform: str | None = None) -> str | None:
    """On Windows without Git Bash, Claude Code runs shell-form hooks in PowerShell, where the
    committed ``sh`` launcher cannot start (ADRs 0023, 0058): say so when ``install`` writes it,
    not only when ``doctor`` is run."""
    if not registration.is_windows(platform):
        return None
    path = environ.get("PATH", "")

    def which(name: str) -> str | None:  # on the PATH Claude Code passes on
        return shutil.which(name, path=path)

    if hook_routes.windows_git_bash(environ, which, os.path.isfile) or which("sh"):
        return None
    return (
        "Claude Code on this machine will run these hooks in PowerShell (Git Bash not found: "
        f"no {hook_routes.GIT_BASH_ENV}, no git.exe on PATH with bin\\bash.exe beside it, "
        "no Git in Program Files), and the committed launcher needs sh: in enforce and ask "
        "every tool call is blocked, in warn calls go through unrecorded. Install Git for "
        f"Windows (or set {hook_routes.GIT_BASH_ENV} to its bash.exe), then run "
        "orchestrator-boundary doctor"
    )


# Git for Windows checks text files out with CRLF by default (core.autocrlf=true), and sh
# cannot run the launcher then: a syntax error, exit 2, every call blocked in every phase.
GITATTRIBUTES_LINE = f"/{registration.SHIM_RELPATH} text eol=lf"


def gitattributes_with(text: str | None) -> str | None:
    """The project's .gitattributes with the line that keeps the launcher LF on every
    checkout (ADR 0058); None when it is already there."""
    current = text or ""
    if GITATTRIBUTES_LINE in (line.strip() for line in current.splitlines()):
        return None
    sep = "" if not current or current.endswith("\n") else "\n"
    why = "# orchestrator-boundary: sh runs the launcher only with LF line endings"
    return f"{current}{sep}{why}\n{GITATTRIBUTES_LINE}\n"


def launcher_note(old: str | None) -> str | None:
    """A committed launcher this version would change (beyond its line endings) was written by
    another version: a teammate with an older package must not commit a downgrade (ADR 0058)."""
    if old is None or old.replace("\r\n", "\n") == registration.shim_text():
        return None
    from orchestrator_boundary.wire import package_version

    return (
        f"the committed {registration.SHIM_RELPATH} was written by another version of "
        f"orchestrator-boundary than yours ({package_version()}): if a teammate's is newer, "
        "upgrade yours and run install again instead of committing this change; if yours is the "
        "newer, commit it"
    )


_OUR_COMMAND = re.compile(
    r"\borchestrator-boundary (install|uninstall|report|doctor|phase( (off|warn|ask|enforce))?)\b"
    r"(?! --project)"
)


def for_project(fix: str, root: str, cwd: str | None = None) -> str:
    """``fix`` with ``--project ROOT`` in each of our commands it names, unless it is run from
    ``root``: a fix ``doctor --project DIR`` printed, run elsewhere, acted on another folder
    (``install`` registered hooks there; ``phase`` refused it)."""
    here = os.path.realpath(cwd or os.getcwd())
    if not fix or here == root:
        return fix
    quoted = f'"{root}"' if os.name == "nt" and " " in root else shlex.quote(root)
    return _OUR_COMMAND.sub(lambda m: f"{m.group(0)} --project {quoted}", fix)


def left_in_place(project: str, user_trail: str, scope: str) -> list[str]:
    """What ``uninstall`` leaves for a person to delete, naming only what is there: the note
    used to list a .gitignore and a .gitattributes line a user-scope install never wrote."""
    from orchestrator_boundary.project_files import GITIGNORE_LINE

    def has_line(name: str, line: str) -> bool:
        try:
            text = sf.read_text(os.path.join(project, name)) or ""
        except se.SettingsError:
            return False
        return line in (x.strip() for x in text.splitlines())

    trail = (
        os.path.dirname(user_trail)
        if scope == "user"
        else os.path.join(project, ".claude", "boundary")
    )
    found = [
        (os.path.isfile(os.path.join(project, DEFAULT_CONFIG_PATH)), DEFAULT_CONFIG_PATH),
        (os.path.isdir(trail), f"the audit trail ({trail if scope == 'user' else GITIGNORE_LINE})"),
        (has_line(".gitignore", GITIGNORE_LINE), f"the {GITIGNORE_LINE} line in .gitignore"),
        (has_line(".gitattributes", GITATTRIBUTES_LINE), "the launcher's line in .gitattributes"),
    ]
    names = [name for there, name in found if there]
    if not names:
        return []
    listed = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    them = "them" if len(names) > 1 else "it"
    return [f"left in place: {listed}; delete {them} yourself if you no longer want {them}"]


COMMITTED = (".claude/settings.json", registration.SHIM_RELPATH, DEFAULT_CONFIG_PATH)


def ignored_by_git(project: str) -> list[str]:
    """The files a team must commit that git ignores here (a ``.claude/`` line is common:
    Claude Code writes machine-local files there). A commit leaves them out without a word,
    and a teammate's clone then runs no hook at all: no block, no message, no trail."""
    if git_top(project) is None:
        return []
    present = [p for p in COMMITTED if os.path.isfile(os.path.join(project, *p.split("/")))]
    if not present:
        return []
    done = _git(project, "check-ignore", "--", *present)
    if done is None:
        return []
    return [line for line in done.stdout.splitlines() if line in present]


def ignored_note(project: str) -> str | None:
    ignored = ignored_by_git(project)
    if not ignored:
        return None
    return (
        f"git ignores {', '.join(ignored)} here (a .gitignore line such as .claude/): a commit "
        "leaves them out, and teammates' clones then run no hook at all, without a word. Add "
        f"them anyway (once tracked, git keeps them): git add -f {' '.join(ignored)}"
    )
