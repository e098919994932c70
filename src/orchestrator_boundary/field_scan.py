"""A cheap, bounded picture of the files under the project root, and what changed between two
(ADR 0029). Shell side: it lists folders and ``lstat``s entries.

A snapshot maps each entry's path (relative, ``/``-separated) to a signature: a hash of its
size, modification time (ns), inode and mode (kind and permissions); a folder's is ``DIR``. Folders
are walked breadth first, and a folder is either listed completely or not at all, so two
snapshots compare exactly over the folders both listed. The walk stops at ``Bounds`` (entries,
depth, time); what it could not list is not compared, and the result says so (``partial``). It
never descends into ``SKIP_DIRS`` (version control data, dependency folders, caches: large, and
changed by tools as a side effect), nor follows a symbolic link. A folder that cannot be read
is left out of both pictures alike.

The second snapshot (``within=`` the first) lists only the folders the first one listed, and
folders that are new: it costs about what the first did, however the tree grew meanwhile.
"""

from __future__ import annotations

import json
import os
import stat
import time
import zlib
from collections import deque
from collections.abc import Callable

from orchestrator_boundary.values import field, frozen

SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".jj",  # version control data
        "node_modules", ".venv", "venv", ".tox", ".nox",  # dependencies
        "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache",  # caches
    }
)  # fmt: skip


@frozen
class Bounds:
    entries: int = 10_000
    depth: int = 24
    seconds: float = 0.1


# A folder's signature: its own times change with its entries, which are compared. Python's
# hash() of an int tuple is never -1 (and the same in every process of one interpreter).
DIR = -1
Signature = int


@frozen
class Snapshot:
    entries: dict[str, Signature] = field(default_factory=dict)  # path -> signature
    dirs: frozenset[str] = frozenset()  # folders listed completely; "" is the root
    partial: str = ""  # why the walk stopped early ("entries", "depth", "time"), or ""


def _signature(st: os.stat_result) -> Signature:
    if stat.S_ISDIR(st.st_mode):
        return DIR
    return hash((st.st_size, st.st_mtime_ns, st.st_ino, st.st_mode))


def scan(
    root: str,
    *,
    skip: Callable[[str], bool] = lambda _: False,
    bounds: Bounds | None = None,
    within: Snapshot | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Snapshot:
    """The entries under ``root``; ``skip(absolute_path)`` leaves an entry out (the hook's
    own files). With ``within``: only its listed folders and folders new since it."""
    bounds = bounds or Bounds()
    deadline = clock() + bounds.seconds
    entries: dict[str, Signature] = {}
    dirs: set[str] = set()
    queue: deque[tuple[str, str, int]] = deque([(root, "", 0)])
    while queue:
        folder, rel, depth = queue.popleft()
        listed = _list(folder, rel, skip, bounds.entries - len(entries))
        if listed is None:
            continue  # cannot be read: left out of both pictures
        if listed is _OVER:
            return Snapshot(entries, frozenset(dirs), "entries")
        for name_rel, (full, sig) in listed.items():
            entries[name_rel] = sig
            if sig != DIR or os.path.basename(full) in SKIP_DIRS:
                continue
            if within is not None and name_rel in within.entries and name_rel not in within.dirs:
                continue  # it was there and not listed before: nothing to compare it with
            if depth + 1 > bounds.depth:
                return Snapshot(entries, frozenset(dirs), "depth")
            queue.append((full, name_rel, depth + 1))
        dirs.add(rel)
        if queue and clock() > deadline:
            return Snapshot(entries, frozenset(dirs), "time")
    return Snapshot(entries, frozenset(dirs), "")


_OVER: dict[str, tuple[str, Signature]] = {}  # a folder with more entries than the walk may take


def _list(
    folder: str, rel: str, skip: Callable[[str], bool], room: int
) -> dict[str, tuple[str, Signature]] | None:
    """One folder's entries (relative path -> (absolute path, signature)); None when it
    cannot be read; ``_OVER`` when it holds more than ``room`` entries."""
    out: dict[str, tuple[str, Signature]] = {}
    try:
        with os.scandir(folder) as it:  # noqa: TID251 - the shell lists folders
            for entry in it:
                if skip(entry.path):
                    continue
                if len(out) >= room:
                    return _OVER
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone meanwhile: absent from this picture
                out[f"{rel}/{entry.name}" if rel else entry.name] = (entry.path, _signature(st))
    except OSError:
        return None
    return out


def changes(before: Snapshot, after: Snapshot) -> tuple[list[str], bool]:
    """The paths created, removed or changed between two snapshots, and whether some part of
    the tree could not be compared."""
    new_dirs = {d for d in after.dirs if d and d not in before.entries}
    compared = (before.dirs & after.dirs) | new_dirs
    out = [
        p
        for p, sig in after.entries.items()
        if _parent(p) in compared and before.entries.get(p) != sig
    ]
    gone: dict[str, bool] = {}
    for p in before.entries:
        parent = _parent(p)
        if p in after.entries or parent not in before.dirs:
            continue
        if parent in after.dirs or _removed(parent, after, gone):
            out.append(p)  # listed again without it, or its folder is gone too
    unlisted = [d for d in before.dirs if d not in after.dirs and not _removed(d, after, gone)]
    partial = bool(before.partial or after.partial or unlisted)
    return sorted(out), partial


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


def _removed(folder: str, after: Snapshot, memo: dict[str, bool]) -> bool:
    """Is ``folder`` known to be gone in ``after`` (it, or a folder above it, is missing
    from a folder ``after`` listed)?"""
    if folder == "" or folder in after.entries:
        return False
    if folder not in memo:
        parent = _parent(folder)
        memo[folder] = parent in after.dirs or _removed(parent, after, memo)
    return memo[folder]


def encode(snap: Snapshot) -> bytes:
    data = {"e": snap.entries, "d": sorted(snap.dirs), "p": snap.partial}
    return zlib.compress(
        json.dumps(data, separators=(",", ":")).encode("utf-8", "surrogatepass"), 1
    )


def decode(blob: bytes) -> Snapshot | None:
    """The snapshot ``encode`` wrote; None when the bytes are not one."""
    try:
        data = json.loads(zlib.decompress(blob).decode("utf-8", "surrogatepass"))
        entries, dirs, partial = data["e"], data["d"], data["p"]
    except (zlib.error, ValueError, KeyError, TypeError):
        return None
    if not (isinstance(entries, dict) and isinstance(dirs, list) and isinstance(partial, str)):
        return None
    return Snapshot(entries, frozenset(dirs), partial)
