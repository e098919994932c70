"""Path resolution by string math: no filesystem, no environment."""

from __future__ import annotations

import posixpath

# Writing to these is not a file effect.
_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin"})


def _drive(path: str) -> bool:
    # the ':' first: it rules out nearly every path with one slice (this runs per resolve)
    return path[1:2] == ":" and len(path) >= 3 and path[0].isalpha() and path[2] in "/\\"


def _norm(path: str) -> str:
    """Collapse ``.``/``..``/duplicate slashes of an absolute path (POSIX or ``C:/`` style)."""
    if path[:1] == "/" and "//" not in path and "/." not in path and path[-1] != "/":
        # already normal (no empty, "." or ".." part): normpath would return it unchanged;
        # checked first, as a path starting with '/' names no drive
        return path
    if _drive(path):
        rest = posixpath.normpath("/" + path[3:].replace("\\", "/"))
        return path[0].upper() + ":" + ("/" if rest == "/" else rest)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def normalize_cwd(cwd: str | None) -> str | None:
    if not cwd:
        return None
    if cwd[0] == "/" and "//" not in cwd and "/." not in cwd and cwd[-1] != "/":
        return cwd  # already normal: _norm's first test, without the call (once per analysis)
    if cwd.startswith("/") or _drive(cwd):
        return _norm(cwd)
    return None  # a relative working directory is no anchor


def resolve(path: str | None, cwd: str | None, *, backslash_sep: bool = False) -> str | None:
    """Absolute normalized path for ``path`` (already tilde-expanded) or None when unknowable."""
    if not path:
        return None
    # _drive's own first test, ':' second, written out: this runs for every path resolved
    if backslash_sep or (cwd is not None and cwd[1:2] == ":" and _drive(cwd)):
        path = path.replace("\\", "/")
    if path[:1] == "/" or (path[1:2] == ":" and _drive(path)):
        return _norm(path)
    if cwd is None:
        return None
    return _norm(cwd.rstrip("/") + "/" + path)


def is_device(resolved: str | None, path: str) -> bool:
    """True for /dev/null and friends, including /dev/fd/N: not file effects."""
    for p in (resolved, path):
        if p is None:
            continue
        if p[:5] == "/dev/":  # every name in _DEVICES, and /dev/fd/N
            if p in _DEVICES or (p.startswith("/dev/fd/") and p[8:].isdigit()):
                return True
        elif len(p) <= 4 and p.lower() in ("nul", "nul:"):  # lower() never shortens
            return True
    return False


def basename(program: str) -> str:
    return program.replace("\\", "/").rsplit("/", 1)[-1]
