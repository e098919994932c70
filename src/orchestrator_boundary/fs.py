"""The real filesystem facts behind ``paths.FileSystem`` (shell side, not the pure core)."""

from __future__ import annotations

import ntpath
import os
import posixpath
import stat
import sys
from functools import lru_cache

from orchestrator_boundary.digests import sha256
from orchestrator_boundary.paths import NT_PREFIX, Identity, Resolved

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import BinaryIO

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

    def script_text(self, path: str, limit: int) -> str | None:
        return _script_text(path, limit)

    def files_below(self, folder: str, limit: int) -> list[str]:
        """Up to ``limit`` file paths below ``folder``, and the links to folders there (not
        walked into), so that a caller asking where each leads sees them too (ADR 0081)."""
        out: list[str] = []
        for dirpath, dirs, files in os.walk(folder):
            out.extend(os.path.join(dirpath, f) for f in files)
            out.extend(p for d in dirs if os.path.islink(p := os.path.join(dirpath, d)))
            if len(out) >= limit:
                break
        return out[:limit]


_MAIN_STREAM = "::$data"


def _windows_name(part: str) -> str:
    """A name as Win32 reads it: trailing dots and spaces dropped, ``name::$DATA`` is ``name``."""
    if part.lower().endswith(_MAIN_STREAM):
        part = part[: -len(_MAIN_STREAM)]
    return part if part in (".", "..") else part.rstrip(". ")


def windows_normal(path: str, drive: str = "") -> str:
    """``path`` as Windows would name it, by string rules alone: ``/`` is ``\\``, the
    ``\\\\?\\``, ``\\??\\`` and ``\\\\.\\`` prefixes go (``\\\\?\\UNC\\`` is ``\\\\``), a rooted
    path without a drive is on ``drive``, ``.`` and ``..`` are collapsed, and trailing dots and
    spaces of each name are dropped (not below ``\\\\?\\``, which takes names literally)."""
    p = path.replace("/", "\\")
    if p.startswith(NT_PREFIX):  # the NT namespace's \??\ (ADR 0051): as \\?\ takes it
        p = "\\\\?\\" + p[len(NT_PREFIX) :]
    literal = p.startswith("\\\\?\\")
    if literal or p.startswith("\\\\.\\"):
        p = p[4:]
        if p[:4].upper() == "UNC\\":
            p = "\\" + p[3:]
    elif p.startswith("\\") and not p.startswith("\\\\"):
        p = drive + p
    if not literal:
        p = "\\".join(_windows_name(part) for part in p.split("\\"))
    return ntpath.normpath(p)


def _script_text(path: str, limit: int) -> str | None:
    """Opened without blocking (a FIFO named as a script must not hold the hook up), read only
    when it is a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > limit:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# macOS: /tmp and /var are symbolic links to the same names below /private (/etc too, but
# the protected set names /etc/claude-code, the managed settings of Linux, as it is spelt)
_MACOS_PRIVATE = ("/tmp/", "/var/")  # noqa: S108 - names compared, no file made


class ForeignFileSystem:
    """``paths.FileSystem`` for a payload recorded on another platform (``replay``, ``check``):
    that platform's path rules, and none of its file-system facts, which cannot be checked
    from here. Nothing exists there, nothing is a link, a path's real path is its normal form
    (``windows_normal``, or POSIX's ``normpath``, with a Mac's ``/tmp`` and ``/var`` below
    ``/private``); names compare case-insensitively on Windows and as ``insensitive`` says
    elsewhere. Holds no state between calls."""

    __slots__ = ("drive", "insensitive", "macos", "windows")

    def __init__(
        self,
        windows: bool,
        insensitive: bool | None = None,
        drive: str = "",
        macos: bool = False,
    ) -> None:
        self.windows = windows
        self.insensitive = windows if insensitive is None else insensitive
        self.drive = drive  # Windows: the drive a rooted path without one is on (the cwd's)
        self.macos = macos  # /tmp and /var are links into /private there

    def __repr__(self) -> str:
        return (
            f"ForeignFileSystem(windows={self.windows}, insensitive={self.insensitive}, "
            f"macos={self.macos})"
        )

    def _key(self) -> tuple[bool, bool, str, bool]:
        return self.windows, self.insensitive, self.drive, self.macos

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ForeignFileSystem) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def realpath(self, path: str) -> str:
        if self.windows:
            return windows_normal(path, self.drive)
        out = posixpath.normpath(path)
        out = "/" + out.lstrip("/") if out.startswith("//") else out
        if self.macos and out.startswith(_MACOS_PRIVATE):  # the links every Mac has
            return "/private" + out
        return out

    def resolve(self, path: str, real_root: str) -> Resolved:
        return Resolved(self.realpath(path), True, None)  # looked: nothing is there

    def script_text(self, path: str, limit: int) -> str | None:
        return None

    def case_insensitive(self, root: str) -> bool:
        return self.insensitive

    def identity(self, path: str) -> Identity | None:
        return None

    def files_below(self, folder: str, limit: int) -> list[str]:
        return []


def open_regular(path: str) -> BinaryIO:
    """``open(path, "rb")`` for a regular file only: a FIFO put in the place of a trail file
    made ``report``, ``doctor`` and the Stop summary wait forever; ``OSError`` instead."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; None when it is
    missing, a link, a FIFO or device, or larger than ``limit``. For files in the trail's
    folder that only this package writes: a FIFO put there would block the reader until the
    hook's timeout, ``/dev/zero`` or a huge file would fill its memory (issue 13 point 6)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def home_of(home: str | None) -> str | None:
    """The user's home, whose Claude settings are protected: ``home`` (``wire.user_home``:
    ``USERPROFILE`` first on Windows, ``HOME`` elsewhere), else the account's home folder.
    Without it the user-level settings, agents and ``~/.claude.json`` would lose their
    protection whenever a hook runs without ``HOME``."""
    if home:
        return home
    try:
        import pwd  # POSIX only

        return pwd.getpwuid(os.getuid()).pw_dir or None
    except (ImportError, AttributeError, KeyError, OSError):  # no pwd, no os.getuid: Windows
        return None


def sha256_of(path: str, limit: int = 256 * 1024 * 1024) -> str | None:
    """Hex SHA-256 of a regular file's content, None when it cannot be read (or is huge)."""
    try:
        st = os.stat(path)
        # only regular files: a FIFO would block and /dev/zero never ends (PostToolUse of
        # `echo x > /dev/zero` must not hang the hook until its timeout)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        h = sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None
