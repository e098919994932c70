"""``find START -name PATTERN -delete``: which protected entries a name filter lets through.

A delete that ``find`` limits by name reaches a protected entry only when the filter can
match it (or a folder on the way to it). ADR 0010, issue 14 point 6.
"""

from __future__ import annotations

import fnmatch

from orchestrator_boundary.paths import Located
from orchestrator_boundary.protect import Protected, ProtectedSet, compared

Names = tuple[tuple[str, bool], ...]  # find's -name (False) / -iname (True) patterns, all apply


def _named(name: str, names: Names) -> bool:
    return all(
        fnmatch.fnmatchcase(name.lower(), p.lower()) if fold else fnmatch.fnmatchcase(name, p)
        for p, fold in names
    )


def _bytecode_only(names: Names) -> bool:
    """Every name the filter lets through is a Python bytecode cache (``*.pyc``, ``*.pyo``,
    ``*.py[co]``, ``__pycache__``): Python writes them again from the source, so deleting them
    cannot change what guards the agents, wherever they are."""
    ends = (".pyc", ".pyo", ".py[co]", ".py[oc]")
    return any(
        "/" not in p and ((p.lower() if fold else p).endswith(ends) or p == "__pycache__")
        for p, fold in names
    )


def hit_named(located: Located, protected: ProtectedSet, names: Names) -> Protected | None:
    """``hit`` for ``find START -name PATTERN -delete``: only entries named by the pattern go.

    A protected entry below the start is hit when the pattern matches its name or the name of
    a folder between the start and it. What a protected folder holds is not known here: any
    pattern may match it, except one that lets through bytecode caches only. So
    ``find . -name '*.pyc' -delete`` is ordinary cleanup, ``find . -name '*.json' -delete``
    reaches .claude/settings.json.
    """
    insensitive = protected.insensitive
    bytecode = _bytecode_only(names)
    for absolute in located.absolutes or (located.raw,):
        a = compared(absolute, insensitive)
        for entry in protected.entries:
            e = compared(entry.path, insensitive)
            if entry.folder and (a == e or a.startswith(e + "/")):  # starts inside it
                if not bytecode:
                    return entry
                continue
            if not e.startswith(a + "/"):
                continue
            parts = e[len(a) + 1 :].split("/")
            if _named(parts[-1], names):
                return entry
            if any(_named(part, names) for part in parts[:-1]):
                return Protected(entry.path, entry.folder, f"a folder holding {entry.label}")
            if (entry.folder or entry.prefix) and not bytecode:
                return entry
    return None
