r"""A simulation of Windows for tests on Linux: CI has no Windows runner, a quarter of users do.

What it changes, in this process (``Simulation(...).install()``, or the ``windows_sim``
fixture) or in a new interpreter started under it (``python_argv``):

- Platform identity: ``os.name == "nt"``, ``sys.platform == "win32"``, ``os.sep == "\\"``,
  ``os.altsep == "/"``, ``os.pathsep == ";"``, ``os.linesep == "\r\n"``.
- POSIX-only modules cannot be imported: ``fcntl``, ``posix``, ``pwd``, ``grp``, ``termios``,
  ``tty``, ``pty``, ``resource``, ``syslog``, ``_posixsubprocess``, ``_posixshmem``, ``crypt``,
  ``spwd``, ``nis``, ``readline``: ``import fcntl`` raises ``ModuleNotFoundError`` (a copy
  already imported is hidden from ``sys.modules`` too). Every attempt is recorded in
  ``Simulation.blocked``.
- No Unix sockets: ``socket.AF_UNIX`` and ``_socket.AF_UNIX`` are deleted.
- ``os`` loses what Windows lacks: ``fork``, ``setsid``, ``getuid`` and friends,
  ``environb``, ``O_CLOEXEC``, ``O_NONBLOCK``, ``O_DIRECTORY``, ``O_NOFOLLOW`` ... and gains
  ``O_BINARY``, ``O_TEXT``, ``O_NOINHERIT``, ``O_TEMPORARY``, ... The ``O_*`` flags take their
  Windows values (``O_APPEND == 8``, ``O_CREAT == 0x100``, ``O_EXCL == 0x400``), and ``os.open``
  translates them for the Linux kernel underneath.
- ``os.open`` of a folder fails with ``PermissionError`` (errno 13), as ``_wopen`` does.
- A file opened by ``os.open`` without ``O_BINARY`` is in text mode, as on Windows:
  ``os.write`` turns ``\n`` into ``\r\n`` and ``os.read`` turns ``\r\n`` back into ``\n``.
- ``msvcrt``: a stand-in with real locking semantics (below), ``setmode``, ``get_osfhandle``,
  ``open_osfhandle`` and the ``LK_*`` constants.
- With ``paths=True``: ``os.path`` is ``ntpath`` and the file system answers to Windows names.
  Drives map to Linux folders (``drives={"C:": "/tmp/x/C"}``); ``Z:`` is always the Linux root
  ``/``, as in Wine. Every path-taking function of ``os`` (``stat``, ``lstat``, ``open``,
  ``mkdir``, ``listdir``, ``scandir``, ``replace``, ``rename``, ``remove``, ``chdir``,
  ``getcwd``, ...) and ``open``/``io.open`` accept drive paths (``C:\a``, ``c:/a``, mixed
  separators), ``\\?\`` and ``\\.\`` prefixes, UNC paths mapped as drives
  (``drives={"\\\\server\\share": "/tmp/x/share"}``) and ``nul``; ``getcwd`` and
  ``scandir`` answer in Windows form. Names are matched case-insensitively (and kept in their
  case on disk), as NTFS does. ``os.path.realpath`` resolves links and returns the names' case
  on disk, as ``GetFinalPathNameByHandle`` does. Trailing dots and spaces of a name are dropped
  (``settings.json.`` is ``settings.json``, also in ``os.path.abspath``) except below
  ``\\?\``, and ``name::$DATA`` is ``name``. ``os.rename`` refuses to replace an existing
  file (``FileExistsError``).

The ``msvcrt.locking(fd, mode, nbytes)`` stand-in locks ``nbytes`` from the descriptor's
current position with Linux open-file-description locks (``F_OFD_SETLK``, taken from the real
``fcntl`` before it is hidden). Like ``LockFile`` these belong to the open file, not the
process: they exclude other processes and other descriptors opened separately in the same
process. ``LK_LOCK``/``LK_RLCK`` try ``LOCK_ATTEMPTS`` (10) times, sleeping ``LOCK_RETRY_S``
(1 s) after each failure, then raise ``OSError(EDEADLOCK)``; ``LK_NBLCK``/``LK_NBRLCK`` raise
``OSError(EACCES)`` at once; ``LK_UNLCK`` releases. Both lock modes are exclusive, as in the
CRT. Closing the descriptor releases its locks.

Deviations from real Windows, on purpose or because Linux cannot show it:

- Locks are advisory: a process that does not ask for the lock can still write the region
  (Windows refuses such writes). Locking a region the same descriptor already holds succeeds and
  unlocking a region that is not locked succeeds (Windows fails both). ``nbytes == 0`` locks
  nothing. The errno values are this platform's (``errno.EDEADLOCK`` is 35 here, 36 on Windows).
- Open files can be renamed and removed (Windows refuses while another handle has the file open
  without ``FILE_SHARE_DELETE``, which is how Python opens files).
- Without ``paths=True``, ``os.path`` stays ``posixpath`` (pytest itself needs it in this
  process): use ``paths=True`` in a subprocess (``python_argv``) for Windows path rules.
- A rooted path without a drive (``\work\x``) is on ``Z:``, the Linux root, not on the
  current drive. A script run with ``python_argv`` gets a Windows ``__file__``: its Linux path
  on the drive that maps it, else on ``Z:``. Imports keep
  Linux rules (``importlib`` talks to the kernel directly): a ``sys.path`` entry in Windows
  form is searched in the folder it names, but the modules' ``__file__`` are Linux paths.
- In a subprocess, ``site`` runs (with Linux rules) before the simulation starts, so the
  virtual environment's packages stay importable; a hook run with ``-S`` then finds ``site``
  already imported.
- ``os.environ`` keeps case-sensitive names; file modes and owners are Linux's; ``chmod`` is
  not reduced to the read-only bit.
- In this process (the fixture), pytest's assertion rewriter steps out of ``sys.meta_path``,
  ``pathlib.Path()`` still makes a ``PosixPath``, and every module first imported under the
  simulation is forgotten at ``uninstall()`` (the package is imported afresh under it, and the
  copy imported before comes back afterwards).
- ``O_TEMPORARY``, ``O_SHORT_LIVED``, ``O_RANDOM`` and ``O_SEQUENTIAL`` are accepted and do
  nothing (a temporary file is not removed at close).
- Text mode applies only to descriptors from ``os.open`` (the std streams are binary, as CPython
  sets them on Windows); ``os.read`` does not stop at Ctrl-Z.
- ``sys.executable`` and ``sys.prefix`` stay Linux paths.
- Standard modules that load a Windows-only C backend at import (``subprocess``, ``asyncio``,
  ``shutil``, ``tempfile``, ...: ``PRELOAD``) are imported with Linux rules before the
  simulation starts and keep Linux behaviour.

Use, in this process::

    def test_x(windows_sim):                  # tests/conftest_windows.py
        from orchestrator_boundary import audit  # imported afresh, as on Windows

    with Simulation(): ...                     # the same, by hand

and as a new process (``python -I -S script args`` under the simulation, Windows paths on)::

    env = sim_env(os.environ, drives={"C:": str(tmp_path / "C")}, cwd="C:\\proj")
    subprocess.run(python_argv(hook_script, *args), env=env, input=payload)
"""

from __future__ import annotations

import builtins
import errno
import fcntl as _real_fcntl  # captured before any simulation hides it
import importlib.abc
import importlib.machinery
import io
import json
import ntpath
import os
import posix as _posix  # the real calls, whatever the simulation puts in os
import posixpath
import socket
import stat
import struct
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
ENV = "WINDOWS_SIM"  # the subprocess bootstrap's settings (JSON)

BLOCKED_MODULES = frozenset(
    {
        "fcntl",
        "posix",
        "pwd",
        "grp",
        "termios",
        "tty",
        "pty",
        "resource",
        "syslog",
        "_posixsubprocess",
        "_posixshmem",
        "crypt",
        "spwd",
        "nis",
        "readline",
    }
)

# Standard modules that pick a Windows-only C backend at import (_winapi, _overlapped, nt):
# those do not exist here, so these are imported with Linux rules before the simulation.
PRELOAD = ("subprocess", "selectors", "asyncio", "shutil", "tempfile", "signal", "platform")

# os attributes Windows' CPython does not have (those present here).
OS_ABSENT = (
    "fork",
    "forkpty",
    "setsid",
    "getsid",
    "setpgid",
    "getpgid",
    "getpgrp",
    "killpg",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "getgroups",
    "setuid",
    "setgid",
    "chown",
    "fchown",
    "lchown",
    "fchmod",
    "mkfifo",
    "mknod",
    "pipe2",
    "openpty",
    "pread",
    "pwrite",
    "sync",
    "uname",
    "getloadavg",
    "statvfs",
    "fstatvfs",
    "sendfile",
    "posix_spawn",
    "wait3",
    "wait4",
    "waitid",
    "WNOHANG",
    "environb",
    "O_CLOEXEC",
    "O_NONBLOCK",
    "O_NDELAY",
    "O_DIRECTORY",
    "O_NOFOLLOW",
    "O_NOCTTY",
    "O_SYNC",
    "O_DSYNC",
    "O_RSYNC",
    "O_ASYNC",
    "O_LARGEFILE",
    "O_PATH",
    "O_TMPFILE",
    "O_NOATIME",
    "O_DIRECT",
    "O_ACCMODE",
    "O_FSYNC",
)

# The O_* flags of Windows' CRT, and what each means for the Linux kernel underneath.
WINDOWS_O = {
    "O_RDONLY": (0x0000, os.O_RDONLY),
    "O_WRONLY": (0x0001, os.O_WRONLY),
    "O_RDWR": (0x0002, os.O_RDWR),
    "O_APPEND": (0x0008, os.O_APPEND),
    "O_RANDOM": (0x0010, 0),
    "O_SEQUENTIAL": (0x0020, 0),
    "O_TEMPORARY": (0x0040, 0),
    "O_NOINHERIT": (0x0080, os.O_CLOEXEC),
    "O_CREAT": (0x0100, os.O_CREAT),
    "O_TRUNC": (0x0200, os.O_TRUNC),
    "O_EXCL": (0x0400, os.O_EXCL),
    "O_SHORT_LIVED": (0x1000, 0),
    "O_TEXT": (0x4000, 0),
    "O_BINARY": (0x8000, 0),
}
O_TEXT, O_BINARY, O_TEMPORARY = 0x4000, 0x8000, 0x0040
_KNOWN_WINDOWS_FLAGS = 0
for _win, _ in WINDOWS_O.values():
    _KNOWN_WINDOWS_FLAGS |= _win

# ---- the msvcrt stand-in ----

LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4
LOCK_ATTEMPTS = 10  # the CRT's _locking: 10 attempts ...
LOCK_RETRY_S = 1.0  # ... one second apart (tests may shorten this)
# Linux x86_64/aarch64 values (asm-generic/fcntl.h); the real fcntl module names them too.
F_OFD_GETLK = getattr(_real_fcntl, "F_OFD_GETLK", 36)
F_OFD_SETLK = getattr(_real_fcntl, "F_OFD_SETLK", 37)
F_OFD_SETLKW = getattr(_real_fcntl, "F_OFD_SETLKW", 38)
_FLOCK = "hhqqi4x"  # struct flock: l_type, l_whence, l_start, l_len, l_pid (+ padding)

_TEXT_FDS: set[int] = set()  # descriptors in text mode (os.open without O_BINARY)
LOCK_CALLS: dict[int, int] = {}  # msvcrt.locking calls so far, by mode (for tests)


def _ofd_setlk(fd: int, l_type: int, start: int, length: int) -> None:
    arg = struct.pack(_FLOCK, l_type, os.SEEK_SET, start, length, 0)  # l_pid must be 0
    _real_fcntl.fcntl(fd, F_OFD_SETLK, arg)


def locking(fd: int, mode: int, nbytes: int) -> None:
    """``msvcrt.locking``: lock or unlock ``nbytes`` from the current position of ``fd``."""
    LOCK_CALLS[mode] = LOCK_CALLS.get(mode, 0) + 1
    if nbytes < 0:
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
    start = os.lseek(fd, 0, os.SEEK_CUR)
    if mode == LK_UNLCK:
        if nbytes:
            _ofd_setlk(fd, _real_fcntl.F_UNLCK, start, nbytes)
        return
    if mode not in (LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK):
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
    if not nbytes:
        return
    attempts = LOCK_ATTEMPTS if mode in (LK_LOCK, LK_RLCK) else 1
    for _ in range(attempts):
        try:
            _ofd_setlk(fd, _real_fcntl.F_WRLCK, start, nbytes)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
        if attempts == 1:
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        time.sleep(LOCK_RETRY_S)  # the CRT sleeps after every failed attempt
    raise OSError(errno.EDEADLOCK, os.strerror(errno.EDEADLOCK))


def setmode(fd: int, flags: int) -> int:
    """``msvcrt.setmode``: O_TEXT or O_BINARY for ``fd``; returns the previous mode."""
    if flags not in (O_TEXT, O_BINARY):
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
    os.fstat(fd)  # EBADF as the CRT
    previous = O_TEXT if fd in _TEXT_FDS else O_BINARY
    if flags == O_TEXT:
        _TEXT_FDS.add(fd)
    else:
        _TEXT_FDS.discard(fd)
    return previous


def get_osfhandle(fd: int) -> int:
    """``msvcrt.get_osfhandle``: a 'handle' (here the descriptor number itself)."""
    os.fstat(fd)
    return fd


def open_osfhandle(handle: int, flags: int) -> int:
    """``msvcrt.open_osfhandle``: a descriptor for the handle (here: the same number)."""
    os.fstat(handle)
    if not flags & O_BINARY and flags & O_TEXT:
        _TEXT_FDS.add(handle)
    return handle


def make_msvcrt() -> types.ModuleType:
    mod = types.ModuleType("msvcrt", "Stand-in for Windows' msvcrt (tests/windows_sim.py).")
    for name in ("LK_UNLCK", "LK_LOCK", "LK_NBLCK", "LK_RLCK", "LK_NBRLCK"):
        setattr(mod, name, globals()[name])
    mod.locking = locking  # type: ignore[attr-defined]
    mod.setmode = setmode  # type: ignore[attr-defined]
    mod.get_osfhandle = get_osfhandle  # type: ignore[attr-defined]
    mod.open_osfhandle = open_osfhandle  # type: ignore[attr-defined]
    mod.__file__ = __file__
    return mod


# ---- hiding modules ----


def _not_here(cls: type, *args: Any, **kw: Any) -> Any:
    """``PosixPath()`` under the simulated Windows, as on Windows (pathlib 3.12+)."""
    raise NotImplementedError(f"cannot instantiate {cls.__name__!r} on your system")


class _Blocker(importlib.abc.MetaPathFinder):
    def __init__(self, names: frozenset[str], record: list[str]) -> None:
        self.names, self.record = names, record

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname in self.names:
            self.record.append(fullname)
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


# ---- Windows names on the Linux file system ----

_DEVICES = {"nul": "/dev/null"}


class _PathMap:
    def __init__(self, drives: Mapping[str, str]) -> None:
        table = {"Z:": "/"}
        for name, real in drives.items():
            key = name.rstrip("\\/").replace("/", "\\")
            table[key.upper()] = posixpath.realpath(real)
        self.drives = table

    def to_real(self, path: str) -> str:
        p = path.replace("/", "\\")
        low = p.lower()
        literal = low.startswith("\\\\?\\")  # no Win32 name normalization below \\?\
        if low.startswith(("\\\\?\\unc\\", "\\\\.\\unc\\")):
            p = "\\\\" + p[8:]
        elif low.startswith(("\\\\?\\", "\\\\.\\")):
            p = p[4:]
        if p.lower() in _DEVICES:
            return _DEVICES[p.lower()]
        drive, rest = ntpath.splitdrive(p)
        if not drive:
            if not rest.startswith("\\"):
                return rest.replace("\\", "/")  # relative: the real cwd is the translated one
            drive = "Z:"  # rooted without a drive: the Linux root (see the module docstring)
        base = self.drives.get(drive.upper())
        if base is None:
            raise FileNotFoundError(errno.ENOENT, "The system cannot find the path specified", path)
        parts = [_main_stream(c if literal else _win32_name(c)) for c in rest.split("\\") if c]
        return _case_insensitive(base, [c for c in parts if c])

    def to_windows(self, real: str) -> str:
        best, best_base = "Z:", "/"
        for drive, base in self.drives.items():
            if (real == base or real.startswith(base.rstrip("/") + "/")) and len(base) > len(
                best_base
            ):
                best, best_base = drive, base
        rest = real[len(best_base) :].lstrip("/")
        return best + "\\" + rest.replace("/", "\\")


def _win32_name(component: str) -> str:
    """A path component as Win32 name normalization leaves it: trailing dots and spaces go
    (``settings.json.`` and ``settings.json `` name ``settings.json``)."""
    return component if component in (".", "..") else component.rstrip(". ")


def _main_stream(component: str) -> str:
    """``name::$DATA`` is the file's main data stream, that is the file itself."""
    return component[:-7] if component.lower().endswith("::$data") else component


def _case_insensitive(base: str, parts: list[str]) -> str:
    """``base`` joined with ``parts``, each matched to an existing name regardless of case
    (the name on disk wins); ``.``/``..`` are left to the kernel, as NTFS leaves them to the
    path parser."""
    current = base.rstrip("/") or "/"
    for i, part in enumerate(parts):
        candidate = posixpath.join(current, part)
        if part in (".", ".."):
            current = candidate
            continue
        try:
            _posix.lstat(candidate)
            current = candidate
            continue
        except OSError:
            pass
        try:
            names = _posix.listdir(current)
        except OSError:
            return posixpath.join(current, *parts[i:])
        folded = part.casefold()
        match = next((n for n in sorted(names) if n.casefold() == folded), None)
        current = posixpath.join(current, match if match is not None else part)
    return current


def _linux_realpath(path: str) -> str:
    """``posixpath.realpath`` with the real calls (the simulation's ``os`` speaks Windows)."""
    parts = [p for p in path.split("/") if p]
    resolved = "/"
    links = 0
    while parts:
        part = parts.pop(0)
        if part == ".":
            continue
        if part == "..":
            resolved = posixpath.dirname(resolved)
            continue
        candidate = posixpath.join(resolved, part)
        try:
            st = _posix.lstat(candidate)
        except OSError:  # not there: the rest is joined as given, as realpath does
            return posixpath.normpath(posixpath.join(candidate, *parts))
        if not stat.S_ISLNK(st.st_mode):
            resolved = candidate
            continue
        links += 1
        if links > 40:
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)
        target = _posix.readlink(candidate)
        if target.startswith("/"):
            resolved = "/"
        parts = [p for p in target.split("/") if p] + parts
    return resolved


class _Entry:
    """An ``os.DirEntry`` whose ``path`` is in Windows form."""

    def __init__(self, entry: os.DirEntry[str], parent: str) -> None:
        self._entry, self.name = entry, entry.name
        self.path = ntpath.join(parent, entry.name)

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        return self._entry.is_file(follow_symlinks=follow_symlinks)

    def is_symlink(self) -> bool:
        return self._entry.is_symlink()

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        return self._entry.stat(follow_symlinks=follow_symlinks)

    def inode(self) -> int:
        return self._entry.inode()

    def __fspath__(self) -> str:
        return self.path


class _Scandir:
    def __init__(self, it: Any, parent: str) -> None:
        self._it, self._parent = it, parent

    def __iter__(self) -> _Scandir:
        return self

    def __next__(self) -> _Entry:
        return _Entry(next(self._it), self._parent)

    def __enter__(self) -> _Scandir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._it.close()


# ---- the simulation ----

_MISSING = object()


class Simulation:
    """Windows, simulated in this process until ``uninstall()`` (also a context manager)."""

    def __init__(
        self,
        *,
        drives: Mapping[str, str] | None = None,
        paths: bool = False,
        cwd: str | None = None,
        purge: Sequence[str] = ("orchestrator_boundary",),
    ) -> None:
        self.paths = paths
        self.map = _PathMap(drives or {})
        self.cwd = cwd
        self.purge = tuple(purge)
        self.blocked: list[str] = []  # every import of a hidden module that was attempted
        self.msvcrt = make_msvcrt()
        self._saved: list[tuple[Any, str, Any]] = []
        self._saved_modules: dict[str, Any] = {}
        self._blocker: _Blocker | None = None
        self._before: set[str] = set()
        self._paused: list[Any] = []
        self._hook: Any = None
        self.installed = False

    # -- bookkeeping --

    def _set(self, obj: Any, name: str, value: Any) -> None:
        self._saved.append((obj, name, getattr(obj, name, _MISSING)))
        setattr(obj, name, value)

    def _del(self, obj: Any, name: str) -> None:
        if hasattr(obj, name):
            self._saved.append((obj, name, getattr(obj, name)))
            delattr(obj, name)

    def _module(self, name: str, value: Any) -> None:
        if name not in self._saved_modules:
            self._saved_modules[name] = sys.modules.get(name, _MISSING)
        if value is _MISSING:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = value

    # -- install / uninstall --

    def install(self) -> Simulation:
        if self.installed:
            raise RuntimeError("already installed")
        for name in PRELOAD:
            importlib.import_module(name)
        # sysconfig reads this interpreter's build settings once (sys._vpath on Windows):
        # with Linux rules, as on Linux (a hook that imports no validation library no longer
        # has zoneinfo do it before the simulation starts)
        importlib.import_module("sysconfig").get_config_vars()
        real_open, real_write, real_read, real_close = os.open, os.write, os.read, os.close
        real_stat = os.stat
        self._before = set(sys.modules)
        for name in list(sys.modules):
            if name in BLOCKED_MODULES or any(
                name == p or name.startswith(p + ".") for p in self.purge
            ):
                self._module(name, _MISSING)
        self._blocker = _Blocker(BLOCKED_MODULES, self.blocked)
        # pytest's assertion rewriter judges every import with pathlib, which cannot make a
        # WindowsPath here: it steps aside (the package needs no rewriting)
        self._paused = [f for f in sys.meta_path if type(f).__module__.startswith("_pytest.")]
        for finder in self._paused:
            sys.meta_path.remove(finder)
        sys.meta_path.insert(0, self._blocker)
        pathlib = sys.modules.get("pathlib")
        if pathlib is not None and not self.paths:
            # os.path stays posixpath here, so Path() stays PosixPath (pytest needs it)
            original = vars(pathlib.Path)["__new__"]

            def path_new(cls: Any, *args: Any, **kw: Any) -> Any:
                return original(pathlib.PosixPath if cls is pathlib.Path else cls, *args, **kw)

            self._saved.append((pathlib.Path, "__new__", original))
            pathlib.Path.__new__ = path_new
        elif pathlib is not None and hasattr(pathlib, "_WindowsFlavour"):  # Python 3.11
            self._set(pathlib._WindowsFlavour, "is_supported", True)
            self._set(pathlib._PosixFlavour, "is_supported", False)
        elif pathlib is not None:  # 3.12+: each class refuses itself by a __new__ of its own
            if "__new__" in vars(pathlib.WindowsPath):
                self._del(pathlib.WindowsPath, "__new__")
            self._set(pathlib.PosixPath, "__new__", _not_here)
        self._module("msvcrt", self.msvcrt)
        for mod in (socket, sys.modules.get("_socket")):
            if mod is not None:
                self._del(mod, "AF_UNIX")
        self._set(os, "name", "nt")
        self._set(sys, "platform", "win32")
        for name, value in (("sep", "\\"), ("altsep", "/"), ("pathsep", ";"), ("linesep", "\r\n")):
            self._set(os, name, value)
        for name in OS_ABSENT:
            self._del(os, name)
        for name, (win, _linux) in WINDOWS_O.items():
            self._set(os, name, win)
        self._set(os, "supports_bytes_environ", False)

        pmap = self.map

        def real_path(p: Any) -> Any:
            if isinstance(p, int) or not self.paths:
                return p
            p = os.fspath(p)
            if isinstance(p, bytes):
                return os.fsencode(pmap.to_real(os.fsdecode(p)))
            return pmap.to_real(p)

        def sim_open(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
            if flags & ~_KNOWN_WINDOWS_FLAGS:
                raise OSError(errno.EINVAL, "Invalid argument (not a Windows O_ flag)", path)
            linux = 0
            for win, lin in WINDOWS_O.values():
                if win and flags & win:
                    linux |= lin
            target = real_path(path)
            try:
                is_dir = stat.S_ISDIR(real_stat(target, dir_fd=dir_fd).st_mode)
            except OSError:
                is_dir = False  # let the real open say why
            if is_dir:
                raise PermissionError(errno.EACCES, "Permission denied", path)
            fd = real_open(target, linux, mode, dir_fd=dir_fd)
            if flags & O_TEXT or not flags & O_BINARY:
                _TEXT_FDS.add(fd)
            else:
                _TEXT_FDS.discard(fd)
            return fd

        def sim_write(fd: int, data: Any) -> int:
            if fd in _TEXT_FDS:
                raw = bytes(data)
                view = memoryview(raw.replace(b"\n", b"\r\n"))
                while view:
                    view = view[real_write(fd, view) :]
                return len(raw)
            return real_write(fd, data)

        def sim_read(fd: int, n: int) -> bytes:
            data = real_read(fd, n)
            return data.replace(b"\r\n", b"\n") if fd in _TEXT_FDS else data

        def sim_close(fd: int) -> None:
            _TEXT_FDS.discard(fd)
            real_close(fd)

        self._set(os, "open", sim_open)
        self._set(os, "write", sim_write)
        self._set(os, "read", sim_read)
        self._set(os, "close", sim_close)
        if self.paths:
            self._install_paths(real_path)
        self.installed = True
        return self

    def _install_paths(self, real_path: Callable[[Any], Any]) -> None:
        pmap = self.map

        def one(fn: Callable[..., Any]) -> Callable[..., Any]:
            def wrapped(path: Any, *args: Any, **kw: Any) -> Any:
                return fn(real_path(path), *args, **kw)

            wrapped.__name__ = fn.__name__
            return wrapped

        def two(fn: Callable[..., Any]) -> Callable[..., Any]:
            def wrapped(src: Any, dst: Any, *args: Any, **kw: Any) -> Any:
                return fn(real_path(src), real_path(dst), *args, **kw)

            wrapped.__name__ = fn.__name__
            return wrapped

        for name in (
            "stat",
            "lstat",
            "mkdir",
            "rmdir",
            "remove",
            "unlink",
            "listdir",
            "chdir",
            "access",
            "chmod",
            "utime",
            "truncate",
        ):
            self._set(os, name, one(getattr(os, name)))
        real_replace, real_rename = os.replace, os.rename
        self._set(os, "replace", two(real_replace))
        self._set(os, "link", two(os.link))
        self._set(os, "symlink", two(os.symlink))

        def rename(src: Any, dst: Any, *args: Any, **kw: Any) -> None:
            if posixpath.lexists(real_path(dst)):
                raise FileExistsError(
                    errno.EEXIST, "Cannot create a file when that file already exists", src, dst
                )
            real_rename(real_path(src), real_path(dst), *args, **kw)

        self._set(os, "rename", rename)
        real_getcwd, real_readlink, real_scandir = os.getcwd, os.readlink, os.scandir
        self._set(os, "getcwd", lambda: pmap.to_windows(real_getcwd()))
        self._set(os, "getcwdb", lambda: os.fsencode(pmap.to_windows(real_getcwd())))

        def readlink(path: Any, *args: Any, **kw: Any) -> Any:
            target = real_readlink(real_path(path), *args, **kw)
            if isinstance(target, str) and target.startswith("/"):
                return pmap.to_windows(target)
            return target

        self._set(os, "readlink", readlink)

        def scandir(path: Any = ".") -> Any:
            if isinstance(path, int):
                return real_scandir(path)
            return _Scandir(real_scandir(real_path(path)), os.fspath(path))

        self._set(os, "scandir", scandir)

        real_abspath = ntpath.abspath

        def abspath(path: Any) -> Any:
            """As GetFullPathNameW: also drops trailing dots and spaces of each name."""
            path = os.fspath(path)
            if isinstance(path, bytes):
                return os.fsencode(abspath(os.fsdecode(path)))
            full = real_abspath(path)
            if full.startswith("\\\\?\\"):
                return full
            drive, rest = ntpath.splitdrive(full)
            return drive + "\\".join(_win32_name(c) for c in rest.split("\\"))

        self._set(ntpath, "abspath", abspath)

        def realpath(path: Any, *, strict: bool = False) -> Any:
            path = os.fspath(path)
            if isinstance(path, bytes):
                return os.fsencode(realpath(os.fsdecode(path), strict=strict))
            # as ntpath.realpath on Windows: the longest existing prefix is resolved (links,
            # the names' case on disk, Win32 name normalization); the rest is kept as given
            head, tail = real_abspath(path), []
            while True:
                try:
                    _posix.stat(pmap.to_real(head))
                    break
                except OSError:
                    if strict:
                        raise
                    parent, name = ntpath.split(head)
                    if not name or parent == head:
                        break
                    head, tail = parent, [name, *tail]
            resolved = pmap.to_windows(_linux_realpath(pmap.to_real(head)))
            return ntpath.join(resolved, *tail) if tail else resolved

        self._set(ntpath, "realpath", realpath)
        self._set(os, "path", ntpath)
        self._set(os, "devnull", "nul")
        self._module("os.path", ntpath)
        real_io_open = io.open

        def sim_io_open(file: Any, *args: Any, **kw: Any) -> Any:
            if isinstance(file, int):
                return real_io_open(file, *args, **kw)
            return real_io_open(real_path(file), *args, **kw)

        self._set(builtins, "open", sim_io_open)
        self._set(io, "open", sim_io_open)

        # sys.path entries in Windows form (a hook script inserts its checkout's src folder)
        # are searched in the folder they name; modules found there get Linux __file__ paths
        loaders = importlib.machinery.FileFinder.path_hook(
            (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),
            (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES),
            (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
        )

        def windows_entry(entry: str) -> Any:
            if not isinstance(entry, str) or not (ntpath.splitdrive(entry)[0] or "\\" in entry):
                raise ImportError("not a Windows path")
            return loaders(pmap.to_real(entry))

        self._hook = windows_entry
        sys.path_hooks.insert(0, windows_entry)
        sys.path_importer_cache.clear()
        if self.cwd:
            os.chdir(self.cwd)

    def uninstall(self) -> None:
        if not self.installed:
            return
        for obj, name, value in reversed(self._saved):
            if value is _MISSING:
                if hasattr(obj, name):
                    delattr(obj, name)
            else:
                setattr(obj, name, value)
        self._saved.clear()
        if self._blocker in sys.meta_path:
            sys.meta_path.remove(self._blocker)
        if self._hook in sys.path_hooks:
            sys.path_hooks.remove(self._hook)
            sys.path_importer_cache.clear()
        for finder in reversed(self._paused):
            sys.meta_path.insert(0, finder)
        self._paused = []
        for name in list(sys.modules):  # what was imported under the simulation goes too
            if name not in self._before or any(
                name == p or name.startswith(p + ".") for p in self.purge
            ):
                del sys.modules[name]
        for name, value in self._saved_modules.items():
            if value is _MISSING:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = value
        self._saved_modules.clear()
        self.installed = False

    def __enter__(self) -> Simulation:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.uninstall()


# ---- running a new interpreter under the simulation ----

PRELUDE = (
    "import sys; sys.path.insert(0, {tests!r}); import windows_sim; "
    "sys.path.remove({tests!r}); windows_sim.bootstrap()"
)


def python_argv(
    target: str, *args: str, python: str | None = None, flags: Sequence[str] = ("-I", "-S")
) -> list[str]:
    """The argv that runs the script ``target`` (a Linux path) under the simulation, as
    ``python -I -S target args`` would run it; the settings come from ``sim_env``."""
    prelude = PRELUDE.format(tests=TESTS_DIR)
    return [python or sys.executable, *flags, "-c", prelude, target, *args]


def sim_env(
    env: Mapping[str, str],
    *,
    drives: Mapping[str, str] | None = None,
    paths: bool = True,
    cwd: str | None = None,
    report: str | None = None,
    lock_retry_s: float | None = None,
) -> dict[str, str]:
    """``env`` plus the simulation's settings for ``python_argv``. ``report``: a Linux file the
    subprocess writes at exit (JSON: ``blocked``, the hidden modules it tried to import;
    ``modules``, the modules it had loaded; ``locking``, its msvcrt.locking calls by mode).
    ``lock_retry_s``: the msvcrt stand-in's LK_LOCK retry interval (1 s as in the CRT)."""
    settings = {
        "drives": dict(drives or {}),
        "paths": paths,
        "cwd": cwd,
        "report": report,
        "lock_retry_s": lock_retry_s,
    }
    # Windows has no TZPATH; this Linux build's, split at the simulated ";", is one relative
    # path to zoneinfo (imported with pydantic), and Python 3.13 warns about it on stderr
    return {**env, ENV: json.dumps(settings), "PYTHONTZPATH": ""}


def bootstrap() -> None:
    """The subprocess side: start ``site`` (Linux rules), install the simulation, run the script
    named by ``sys.argv[1]`` as ``__main__``, exit with its status."""
    settings = json.loads(os.environ.get(ENV) or "{}")
    global LOCK_RETRY_S
    if settings.get("lock_retry_s") is not None:
        LOCK_RETRY_S = float(settings["lock_retry_s"])
    if "site" not in sys.modules:
        import site

        site.main()
    target, args = sys.argv[1], sys.argv[2:]
    with open(target, "rb") as fh:
        source = fh.read()
    code = compile(source, target, "exec")
    sim = Simulation(
        drives=settings.get("drives") or {},
        paths=bool(settings.get("paths")),
        cwd=settings.get("cwd"),
    )
    report = settings.get("report")
    if report:
        import atexit

        real_open = builtins.open

        def write_report() -> None:
            with real_open(report, "w") as fh:
                json.dump(
                    {
                        "blocked": sim.blocked,
                        "modules": sorted(sys.modules),
                        "locking": {str(k): v for k, v in sorted(LOCK_CALLS.items())},
                    },
                    fh,
                )

        atexit.register(write_report)
    sim.install()
    os.environ.pop(ENV, None)
    sys.argv = [target, *args]
    main = types.ModuleType("__main__")
    # as on Windows, the script's __file__ has a drive (Python 3.13's ntpath no longer counts a
    # rooted path without one, a Linux path, as absolute)
    main.__file__ = sim.map.to_windows(posixpath.realpath(target)) if sim.paths else target
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    exec(code, main.__dict__)  # noqa: S102 - the hook script, as the interpreter would run it
    sys.exit(0)
