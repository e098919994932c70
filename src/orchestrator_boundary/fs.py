"""The real filesystem facts behind ``paths.FileSystem`` (shell side, not the pure core)."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from functools import lru_cache

from orchestrator_boundary.paths import Identity, Resolved

_UNUSUAL = frozenset({"", ".", ".."})


@lru_cache(maxsize=64)
def _probe_case_insensitive(root: str) -> bool:
    swapped = root.swapcase()
    if swapped == root:
        return sys.platform in ("darwin", "win32")
    try:
        return os.path.samestat(os.stat(root), os.stat(swapped))
    except OSError:
        return False


def _identity(st: os.stat_result) -> Identity | None:
    if not stat.S_ISREG(st.st_mode):
        return None
    return st.st_dev, st.st_ino, st.st_nlink


class RealFileSystem:
    """``paths.FileSystem`` on the machine's own file system. Holds no state between calls."""

    windows = os.name == "nt"

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def resolve(self, path: str, real_root: str) -> Resolved:
        """``os.path.realpath(path)`` when ``real_root`` is already resolved: only the
        components below the root are looked at (one ``lstat`` each, as realpath does), and
        anything unusual (a symlink, ``.``, ``..``, ``//``, a path elsewhere) takes the full
        ``os.path.realpath``. Same path, without re-walking the root's own components; the
        last ``lstat`` of a plain walk is what ``stat`` would say, so it is kept as the
        identity."""
        if self.windows or not path.startswith(real_root + "/") or real_root == "/":
            return Resolved(os.path.realpath(path))
        parts = path[len(real_root) + 1 :].split("/")
        if not _UNUSUAL.isdisjoint(parts):
            return Resolved(os.path.realpath(path))
        current = real_root
        st = None
        for part in parts:
            current = current + "/" + part
            try:
                st = os.lstat(current)
            except OSError:
                # realpath() joins the rest literally: below a component that cannot be
                # looked at, nothing can be looked at either (nor stat()ed)
                return Resolved(path, True, None)
            if stat.S_ISLNK(st.st_mode):
                return Resolved(os.path.realpath(path))
        if st is None:
            return Resolved(path)
        return Resolved(path, True, _identity(st))

    def case_insensitive(self, root: str) -> bool:
        return _probe_case_insensitive(root)

    def identity(self, path: str) -> Identity | None:
        """(device, inode, link count) of a regular file; None when it is not one."""
        try:
            return _identity(os.stat(path))
        except (OSError, ValueError):
            return None

    def files_below(self, folder: str, limit: int) -> list[str]:
        """Up to ``limit`` file paths below ``folder`` (for the hard-link check)."""
        out: list[str] = []
        for dirpath, _dirs, files in os.walk(folder):
            out.extend(os.path.join(dirpath, f) for f in files)
            if len(out) >= limit:
                break
        return out[:limit]


def sha256_of(path: str, limit: int = 256 * 1024 * 1024) -> str | None:
    """Hex SHA-256 of a regular file's content, None when it cannot be read (or is huge)."""
    try:
        st = os.stat(path)
        # only regular files: a FIFO would block and /dev/zero never ends (PostToolUse of
        # `echo x > /dev/zero` must not hang the hook until its timeout)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None
