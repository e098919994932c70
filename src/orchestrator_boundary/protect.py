"""Tamper protection: the files that guard the agents are out of every agent's reach. ADR 0010.

Protected: the settings files that register hooks, ``.claude/boundary.toml`` (or the config
named by ``ORCHESTRATOR_BOUNDARY_CONFIG``), the audit folder, ``.claude/agents/`` definitions,
the skills and commands (``.claude/skills/``, ``.claude/commands/``) and the project's MCP
servers (``.mcp.json``), whose code Claude Code runs without a hook (ADR 0053),
environment files that could set the bypass for a later session (``.env``, ``.env.*``,
``.envrc``, in the root and at any depth below it), managed settings, the installed plugins
(``~/.claude/plugins/``, ``$CLAUDE_CONFIG_DIR/plugins/``: their hooks and mods can answer
first), this package's own files, and everything the hook needs to run (the interpreter,
the installation a venv is built on, its standard library, site-packages, ``pyvenv.cfg``, the
evaluator's runtime folder). Matching is literal (no glob meaning in user paths), on resolved
paths, for the literal and the symlink-resolved form of each protected entry. This module
holds the set, its index and the lookup of a resolved path (``hit``); ``protect_named`` reads
find's name filters, ``protect_links`` hard links, ``protect_guess`` paths the command text
does not fix.
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Callable, Iterable, Mapping

from orchestrator_boundary.paths import FileSystem, Located, fold
from orchestrator_boundary.protect_claude import (
    CONFIG_DIRS,
    CONFIG_FILES,
    GLOBAL_CONFIGS,
    nested_claude_label,
)
from orchestrator_boundary.protect_hooks import code_scripts
from orchestrator_boundary.values import frozen

# .mcp.json: the project's MCP servers, programs Claude Code starts with no hook asked; a
# server the user approved by name runs whatever command the file gives it next (ADR 0053)
MCP_FILE = ".mcp.json"
PROJECT_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/boundary.toml",
    ".env",
    ".envrc",
    MCP_FILE,
)
# .claude/orchestrator-boundary: the committed launcher every teammate's hooks run (ADR 0023).
# .claude/skills, .claude/commands: Claude Code runs a skill's (or a command's) !`cmd` lines and
# the hooks in its front matter when the Skill tool loads it, and no PreToolUse hook sees those
# commands (observed on 2.1.330; ADR 0053).
CODE_DIRS = (".claude/skills", ".claude/commands")
PROJECT_DIRS = (
    ".claude/boundary",
    ".claude/agents",
    ".claude/orchestrator-boundary",
    ".claude-plugin",
    ".claude/hooks",
    *CODE_DIRS,
)
# Folders of Claude Code's config folder (``~/.claude``, ``$CLAUDE_CONFIG_DIR``) whose files it
# runs, sources or acts on with no hook asked; its own file tools refuse to write them (the
# pinned 2.1.330 names them): session-env (scripts run ahead of every Bash command),
# shell-snapshots (sourced by every Bash command), jobs, daemon (and daemon.json); and hooks,
# where hook scripts live, run on every call. Project hook scripts live in .claude/hooks.
RUN_DIRS = ("hooks", "session-env", "shell-snapshots", "jobs", "daemon")
RUN_FILES = ("daemon.json",)
HOME_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude.json",
    *GLOBAL_CONFIGS,  # ADR 0066: the global config of the other sign-in routes
    *(".claude/" + name for name in (*RUN_FILES, *CONFIG_FILES)),
)
# + per-user audit trails; .claude/plugins: installed plugins (installed_plugins.json, their
# hooks and mods, which can answer a tool call before ours) and the marketplaces they come from
HOME_DIRS = (
    ".claude/agents",
    ".claude/orchestrator-boundary",
    ".claude/plugins",
    *CODE_DIRS,
    *(".claude/" + name for name in (*RUN_DIRS, *CONFIG_DIRS)),
)
# the same in $CLAUDE_CONFIG_DIR, which takes the place of ~/.claude (and of ~/.claude.json)
CONFIG_DIR_FILES = (
    "settings.json", "settings.local.json", ".claude.json",
    *GLOBAL_CONFIGS, *RUN_FILES, *CONFIG_FILES,
)  # fmt: skip
CONFIG_DIR_DIRS = ("agents", "plugins", "skills", "commands", *RUN_DIRS, *CONFIG_DIRS)
ABOVE_CONFIG = ".claude/boundary.toml of a folder above the project"
MANAGED_DIRS = (
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
    "C:\\Program Files\\ClaudeCode",
)


@frozen
class Protected:
    path: str  # absolute
    folder: bool  # everything below it too
    label: str
    prefix: bool = False  # any path starting with it (rotated audit files: audit.jsonl.1, ...)
    unless: tuple[str, ...] = ()  # for a prefix: what may follow it and is not protected
    run: bool = False  # a file programs run or read (a hook's script): a word naming it is no write
    planted: bool = False  # only its creation counts: it holds no folder, and no delete meets it


def protected_set(
    root: str,
    *,
    home: str | None,
    config_file: str,
    audit_file: str,
    package_dirs: Iterable[str],
    fs: FileSystem,
    claude_config_dir: str | None = None,
    runtime: Iterable[RuntimePath] = (),
    planted: Iterable[RuntimePath] = (),
) -> ProtectedSet:
    """The protected set for this project, indexed for the root's file system."""
    entries: list[Protected] = []

    def add(path: str, folder: bool, label: str, run: bool = False, planted: bool = False) -> None:
        entries.append(Protected(path, folder, label, run=run, planted=planted))
        with contextlib.suppress(OSError, ValueError):
            if (real := fs.realpath(path)) != path:
                entries.append(Protected(real, folder, label, run=run, planted=planted))

    for rel in PROJECT_FILES:
        add(posixpath.join(root, rel), False, rel)
    for rel in PROJECT_DIRS:
        add(posixpath.join(root, rel), True, rel + "/")
    if home:
        for rel in HOME_FILES:
            add(posixpath.join(home, rel), False, "~/" + rel)
        for rel in HOME_DIRS:
            add(posixpath.join(home, rel), True, "~/" + rel + "/")
    if claude_config_dir:  # CLAUDE_CONFIG_DIR moves the user settings out of ~/.claude
        for name in CONFIG_DIR_FILES:
            add(posixpath.join(claude_config_dir, name), False, f"$CLAUDE_CONFIG_DIR/{name}")
        for name in CONFIG_DIR_DIRS:
            add(posixpath.join(claude_config_dir, name), True, f"$CLAUDE_CONFIG_DIR/{name}/")
        ours = posixpath.join(claude_config_dir, "orchestrator-boundary")
        add(ours, True, "$CLAUDE_CONFIG_DIR/orchestrator-boundary/")
    for managed in MANAGED_DIRS:
        entries.append(Protected(managed, True, "managed settings"))
    add(config_file, False, "the boundary config")
    for path in configs_above(root):
        add(path, False, ABOVE_CONFIG)
    add(audit_file, False, "the audit trail")
    entries.append(Protected(audit_file + ".", False, "the audit trail", prefix=True))
    # its hidden siblings wherever [audit] path puts it: -lock, -head, -spool-*, -partial-*
    hidden = posixpath.join(posixpath.dirname(audit_file), f".{posixpath.basename(audit_file)}-")
    entries.append(Protected(hidden, False, "the audit trail", prefix=True))
    for pkg in package_dirs:
        add(pkg, True, "orchestrator-boundary's own files")
    entries.extend(env_file_entries(root))
    for path, folder, label in kept_runtime(runtime, root, home):
        add(path, folder, label)
    for path, folder, label in code_scripts(root, home, claude_config_dir, fs):  # 0071, 0083
        add(path, folder, label, run=True)
    for path, folder, label in planted:  # programs the hook's PATH finds in the project
        add(path, folder, label, planted=True)
    env_roots = [root]
    with contextlib.suppress(OSError, ValueError):
        env_roots.append(fs.realpath(root))
    return index(tuple(entries), fs.case_insensitive(root), env_roots)


def configs_above(root: str) -> list[str]:
    """``.claude/boundary.toml`` in every folder above ``root``: one there would be taken as
    the config of a session started there or below, in place of the project's
    (``wire.configured_above``, ADR 0054)."""
    out: list[str] = []
    below, folder = root, posixpath.dirname(root)
    while folder and folder != below:
        out.append(posixpath.join(folder, ".claude/boundary.toml"))
        below, folder = folder, posixpath.dirname(folder)
    return out


# What the hook needs to run, as the shell found it (``setups.runtime_paths``):
# (absolute path, everything below it too, label).
RuntimePath = tuple[str, bool, str]


ENV_TEMPLATES = ("example", "sample", "template")  # .env.dist stays: Symfony loads it
ENV_FILES = (".env", ".envrc")


def env_file_entries(root: str) -> list[Protected]:
    """``.env.*`` in the root (``.env.local``, ``.env.production``...): dotenv loaders and
    direnv read them into the environment of a later session, where they can set the bypass.
    ``.env`` and ``.envrc`` themselves are in ``PROJECT_FILES``. The templates committed for
    people to copy (``ENV_TEMPLATES``) are read by no loader and stay ordinary files. Below the
    root the same names are protected by ``hit`` (a loader started in a subfolder, direnv
    walking up from it, reads them there)."""
    return [
        Protected(posixpath.join(root, ".env."), False, ".env.*", prefix=True, unless=ENV_TEMPLATES)
    ]


def env_label(name: str) -> str | None:
    """The label of an env file named ``name`` (compared form), None when it is none."""
    if name in ENV_FILES:
        return name
    if name.startswith(".env.") and name[5:] not in ENV_TEMPLATES:
        return ".env.*"
    return None


def _holds(folder: str, path: str) -> bool:
    a, b = compared(folder, True), compared(path, True)  # folded: when unsure, hold
    return b == a or b.startswith(a + "/") or a == ""


def kept_runtime(runtime: Iterable[RuntimePath], root: str, home: str | None) -> list[RuntimePath]:
    """``runtime`` without the folders that hold the project root or the home folder: a
    Python installed at ``/usr`` with the project in ``/usr/src/app`` must not make every
    project file protected. The installation's own parts (interpreter, standard library,
    site-packages) are listed on their own, so they stay protected."""
    anchors = [a for a in (root, home) if a]
    return [r for r in runtime if not (r[1] and any(_holds(r[0], a) for a in anchors))]


@frozen(eq=False)
class ProtectedSet:
    """The protected entries, and the index ``hit`` looks things up in (built with the set)."""

    entries: tuple[Protected, ...]
    insensitive: bool  # the keys below are folded for a case-insensitive file system
    exact: Mapping[str, Protected]  # compared form of each entry's own path
    folders: Mapping[str, Protected]  # entries that cover everything below them
    prefixes: tuple[tuple[str, Protected], ...]  # rotated audit files: audit.jsonl.*
    holders: Mapping[str, Protected]  # every folder above an entry -> the first entry it holds
    below: tuple[str, ...]  # each folder's key + "/": a path starting with none is in none
    env_below: tuple[str, ...] = ()  # the root's keys + "/": env files at any depth below


def compared(path: str, insensitive: bool) -> str:
    """``path`` as the index compares it: forward slashes, folded when ``insensitive``."""
    return fold(path.replace("\\", "/"), insensitive).rstrip("/")


def index(
    entries: tuple[Protected, ...], insensitive: bool, env_roots: Iterable[str] = ()
) -> ProtectedSet:
    """``entries`` with their lookup index, keys compared as the file system compares them;
    env files are protected at any depth below each of ``env_roots``."""
    exact: dict[str, Protected] = {}
    folders: dict[str, Protected] = {}
    prefixes: list[tuple[str, Protected]] = []
    holders: dict[str, Protected] = {}
    for entry in entries:
        if entry.prefix:
            prefixes.append((fold(entry.path.replace("\\", "/"), insensitive), entry))
            continue
        key = compared(entry.path, insensitive)
        exact.setdefault(key, entry)
        if entry.folder:
            folders.setdefault(key, entry)
        parent = key
        while "/" in parent and not entry.planted:  # a planted entry's folder is work (ADR 86)
            parent = parent.rpartition("/")[0]
            if holders.setdefault(parent, entry).run:  # another entry names the folder first
                holders[parent] = entry
    below = tuple(k + "/" for k in folders)
    env_below = tuple(dict.fromkeys(compared(r, insensitive) + "/" for r in env_roots))
    return ProtectedSet(
        entries, insensitive, exact, folders, tuple(prefixes), holders, below, env_below
    )


EMPTY = index((), False)


class Deferred:
    """The protected set, made when a call first asks for it (``Context.protected``): a call
    with nothing to write, an orchestrator's Read, never pays for resolving every entry and
    the interpreter's paths. ``make`` answers (the set, the clock time it expires); a set is
    never used past that time, as when it was made with the Setup."""

    __slots__ = ("_clock", "_made", "_make", "_until")

    def __init__(
        self, make: Callable[[], tuple[ProtectedSet, float]], clock: Callable[[], float]
    ) -> None:
        self._make, self._clock = make, clock
        self._made: ProtectedSet | None = None
        self._until = 0.0

    def get(self) -> ProtectedSet:
        if self._made is None or self._clock() >= self._until:
            self._made, self._until = self._make()
        return self._made


def above(a: str, anchor: str) -> bool:
    """``a`` is ``anchor`` or a folder above it."""
    return anchor == a or anchor.startswith(a + "/")


def hit(
    located: Located, protected: ProtectedSet, anchors: tuple[str, ...] = (), deletes: bool = False
) -> Protected | None:
    """The protected entry a write to ``located`` would change, if any.

    A folder that holds a protected entry counts too: ``rm -rf .claude``, ``mv .claude x`` or
    ``cp -r evil/. .claude`` change the settings without ever naming them. The ``anchors``
    (the project root and the home folder) and the folders above them do not count that way:
    ``tar xf x.tar`` or ``git checkout -- .`` in the root are ordinary work, judged by the
    write rules, not tampering (the policy passes no anchors for deletes).
    """
    insensitive, exact, folders = protected.insensitive, protected.exact, protected.folders
    for absolute in located.absolutes or (located.raw,):
        raw = absolute.replace("\\", "/")
        if insensitive:
            raw = fold(raw, insensitive)
        for prefix, entry in protected.prefixes:
            if raw.startswith(prefix) and raw[len(prefix) :] not in entry.unless:
                return entry
        a = raw.rstrip("/")
        found = exact.get(a)
        if found is not None and not (deletes and found.planted):
            return found
        if a.startswith(protected.below):  # inside a protected folder: the nearest one
            parent = a
            while "/" in parent:
                parent = parent.rpartition("/")[0]
                if parent in folders:
                    return folders[parent]
        if "/.env" in a and a.startswith(protected.env_below):  # an env file below the root
            label = env_label(a.rpartition("/")[2])
            if label is not None:
                return Protected(absolute, False, label)
        if a.endswith("/" + MCP_FILE) and a.startswith(protected.env_below):  # a nested .mcp.json
            shown = f"{MCP_FILE} of a folder below the root (a session started there reads it)"
            return Protected(absolute, False, shown)
        if "/.claude/" in a and a.startswith(protected.env_below):  # a nested .claude folder
            label = nested_claude_label(a)
            if label is not None:
                return Protected(absolute, False, label)
        holder = protected.holders.get(a)
        if holder is not None and not any(above(a, compared(x, insensitive)) for x in anchors):
            return Protected(holder.path, holder.folder, f"a folder holding {holder.label}")
    return None


_CODE_FOLDERS = ("/skills", "/commands")


def protected_reason(display: str, entry: Protected) -> str:
    """One sentence for a TAMPER violation: what ``display`` is to the guard, and that no
    agent may change it. ``entry.label`` is a path (``.claude/agents/``, ``~/.claude.json``)
    or a description (``the audit trail``, ``a folder holding .claude/settings.json``)."""
    label, end = entry.label, "no agent may change it."
    shown = display.replace("\\", "/").rstrip("/")
    if label.partition(" ")[0] == MCP_FILE:
        return (
            f"{display} names MCP servers, programs that Claude Code starts without asking "
            f"the boundary, so {end}"
        )
    folder = label.partition(" ")[0]
    if folder.rstrip("/").endswith(_CODE_FOLDERS):  # .claude/skills/, ~/.claude/commands/...
        itself = shown.endswith(folder.rstrip("/").lstrip("~$"))
        where = "is where" if itself else f"is in {folder}, where"
        return (
            f"{display} {where} Claude Code finds skills and commands; it runs their `!` "
            f"command lines and front-matter hooks without asking the boundary, so {end}"
        )
    ran = folder.rstrip("/").rpartition("/")[2]
    if ran in RUN_DIRS or ran in RUN_FILES:  # ~/.claude/session-env/, .claude/hooks/...
        where = "is" if shown.endswith(folder.rstrip("/").lstrip("~$")) else f"is in {folder},"
        return (
            f"{display} {where} one of the places whose scripts and settings Claude Code runs "
            f"or acts on without asking the boundary, so {end}"
        )
    if label.startswith(("a folder holding ", "a hard link to ")):
        return f"{display} is {label}, which guards the agents; {end}"
    if label.startswith("protected by "):
        return f"{display} is {label}; {end}"
    if label.startswith((".", "~", "$", "/")):
        if shown.endswith(label.rstrip("/")):
            return f"{display} guards the agents; {end}"
        where = "in " if entry.folder else ""
        return f"{display} is {where}{label}, which guards the agents; {end}"
    return f"{display} is {'part of ' if entry.folder else ''}{label}; {end}"
