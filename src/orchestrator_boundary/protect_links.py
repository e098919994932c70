"""Hard links: a file that shares its content with a protected one. ADR 0010.

A hard link resolves to itself, so the path lookups in ``protect`` cannot see it; this module
compares file identities instead (through the ``FileSystem`` interface).
"""

from __future__ import annotations

from orchestrator_boundary.paths import FileSystem, Located
from orchestrator_boundary.protect import Protected, ProtectedSet

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
