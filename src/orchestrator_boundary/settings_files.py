"""Claude Code settings files on disk: where each scope's file is, reading one, and writing one
atomically with a backup kept outside the repository. ADRs 0011, 0023. The JSON they hold is
edited in ``settings_edit``."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from typing import Any

from orchestrator_boundary import hook_main, wire
from orchestrator_boundary.settings_edit import SettingsError, parse_settings

SCOPES = ("project", "local", "user", "managed")
MANAGED_ENV = "ORCHESTRATOR_BOUNDARY_MANAGED_SETTINGS"  # override, for tests and odd setups
MANAGED_PATHS = wire.MANAGED_SETTINGS_PATHS  # Claude Code 2.1.330's policy folder, and its file
DROP_IN_DIR = "managed-settings.d"  # beside the managed file; its *.json files apply on top


def settings_path(
    scope: str,
    project: str,
    *,
    home: str | None = None,
    platform: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    env = os.environ if environ is None else environ
    if scope == "project":
        return os.path.join(project, ".claude", "settings.json")
    if scope == "local":
        return os.path.join(project, ".claude", "settings.local.json")
    if scope == "user":  # Claude Code reads $CLAUDE_CONFIG_DIR/settings.json when it is set
        if env.get("CLAUDE_CONFIG_DIR"):
            return os.path.join(env["CLAUDE_CONFIG_DIR"], "settings.json")
        base = home or wire.user_home(env) or os.path.expanduser("~")
        return os.path.join(base, ".claude", "settings.json")
    if scope == "managed":
        if env.get(MANAGED_ENV):
            return env[MANAGED_ENV]
        plat = platform or sys.platform
        return MANAGED_PATHS[plat if plat in MANAGED_PATHS else "linux"]
    raise ValueError(f"unknown scope {scope!r} (expected one of {', '.join(SCOPES)})")


def all_settings_paths(
    project: str, *, home: str | None = None, environ: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """(scope, path) for every settings file Claude Code reads for ``project``. The managed
    scope's drop-in files come before its file, the last one by name first: Claude Code applies
    them on top of the file in name order, so the later one decides a key (seen on 2.1.330)."""
    out = []
    for scope in SCOPES:
        path = settings_path(scope, project, home=home, environ=environ)
        if scope == "managed":
            out += [(scope, d) for d in reversed(managed_drop_ins(path))]
        out.append((scope, path))
    return out


def parsed_settings(
    project: str, *, environ: Mapping[str, str] | None = None
) -> list[tuple[str, str, dict[str, Any]]]:
    """(scope, path, parsed) for each settings file Claude Code reads for ``project`` that
    exists and holds JSON, in ``all_settings_paths``' order; the others are left out."""
    out = []
    for scope, path in all_settings_paths(project, environ=environ):
        try:
            text = read_text(path)
            data = parse_settings(text, path) if text is not None else None
        except SettingsError:
            continue
        if data is not None:
            out.append((scope, path, data))
    return out


def managed_drop_ins(managed: str) -> list[str]:
    """The drop-in files beside the managed settings file, in the order Claude Code applies
    them: ``managed-settings.d/*.json`` by name. A ``"disableAllHooks": true`` in one switches
    off every hook as surely as in the file itself."""
    folder = os.path.join(os.path.dirname(managed), DROP_IN_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.endswith(".json")]


def read_text(path: str) -> str | None:
    """The file's text; None when it does not exist."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SettingsError(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SettingsError(path, "not UTF-8 text") from None


def backup_dir(environ: Mapping[str, str]) -> str:
    """Where settings backups go: the user's Claude folder, never beside a committed file."""
    return os.path.join(hook_main.claude_dir(dict(environ)), "orchestrator-boundary", "backups")


def backup_path(path: str, now: float | None = None, directory: str | None = None) -> str:
    """A new timestamped name for a backup of ``path``: beside it, or in ``directory`` under
    a name made from the whole path (so two projects' settings.json never collide)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    if directory is None:
        base = path
    else:
        base = os.path.join(directory, hook_main.legacy_slug(path).strip("-") or "settings")
    candidate = f"{base}.bak-{stamp}"
    n = 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{base}.bak-{stamp}-{n}"
    return candidate


def _save_backup(target: str, directory: str | None) -> tuple[str | None, int]:
    """Copy ``target`` to a new backup; (its path or None when there is no file, the mode)."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None, 0o644
    mode = st.st_mode & 0o7777
    if directory is not None:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    saved = backup_path(target, directory=directory)
    with open(target, "rb") as src, open(saved, "xb") as dst:
        dst.write(src.read())
    os.chmod(saved, mode)
    return saved, mode


def write_atomic(
    path: str, text: str, *, backup: bool = True, backup_to: str | None = None
) -> str | None:
    """Write ``text`` to ``path`` through a temp file and ``os.replace``; keep the previous
    content in a timestamped backup (in ``backup_to``, else next to it). A symlinked file is
    written through the link. Returns the backup's path (None when there was no previous
    file)."""
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    os.makedirs(directory, exist_ok=True)
    saved = None
    mode = 0o644
    if backup:
        saved, mode = _save_backup(target, backup_to)
    else:
        with contextlib.suppress(FileNotFoundError):
            mode = os.stat(target).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    return saved


def remove_with_backup(path: str, *, backup_to: str | None = None) -> str | None:
    """Remove ``path`` (through a symlink: the file it names), keeping a backup first."""
    target = os.path.realpath(path)
    saved, _ = _save_backup(target, backup_to)
    with contextlib.suppress(FileNotFoundError):
        os.remove(target)
    return saved
