"""Where Claude Code 2.1.330 reads its settings, policy and plugins from, beyond the files
``protect`` always listed (ADR 0066).

Claude Code's own sandbox names, among the entries of its config folder (``~/.claude``,
``$CLAUDE_CONFIG_DIR``) that no tool may write, several that change what guards the agents:

- ``cowork_settings.json``: the user settings file when the session runs with cowork plugins
  (Claude Desktop, ``CLAUDE_CODE_USE_COWORK_PLUGINS``), read in place of ``settings.json``;
- ``remote-settings.json`` and ``policy-limits.json``, with their ``.signature.json`` and
  ``.signature-iat.json``: the organisation's managed settings and limits as delivered, kept
  there between sessions;
- ``cowork_plugins/``: the plugins folder of cowork mode (plugins' hooks and mods answer
  tool calls before, or instead of, this hook).

Beside ``~/.claude.json`` (the global config: MCP servers, per-project tool permissions), the
sign-in routes for staging, local and custom OAuth keep their own copy
(``~/.claude-staging-oauth.json``...). And environment variables move some of these places:
the plugin cache, the plugin seed folders, plugin folders loaded as they are, the managed
settings folder, the delivered settings' file. Claude Code hands its environment to the hook,
so the hook sees the same values.
"""

from __future__ import annotations

import contextlib
import ntpath
import posixpath
from collections.abc import Mapping

from orchestrator_boundary.paths import FileSystem

# names in Claude Code's config folder (``~/.claude``, ``$CLAUDE_CONFIG_DIR``)
COWORK_SETTINGS = "cowork_settings.json"
DELIVERED = ("remote-settings.json", "policy-limits.json")  # and NAME.signature*.json
CONFIG_FILES = (
    COWORK_SETTINGS,
    *DELIVERED,
    *(f"{name}.signature.json" for name in DELIVERED),
    *(f"{name}.signature-iat.json" for name in DELIVERED),
)
CONFIG_DIRS = ("cowork_plugins",)
# the global config of the other sign-in routes, beside ``.claude.json`` (in the home folder,
# or in ``$CLAUDE_CONFIG_DIR`` when it is set)
GLOBAL_CONFIGS = tuple(
    f".claude{route}.json" for route in ("-staging-oauth", "-local-oauth", "-custom-oauth")
)

# (variable, holds a list of folders, label): what it names is read by Claude Code as the
# place it replaces. A list is split on the path separator, as Claude Code does.
PLACES_ENV: tuple[tuple[str, bool, str], ...] = (
    ("CLAUDE_CODE_PLUGIN_CACHE_DIR", False, "the installed plugins"),
    ("CLAUDE_CODE_PLUGIN_SEED_DIR", True, "the plugin seed folders"),
    ("CLAUDE_CODE_PLUGIN_DIRS", True, "plugins Claude Code loads from a folder"),
    ("CLAUDE_CODE_MANAGED_SETTINGS_PATH", False, "managed settings"),
    ("CLAUDE_CODE_REMOTE_SETTINGS_PATH", False, "the delivered managed settings"),
)
# The programs Claude Code's shell and the committed launcher look up along the hook's own
# ``PATH``: the registered command's ``sh``, and what ``launch.sh`` runs by name when it falls
# back (a user's ``PATH=./bin:$PATH`` or direnv's ``PATH_add bin`` put a project folder first;
# a subagent's ``bin/sh`` would then run as the guard). Names no project puts there by itself.
PATH_SHELL_PROGRAMS = ("sh", "dirname", "tr", "sed", "cat", "date", "mkdir", "mv", "cut")
PATH_PYTHONS = ("python3", "python", "py")
PLACES_ENV_NAMES = (*(name for name, _, _ in PLACES_ENV), "PATH")  # PATH: path_programs


def named_places(
    environ: Mapping[str, str], base: str, windows: bool
) -> list[tuple[str, bool, str]]:
    """The folders and files the variables of ``PLACES_ENV`` name, each as (absolute path,
    everything below it too, label); a relative value is read against ``base`` (the folder
    Claude Code started in), a list split on ``;`` on Windows and ``:`` elsewhere. Each is
    protected as a folder: a file is matched on its own path either way."""
    mod, sep = (ntpath, ";") if windows else (posixpath, ":")
    out: list[tuple[str, bool, str]] = []
    for name, listed, what in PLACES_ENV:
        value = environ.get(name, "")
        for part in value.split(sep) if listed else [value]:
            part = part.strip()
            if part:
                path = mod.normpath(mod.join(base, part))
                out.append((path, True, f"${name} ({what})"))
    return out


def env_places(
    environ: Mapping[str, str], base: str, fs: FileSystem
) -> tuple[tuple[tuple[str, bool, str], ...], tuple[tuple[str, bool, str], ...]]:
    """What the hook's environment makes protected: ``named_places``, ``path_programs``."""
    planted = path_programs(environ.get("PATH", ""), base, fs)
    return tuple(named_places(environ, base, fs.windows)), tuple(planted)


def path_programs(value: str, base: str, fs: FileSystem) -> list[tuple[str, bool, str]]:
    """``PATH_SHELL_PROGRAMS`` in each folder of the hook's ``PATH`` that is relative or inside
    ``base`` (the project), however spelt (a link to the root counts): present or not, a file
    there is found before the system's. ``python3``, ``python`` and ``py`` too (the launcher's
    last resort runs them from ``PATH``), except in a virtualenv's own folder, where
    ``python3 -m venv`` rewrites them and the hook's own interpreter is protected as such.
    Only creating one is tampering: the folder is no holder, and a delete plants nothing."""
    windows = fs.windows
    mod, sep = (ntpath, ";") if windows else (posixpath, ":")
    exts = ("", ".exe", ".cmd", ".bat") if windows else ("",)
    inside = mod.normcase(mod.normpath(base)).rstrip("/\\") + mod.sep
    out: list[tuple[str, bool, str]] = []
    # an empty entry between others is the cwd; an empty or unset PATH searches no folder here
    for part in dict.fromkeys(p.strip() for p in value.split(sep)) if value.strip() else ():
        folder = mod.normpath(mod.join(base, part or "."))
        with contextlib.suppress(OSError, ValueError):
            folder = fs.realpath(folder)
        if not (mod.normcase(folder) + mod.sep).startswith(inside):
            continue
        venv = fs.identity(mod.join(mod.dirname(folder), "pyvenv.cfg")) is not None
        names = PATH_SHELL_PROGRAMS + (() if venv else PATH_PYTHONS)
        label = f"a program the hook command runs by name ($PATH holds {part or '.'!r})"
        out += [(mod.join(folder, n + e), False, label) for n in names for e in exts]
    return out


# What Claude Code (and this package) read from a .claude folder below the root: a session
# started there, or in a worktree (``.claude/worktrees/NAME``, where Claude Code puts them),
# reads its settings, its agents, the boundary's config and launcher from its own .claude.
NESTED_CLAUDE_FILES = frozenset({"settings.json", "settings.local.json", "boundary.toml"})
NESTED_CLAUDE_DIRS = frozenset({"agents", "orchestrator-boundary", "skills", "commands", "hooks"})


def nested_claude_label(path: str) -> str | None:
    """The label of ``path`` (compared form, below the root) when a session started in a
    folder below the root reads it (``sub/.claude/settings.json``); None otherwise."""
    tail = path.rpartition("/.claude/")[2]
    first = tail.partition("/")[0]
    if tail in NESTED_CLAUDE_FILES or first in NESTED_CLAUDE_DIRS:
        shown = f".claude/{first}/" if first in NESTED_CLAUDE_DIRS else f".claude/{tail}"
        return f"{shown} of a folder below the root (a session started there reads it)"
    return None
