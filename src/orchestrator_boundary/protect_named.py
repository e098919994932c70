"""``find START -name PATTERN -delete``: which protected entries a name filter lets through.

A delete that ``find`` limits by name reaches a protected entry only when the filter can
match it (or a folder on the way to it). ADR 0010, issue 14 point 6: ordinary cleanup
(``find . -name '*.log' -delete``) is judged by the write rules, and TAMPER is kept for where
a protected file can really be hit.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable

from orchestrator_boundary.paths import FileSystem, Located
from orchestrator_boundary.protect import Protected, ProtectedSet, compared, hit

Names = tuple[tuple[str, bool], ...]  # find's -name (False) / -iname (True) patterns, all apply

# At most this many files below a start are looked at; a bigger tree keeps the conservative
# answer (any pattern may reach what a protected folder holds).
SCAN_LIMIT = 20_000

_WINDOWS_SEPARATORS = re.compile(r"[\\/]")


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


def _by_name(
    absolute: str, protected: ProtectedSet, names: Names
) -> tuple[Protected | None, Protected | None]:
    """(the protected entry the filter names, the first one it may reach unseen).

    An entry below the start is hit when the pattern matches its name or the name of a folder
    between the start and it, whether or not it exists now. A protected folder the start is
    in or above, and a prefix entry (``audit.jsonl.N``, ``.env.*``), hold names not known
    here: the second answer is the first of them (never for bytecode caches)."""
    insensitive = protected.insensitive
    bytecode = _bytecode_only(names)
    a = compared(absolute, insensitive)
    unseen: Protected | None = None
    for entry in protected.entries:
        e = compared(entry.path, insensitive)
        if entry.folder and (a == e or a.startswith(e + "/")):  # starts inside it
            unseen = unseen or (None if bytecode else entry)
            continue
        if not e.startswith(a + "/"):
            continue
        parts = e[len(a) + 1 :].split("/")
        if _named(parts[-1], names):
            return entry, unseen
        if any(_named(part, names) for part in parts[:-1]):
            return Protected(entry.path, entry.folder, f"a folder holding {entry.label}"), unseen
        if (entry.folder or entry.prefix) and not bytecode:
            unseen = unseen or entry
    return None, unseen


def _matcher(names: Names) -> Callable[[str], bool]:
    """``_named`` with each pattern compiled once: a look below a start tests thousands."""
    tests = [(re.compile(fnmatch.translate(p.lower() if fold else p)), fold) for p, fold in names]
    return lambda name: all(rx.match(name.lower() if fold else name) for rx, fold in tests)


def _deleted(start: str, files: list[str], names: Names, windows: bool) -> list[str]:
    """What ``find START -name ... -delete`` deletes, given the files below ``start``: the
    start itself, each file and each folder on the way to one whose name the filter matches.
    Folders are known here only through the files they hold (an empty one is not listed);
    each is tested once, however many files it holds."""
    named = _matcher(names)
    sep = "\\" if windows else "/"
    base = start.rstrip("\\/" if windows else "/")
    own = _WINDOWS_SEPARATORS.split(base)[-1] if windows else base.rpartition("/")[2]
    out: dict[str, None] = {start: None} if own and named(own) else {}
    folders: set[str] = {""}
    for path in files:
        if not path.startswith(base):
            continue
        rest = path[len(base) :]
        if windows:
            rest = rest.replace("/", sep)
        folder, _, name = rest.rpartition(sep)
        while folder not in folders:  # each folder on the way, from the deepest up
            folders.add(folder)
            parent, _, part = folder.rpartition(sep)
            if part and named(part):
                out[base + folder] = None
            folder = parent
        if name and named(name):
            out[base + rest] = None
    return list(out)


def _seen_below(
    located: Located, protected: ProtectedSet, names: Names, fs: FileSystem
) -> tuple[Protected | None, bool]:
    """(the protected entry among what the delete really reaches, whether every start was
    looked at in full). Each entry find would delete is judged as a delete of it
    (``protect.hit``), so protected folders, rotated audit files, ``.env.*`` files and the
    Claude files of nested ``.claude`` folders count, as they exist now."""
    for start in located.absolutes:
        files = fs.files_below(start, SCAN_LIMIT + 1)
        if len(files) > SCAN_LIMIT:
            return None, False
        for path in _deleted(start, files, names, fs.windows):
            entry = hit(Located(path, (path,), (), ""), protected)
            if entry is not None:
                return entry, True
    return None, True


def hit_named(
    located: Located, protected: ProtectedSet, names: Names, fs: FileSystem | None = None
) -> Protected | None:
    """``hit`` for ``find START -name PATTERN -delete``: only entries named by the pattern go.

    A protected entry below the start is hit when the pattern matches its name or the name of
    a folder between the start and it. What a protected folder (or the files a prefix entry
    stands for) holds is looked at through ``fs``: the files below the start the filter lets
    through are judged one by one. So ``find . -name '*.log' -delete`` is ordinary cleanup
    unless a ``.log`` file sits in a protected folder, ``find . -name '*.json' -delete``
    reaches .claude/settings.json. Without ``fs``, with a start that could not be resolved, or
    with more than ``SCAN_LIMIT`` files below the start, any pattern may match what a
    protected folder holds, except one that lets through bytecode caches only.
    """
    unseen: Protected | None = None
    for absolute in located.absolutes or (located.raw,):
        entry, reaches = _by_name(absolute, protected, names)
        if entry is not None:
            return entry
        unseen = unseen or reaches
    if _bytecode_only(names) or fs is None or not located.absolutes:
        return unseen
    found, complete = _seen_below(located, protected, names, fs)
    return found if complete else unseen
