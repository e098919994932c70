"""The real filesystem facts behind ``paths.FileSystem`` (shell side, not the pure core)."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from functools import lru_cache

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


class RealFileSystem:
    windows = os.name == "nt"

    def __init__(self) -> None:
        # (path, lstat) of the last component realpath_under() looked at, or (path, None) when
        # the walk could not look at it (a new file): identity() of the same path right after
        # needs no second stat.
        self._last: tuple[str, os.stat_result | None] | None = None

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def realpath_under(self, path: str, real_root: str) -> str:
        """``os.path.realpath(path)`` when ``real_root`` is already resolved: only the
        components below the root are looked at (one ``lstat`` each, as realpath does), and
        anything unusual (a symlink, ``.``, ``..``, ``//``, a path elsewhere) takes the full
        ``os.path.realpath``. Same result, without re-walking the root's own components."""
        self._last = None
        if self.windows or not path.startswith(real_root + "/") or real_root == "/":
            return os.path.realpath(path)
        parts = path[len(real_root) + 1 :].split("/")
        if not _UNUSUAL.isdisjoint(parts):
            return os.path.realpath(path)
        current = real_root
        st = None
        for part in parts:
            current = current + "/" + part
            try:
                st = os.lstat(current)
            except OSError:
                # realpath() joins the rest literally: below a component that cannot be
                # looked at, nothing can be looked at either (nor stat()ed)
                self._last = (path, None)
                return path
            if stat.S_ISLNK(st.st_mode):
                return os.path.realpath(path)
        if st is not None:
            self._last = (path, st)
        return path

    def case_insensitive(self, root: str) -> bool:
        return _probe_case_insensitive(root)

    def identity(self, path: str) -> tuple[int, int, int] | None:
        """(device, inode, link count) of a regular file; None when it is not one."""
        last = self._last
        if (
            last is not None
            and last[0] == path
            and (last[1] is None or stat.S_ISREG(last[1].st_mode))
        ):
            self._last = None  # used once, right after the walk that took it
            if last[1] is None:
                return None  # nothing there a moment ago: what stat() would say
            st = last[1]  # lstat of a regular file (not a link): what stat() would say
        else:
            try:
                st = os.stat(path)
            except (OSError, ValueError):
                return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return st.st_dev, st.st_ino, st.st_nlink

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
