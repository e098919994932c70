"""Tamper protection: the files that guard the agents are out of every agent's reach. ADR 0010.

Protected: the settings files that register hooks, ``.claude/boundary.toml`` (or the config
named by ``ORCHESTRATOR_BOUNDARY_CONFIG``), the audit folder, ``.claude/agents/`` definitions,
environment files that could set the bypass for a later session, managed settings, and this
package's own files. Matching is literal (no glob meaning in user paths), on resolved paths,
for the literal and the symlink-resolved form of each protected entry.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
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
) -> tuple[Protected, ...]:
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
    return tuple(entries)


_FOLDED: list[tuple[tuple[Protected, ...], bool, tuple[tuple[str, Protected], ...]]] = []


def _folded(protected: tuple[Protected, ...], insensitive: bool) -> tuple[tuple[str, Protected], ...]:
    """Each entry with its compared form, computed once per protected set (a hot path)."""
    for cached, flag, result in _FOLDED:
        if cached is protected and flag == insensitive:
            return result
    result = tuple(
        (fold(e.path.replace("\\", "/"), insensitive).rstrip("/") if not e.prefix
         else fold(e.path.replace("\\", "/"), insensitive), e)
        for e in protected
    )
    _FOLDED[:] = [*_FOLDED[-7:], (protected, insensitive, result)]
    return result


def _above(a: str, anchor: str) -> bool:
    return anchor == a or anchor.startswith(a.rstrip("/") + "/")


def hit(located: Located, protected: tuple[Protected, ...], insensitive: bool,
        anchors: tuple[str, ...] = ()) -> Protected | None:
    """The protected entry a write to ``located`` would change, if any.

    A folder that holds a protected entry counts too: ``rm -rf .claude``, ``mv .claude x`` or
    ``cp -r evil/. .claude`` change the settings without ever naming them. The ``anchors``
    (the project root and the home folder) and the folders above them do not count that way:
    ``find . -name '*.pyc' -delete`` or ``tar xf x.tar`` in the root are ordinary work, judged
    by the write rules, not tampering.
    """
    folded_anchors = tuple(fold(x.replace("\\", "/"), insensitive).rstrip("/") for x in anchors)
    for absolute in located.absolutes or (located.raw,):
        a = fold(absolute.replace("\\", "/"), insensitive)
        for p, entry in _folded(protected, insensitive):
            if entry.prefix:
                if a.startswith(p):
                    return entry
            elif a == p or (entry.folder and a.startswith(p + "/")):
                return entry
            elif p.startswith(a.rstrip("/") + "/") and not any(
                    _above(a, anchor) for anchor in folded_anchors):
                return Protected(entry.path, entry.folder, f"a folder holding {entry.label}")
    return None


LINK_SCAN_LIMIT = 4096


def linked(located: Located, protected: tuple[Protected, ...], fs: FileSystem) -> Protected | None:
    """The protected file a hard link at ``located`` shares its content with, if any.

    A hard link resolves to itself, so path matching cannot see it: ``ln .claude/settings.json
    src/x`` (inside a subagent's scope) and a later Write to ``src/x`` rewrites the settings.
    Only files with more than one link are compared, so the usual call costs one ``stat``.
    File systems without ``identity`` (test doubles) skip the check.
    """
    identity = getattr(fs, "identity", None)
    if identity is None:
        return None
    wanted = set()
    for absolute in located.absolutes:
        ident = identity(absolute)
        if ident is not None and ident[2] > 1:
            wanted.add(ident[:2])
    if not wanted:
        return None
    below = getattr(fs, "files_below", None)
    for entry in protected:
        if entry.prefix:
            head = entry.path.rpartition("/")[0]
            candidates = [f for f in (below(head, LINK_SCAN_LIMIT) if below else [])
                          if f.startswith(entry.path) and "/" not in f[len(head) + 1 :]]
        elif entry.folder:
            candidates = below(entry.path, LINK_SCAN_LIMIT) if below else []
        else:
            candidates = [entry.path]
        for candidate in candidates:
            ident = identity(candidate)
            if ident is not None and ident[:2] in wanted:
                return Protected(entry.path, entry.folder, f"a hard link to {entry.label}")
    return None
