"""The real filesystem facts behind ``paths.FileSystem`` (shell side, not the pure core)."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from functools import lru_cache


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

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def case_insensitive(self, root: str) -> bool:
        return _probe_case_insensitive(root)

    def identity(self, path: str) -> tuple[int, int, int] | None:
        """(device, inode, link count) of a regular file; None when it is not one."""
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
