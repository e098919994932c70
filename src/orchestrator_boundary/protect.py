"""Tamper protection: the files that guard the agents are out of every agent's reach. ADR 0010.

Protected: the settings files that register hooks, ``.claude/boundary.toml`` (or the config
named by ``ORCHESTRATOR_BOUNDARY_CONFIG``), the audit folder, ``.claude/agents/`` definitions,
environment files that could set the bypass for a later session, managed settings, and this
package's own files. Matching is literal (no glob meaning in user paths), on resolved paths,
for the literal and the symlink-resolved form of each protected entry.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from orchestrator_boundary.paths import FileSystem, Located, fold

PROJECT_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/boundary.toml",
    ".env",
    ".envrc",
)
PROJECT_DIRS = (".claude/boundary", ".claude/agents", ".claude-plugin")
HOME_FILES = (".claude/settings.json", ".claude/settings.local.json", ".claude.json")
HOME_DIRS = (".claude/agents",)
MANAGED_DIRS = (
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
    "C:\\Program Files\\ClaudeCode",
)


@dataclass(frozen=True, slots=True)
class Protected:
    path: str  # absolute
    folder: bool  # everything below it too
    label: str
    prefix: bool = False  # any path starting with it (rotated audit files: audit.jsonl.1, ...)


def protected_set(
    root: str,
    *,
    home: str | None,
    config_file: str,
    audit_file: str,
    package_dirs: Iterable[str],
    fs: FileSystem,
    claude_config_dir: str | None = None,
) -> ProtectedSet:
    """The protected set for this project, indexed for the root's file system."""
    entries: list[Protected] = []

    def add(path: str, folder: bool, label: str) -> None:
        entries.append(Protected(path, folder, label))
        try:
            real = fs.realpath(path)
        except (OSError, ValueError):
            return
        if real != path:
            entries.append(Protected(real, folder, label))

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
        for name in ("settings.json", "settings.local.json", ".claude.json"):
            add(posixpath.join(claude_config_dir, name), False, f"$CLAUDE_CONFIG_DIR/{name}")
        add(posixpath.join(claude_config_dir, "agents"), True, "$CLAUDE_CONFIG_DIR/agents/")
    for managed in MANAGED_DIRS:
        entries.append(Protected(managed, True, "managed settings"))
    add(config_file, False, "the boundary config")
    add(audit_file, False, "the audit trail")
    entries.append(Protected(audit_file + ".", False, "the audit trail", prefix=True))
    for pkg in package_dirs:
        add(pkg, True, "orchestrator-boundary's own files")
    return index(tuple(entries), fs.case_insensitive(root))


@dataclass(frozen=True, slots=True, eq=False)
class ProtectedSet:
    """The protected entries, and the index ``hit`` looks things up in (built with the set)."""

    entries: tuple[Protected, ...]
    insensitive: bool  # the keys below are folded for a case-insensitive file system
    exact: Mapping[str, Protected]  # compared form of each entry's own path
    folders: Mapping[str, Protected]  # entries that cover everything below them
    prefixes: tuple[tuple[str, Protected], ...]  # rotated audit files: audit.jsonl.*
    holders: Mapping[str, Protected]  # every folder above an entry -> the first entry it holds
    below: tuple[str, ...]  # each folder's key + "/": a path starting with none is in none


def _key(path: str, insensitive: bool) -> str:
    return fold(path.replace("\\", "/"), insensitive).rstrip("/")


def index(entries: tuple[Protected, ...], insensitive: bool) -> ProtectedSet:
    """``entries`` with their lookup index, keys compared as the file system compares them."""
    exact: dict[str, Protected] = {}
    folders: dict[str, Protected] = {}
    prefixes: list[tuple[str, Protected]] = []
    holders: dict[str, Protected] = {}
    for entry in entries:
        if entry.prefix:
            prefixes.append((fold(entry.path.replace("\\", "/"), insensitive), entry))
            continue
        key = _key(entry.path, insensitive)
        exact.setdefault(key, entry)
        if entry.folder:
            folders.setdefault(key, entry)
        parent = key
        while "/" in parent:
            parent = parent.rpartition("/")[0]
            holders.setdefault(parent, entry)
    below = tuple(k + "/" for k in folders)
    return ProtectedSet(entries, insensitive, exact, folders, tuple(prefixes), holders, below)


EMPTY = index((), False)


def _above(a: str, anchor: str) -> bool:
    return anchor == a or anchor.startswith(a + "/")


def hit(
    located: Located, protected: ProtectedSet, anchors: tuple[str, ...] = ()
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
            if raw.startswith(prefix):
                return entry
        a = raw.rstrip("/")
        found = exact.get(a)
        if found is not None:
            return found
        if a.startswith(protected.below):  # inside a protected folder: the nearest one
            parent = a
            while "/" in parent:
                parent = parent.rpartition("/")[0]
                if parent in folders:
                    return folders[parent]
        holder = protected.holders.get(a)
        if holder is not None and not any(_above(a, _key(x, insensitive)) for x in anchors):
            return Protected(holder.path, holder.folder, f"a folder holding {holder.label}")
    return None


LINK_SCAN_LIMIT = 4096


def linked(located: Located, protected: ProtectedSet, fs: FileSystem) -> Protected | None:
    """The protected file a hard link at ``located`` shares its content with, if any.

    A hard link resolves to itself, so path matching cannot see it: ``ln .claude/settings.json
    src/x`` (inside a subagent's scope) and a later Write to ``src/x`` rewrites the settings.
    Only files with more than one link are compared, so the usual call costs no ``stat`` beyond
    the one its resolution already made.
    """
    wanted = set()
    for absolute in located.absolutes:
        ident = located.identity_of(absolute, fs)
        if ident is not None and ident[2] > 1:
            wanted.add(ident[:2])
    if not wanted:
        return None
    for entry in protected.entries:
        if entry.prefix:
            head = entry.path.rpartition("/")[0]
            candidates = [
                f
                for f in fs.files_below(head, LINK_SCAN_LIMIT)
                if f.startswith(entry.path) and "/" not in f[len(head) + 1 :]
            ]
        elif entry.folder:
            candidates = fs.files_below(entry.path, LINK_SCAN_LIMIT)
        else:
            candidates = [entry.path]
        for candidate in candidates:
            ident = fs.identity(candidate)
            if ident is not None and ident[:2] in wanted:
                return Protected(entry.path, entry.folder, f"a hard link to {entry.label}")
    return None
