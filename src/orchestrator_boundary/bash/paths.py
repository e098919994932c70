"""Path resolution by string math: no filesystem, no environment."""

from __future__ import annotations

import posixpath

# Writing to these is not a file effect.
_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin"})


def _drive(path: str) -> bool:
    """``C:/...`` or ``C:\\...``: an absolute Windows path."""
    return len(path) >= 3 and path[0].isalpha() and path[1] == ":" and path[2] in "/\\"


def _norm(path: str) -> str:
    """Collapse ``.``/``..``/duplicate slashes of an absolute path (POSIX or ``C:/`` style)."""
    if path[:1] == "/" and "//" not in path and "/." not in path and path[-1] != "/":
        # already normal (no empty, "." or ".." part): normpath would return it unchanged.
        # Python 3.11's normpath is Python code: this skips ~20 % of a first analysis
        return path
    if _drive(path):
        rest = posixpath.normpath("/" + path[3:].replace("\\", "/"))
        return path[0].upper() + ":" + ("/" if rest == "/" else rest)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def normalize_cwd(cwd: str | None) -> str | None:
    if not cwd:
        return None
    if cwd.startswith("/") or _drive(cwd):
        return _norm(cwd)
    return None  # a relative working directory is no anchor


def _physical(path: str) -> str:
    """``path`` with ``.`` and doubled slashes removed but every ``..`` kept: the kernel takes
    ``lnk/..`` as the parent of wherever the link ``lnk`` points, not as the folder ``lnk`` is
    in (observed: with ``lnk -> .claude/agents``, ``echo {} > lnk/../settings.json`` wrote
    ``.claude/settings.json``). The policy resolves such a path against the file system."""
    drive = path[:2] if _drive(path) else ""
    parts = [p for p in path[len(drive) :].split("/") if p not in ("", ".")]
    return drive + "/" + "/".join(parts)


def resolve(
    path: str | None, cwd: str | None, *, backslash_sep: bool = False, logical: bool = False
) -> str | None:
    """Absolute path for ``path`` (already tilde-expanded) or None when unknowable. A ``..``
    is kept (the file system decides where it leads) unless ``logical``, as Bash's ``cd``
    reads it, collapsing it by string math."""
    if not path:
        return None
    if not logical and ".." in path.replace("\\", "/").split("/"):
        if backslash_sep or (cwd is not None and _drive(cwd)):
            path = path.replace("\\", "/")
        if path[:1] != "/" and not _drive(path):
            if cwd is None:
                return None
            path = cwd.rstrip("/") + "/" + path
        if path.startswith("/dev/fd/"):  # Linux: /dev/fd -> /proc/self/fd, so `/dev/fd/..`
            path = "/proc/self/fd/" + path[8:]  # is /proc/self (ADR 0077)
        if path.startswith("/proc/"):
            return _proc(path, cwd)
        lexical = _norm(path)
        if lexical.startswith(("/dev/", "/proc/")):  # devices and descriptors, however spelt
            return _proc(lexical, cwd) if lexical.startswith("/proc/") else lexical
        return _physical(path)
    if backslash_sep or (cwd is not None and _drive(cwd)):
        path = path.replace("\\", "/")
        if path.startswith("//"):  # UNC, \\?\ or \\.\: the two slashes name no folder
            return "//" + posixpath.normpath("/" + path[2:]).lstrip("/")
    if path.startswith("/proc/"):
        return _proc(path, cwd)
    if path[:1] == "/" or _drive(path):
        return _norm(path)
    if cwd is None:
        return None
    return _norm(cwd.rstrip("/") + "/" + path)


def _proc(path: str, cwd: str | None) -> str | None:
    """`/proc/self/cwd/x` is ``x`` in the working directory and `/proc/self/root/x` is `/x`
    (ADR 0049); another process's folder (`/proc/1/cwd`) is unknown. A `..` is collapsed
    only up to the `cwd` (`/proc/self/fd/../cwd/x` is `/proc/self/cwd/x`, ADR 0077); after it,
    on the working directory: `/proc/self/cwd/..` is the working directory's parent."""
    names = path.split("/")[1:]
    seen: list[str] = []
    for i, name in enumerate(names):
        if name in ("", "."):
            continue
        if name == "..":
            seen = seen[:-1]
            continue
        seen.append(name)
        if len(seen) == 3 and seen[0] == "proc" and seen[2] in ("cwd", "root"):
            if seen[1] not in ("self", "thread-self"):
                return None
            base = cwd if seen[2] == "cwd" else "/"
            if base is None:
                return None
            rest = "/".join(names[i + 1 :])
            return _norm(base.rstrip("/") + "/" + rest) if rest else _norm(base)
    return _norm(path)


# Windows device names: in any folder, with any extension, case-insensitive (ADR 0021)
_WINDOWS_DEVICES = frozenset(
    {"nul", "con", "prn", "aux", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))}
)


def is_windows(cwd: str | None) -> bool:
    """Whether a working directory is a Windows one (``C:\\...``): devices differ there."""
    return cwd is not None and _drive(cwd)


def is_device(resolved: str | None, path: str, *, windows: bool = False) -> bool:
    """True for /dev/null and friends, including /dev/fd/N, and on Windows for NUL, CON, ...:
    not file effects. ``nul`` on Linux or macOS is a file like any other."""
    for p in (resolved, path):
        if p is None:
            continue
        if p in _DEVICES or (p.startswith("/dev/fd/") and p[8:].isdigit()):
            return True
        if windows and basename(p).split(".", 1)[0].rstrip(":").lower() in _WINDOWS_DEVICES:
            return True
    return False


def basename(program: str) -> str:
    return program.replace("\\", "/").rsplit("/", 1)[-1]
