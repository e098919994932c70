"""Where a path really points, relative to the project root. ADR 0007.

Resolution (``..``, symlinks through the longest existing prefix) is a filesystem fact and
comes from the ``FileSystem`` the shell passes in; everything else is string math. A path is
``inside`` only when every reading of it resolves under the root: on POSIX a backslash is a
legal file-name character, so ``a\\b`` is read both literally and as ``a/b`` and must pass
both ways. A path not absolute here, with a NUL byte, too long or unresolvable is in nothing.
"""

from __future__ import annotations

import ntpath
import re
import unicodedata
from collections.abc import Sequence

from orchestrator_boundary.protect_short import has_short
from orchestrator_boundary.values import field, transient

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # structural to mypy; a plain base class at run time

MAX_PATH_CHARS = 16_384
ROOT_ITSELF = "is the project root itself"
NT_PREFIX = "\\??\\"
_GLOBALROOT = "GLOBALROOT\\"


Identity = tuple[int, int, int]  # (device, inode, link count) of a regular file


@transient
class Resolved:
    """What resolving one path observed: where it points, and its final component's identity."""

    path: str
    observed: bool = False  # False: identity was not looked at (ask ``FileSystem.identity``)
    identity: Identity | None = None


class FileSystem(Protocol):
    """Every file-system fact the core uses; ``fs.RealFileSystem`` is the real one. Stateless:
    each answer depends only on the arguments and the file system, never on an earlier call."""

    windows: bool

    def realpath(self, path: str) -> str: ...

    def resolve(self, path: str, real_root: str) -> Resolved:
        """``realpath(path)`` for a ``real_root`` already resolved, with what it observed."""
        ...

    def case_insensitive(self, root: str) -> bool: ...

    def identity(self, path: str) -> Identity | None:
        """(device, inode, link count) of the regular file at ``path``; None otherwise."""
        ...

    def files_below(self, folder: str, limit: int) -> list[str]:
        """Up to ``limit`` file paths below ``folder``."""
        ...

    def script_text(self, path: str, limit: int) -> str | None:
        """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes (ADR 0040)."""
        ...


WINDOWS, POSIX = "windows", "posix"


def platform_of(path: object) -> str | None:
    """The platform an absolute path was written on: ``windows`` for a drive path (``C:\\``,
    ``c:/``), a UNC path or a ``\\\\?\\`` prefix, ``posix`` for a ``/`` path, else None."""
    if not isinstance(path, str) or not path:
        return None
    if len(path) >= 3 and path[0].isascii() and path[0].isalpha() and path[1] == ":":
        return WINDOWS if path[2] in "\\/" else None
    if path.startswith("\\\\"):
        return WINDOWS
    return POSIX if path.startswith("/") else None


def recorded_on(paths: Sequence[object]) -> str | None:
    """The platform of the first of ``paths`` that tells (a payload's cwd, then its
    transcript path, then the paths its tool names): None when none does."""
    for path in paths:
        found = platform_of(path)
        if found is not None:
            return found
    return None


def recorded_home(transcript_path: object, windows: bool) -> str | None:
    """The home folder of the machine a payload was recorded on, read off its transcript
    path (``<home>/.claude/projects/<project>/<session>.jsonl``); None when it does not say."""
    if not isinstance(transcript_path, str):
        return None
    if windows:
        found = re.search(r"\\\.claude\\projects\\", transcript_path.replace("/", "\\"), re.I)
    else:
        found = re.search(r"/\.claude/projects/", transcript_path)
    return transcript_path[: found.start()] if found and found.start() > 0 else None


@transient
class Located:
    raw: str
    absolutes: tuple[str, ...]  # every reading, resolved; empty when unresolvable
    relatives: tuple[str, ...]  # '/'-separated, under the root; empty unless every reading is
    problem: str  # "" when inside; otherwise why not ("outside the project root", ...)
    # the identities the resolution observed, per absolute reading (not part of the value)
    seen: tuple[tuple[str, Identity | None], ...] = field(default=(), compare=False)
    # the absolutes only the protected set is checked against, not a scope (``readings``)
    aliases: tuple[str, ...] = field(default=(), compare=False)

    def identity_of(self, absolute: str, fs: FileSystem) -> Identity | None:
        """The identity of one reading: as observed while resolving it, else asked now."""
        for path, identity in self.seen:
            if path == absolute:
                return identity
        return fs.identity(absolute)

    @property
    def inside(self) -> bool:
        return bool(self.relatives) and not self.problem

    @property
    def absolute(self) -> str | None:
        return self.absolutes[0] if self.absolutes else None

    @property
    def display(self) -> str:
        return self.relatives[0] if self.inside else (self.absolute or self.raw)


def fold(text: str, insensitive: bool) -> str:
    """The form paths and patterns are compared in on this filesystem."""
    return unicodedata.normalize("NFC", text).casefold() if insensitive else text


# The names this machine answers to in a UNC path: \\localhost\C$ is its drive C:.
_LOOPBACK = re.compile(r"(?:localhost|0--1\.ipv6-literal\.net)\.?", re.I)
_NUMBER = re.compile(r"0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*", re.I)


def _loopback(server: str) -> bool:
    """``server`` names this machine: ``localhost``, the IPv6 loopback's literal name, or an
    address in 127.0.0.0/8 in any form ``inet_addr`` reads (``127.0.0.1``, ``127.1``,
    ``2130706433``, ``0x7f000001``, ``0177.0.0.1``: ADR 0051)."""
    if _LOOPBACK.fullmatch(server):
        return True
    parts = server.split(".")
    if not 1 <= len(parts) <= 4 or not all(_NUMBER.fullmatch(p) for p in parts):
        return False
    values = [
        int(p, 16) if p[:2].lower() == "0x" else int(p, 8 if p[0] == "0" else 10) for p in parts
    ]
    last_bits = 8 * (5 - len(values))  # the last part fills the bytes the others leave
    if any(v > 255 for v in values[:-1]) or values[-1] >= 1 << last_bits:
        return False
    return values[0] == 127 if len(values) > 1 else values[0] >> 24 == 127


def _local_drive(p: str) -> str:
    """``\\\\localhost\\C$\\x`` (an administrative share of this machine) as ``C:\\x``."""
    server, _, rest = p[2:].partition("\\")
    share, _, tail = rest.partition("\\")
    drive = len(share) == 2 and share[1] == "$" and share[0].isascii() and share[0].isalpha()
    return share[0].upper() + ":\\" + tail if drive and _loopback(server) else p


def _stream_owner(part: str, literal: bool) -> str:
    """The file or folder a component names when it names one of its NTFS streams:
    everything before the first ``:``, then (Win32 rules, not below ``\\\\?\\``) without
    trailing dots and spaces. So ``settings.json::$DATA.``, ``settings.json:x:$DATA`` and
    ``.claude:$I30:$INDEX_ALLOCATION`` are ``settings.json`` and ``.claude``; cutting at the
    first colon is stable, as no name left holds one."""
    if ":" not in part:
        return part
    name = part.partition(":")[0]
    return name if literal or name in (".", "..") else name.rstrip(". ")


def windows_spelling(raw: str) -> str:
    """``raw`` with the Windows spellings that reach a file under another name undone, so the
    guard compares the file itself (the path rules of ``fs.windows_normal`` come after):

    - an NTFS stream on any component names that component's file or folder: ``::$DATA``
      (also followed by dots, which Win32 drops), a directory's ``::$INDEX_ALLOCATION`` or
      ``:$I30:$INDEX_ALLOCATION``, and a named stream ``NAME:S`` or ``NAME:S:$DATA``, which
      Claude Code does not read but which belongs to the file (conservative);
    - ``\\??\\C:\\x`` (the NT namespace, which .NET, so PowerShell, passes to the system
      as it is) is ``\\\\?\\C:\\x``;
    - an administrative share of this machine (``\\\\localhost\\C$``, ``\\\\127.0.0.1\\c$``,
      also below ``\\\\?\\UNC\\`` and ``\\\\.\\UNC\\``) is its drive.

    Returns ``raw`` itself when none of these is in it."""
    if raw[:2].replace("/", "\\") != "\\\\" and raw.find(":", 2) < 0:
        return raw  # the usual path: a drive path without streams
    p = raw.replace("/", "\\")
    if p[:4] in ("\\\\?\\", "\\\\.\\") and p[4:15].upper() == _GLOBALROOT:
        p = p[14:]  # \\?\GLOBALROOT\??\C:\x: the object namespace's root, then \??\C:\x
    nt = p.startswith(NT_PREFIX)  # the NT object namespace's \??\, which .NET passes on
    if nt:
        p = "\\\\?\\" + p[len(NT_PREFIX) :]
    head = p[:4] if p.startswith(("\\\\?\\", "\\\\.\\")) else ""
    p = p[len(head) :]
    if head and p[:4].upper() == "UNC\\":
        p = "\\" + p[3:]
    local = _local_drive(p) if p.startswith("\\\\") else p
    drive, rest = ntpath.splitdrive(local)
    parts = rest.split("\\")
    owners = [_stream_owner(part, head == "\\\\?\\") for part in parts]
    if local == p and owners == parts and not nt:
        return raw
    p = drive + "\\".join(owners)
    if head:
        p = head + ("UNC\\" + p[2:] if p.startswith("\\\\") else p)
    return p


def _relative(real: str, root: str, windows: bool, insensitive: bool) -> str | None:
    sep = "\\" if windows else "/"
    if not insensitive:  # plain string comparison: the usual case, without folding
        if real == root:
            return ""
        prefix = root if root.endswith(sep) else root + sep
        if not real.startswith(prefix):
            return None
        rel = real[len(prefix) :]
        return rel.replace("\\", "/") if windows else rel
    a, b = fold(real, insensitive), fold(root, insensitive)
    if a == b:
        return ""
    prefix = b if b.endswith(sep) else b + sep
    if not a.startswith(prefix):
        return None
    # Split ``real`` by components, not by the folded prefix's length: folding can change the
    # length (NFD -> NFC, "ß" -> "ss"), and slicing by it would shift the relative path
    # ("<root>/Xdocs/a" read as "docs/a"). Folding never adds or removes a separator.
    parts = real.split(sep)
    n = len(prefix.rstrip(sep).split(sep))
    if fold(sep.join(parts[:n]), insensitive).rstrip(sep) != prefix.rstrip(sep):
        return None
    rel = sep.join(parts[n:])
    return rel.replace("\\", "/") if windows else rel


def _as_spelt_by_root(real: str, root: str, insensitive: bool, absolutes: list[str]) -> str | None:
    """The relative path of ``real`` when it and the root name one drive in two spellings
    (``C:\\`` and ``\\\\localhost\\C$\\``, either way round); the same file spelt
    from the root joins ``absolutes``, as what is protected under the root is spelt so."""
    rel = _relative(windows_spelling(real), windows_spelling(root), True, insensitive)
    if rel:
        alias = root.rstrip("\\") + "\\" + rel.replace("/", "\\")
        if alias not in absolutes:
            absolutes.append(alias)
    return rel


# What Claude Code's file tools strip from both ends of a path before using it (JavaScript's
# ``String.prototype.trim``: its white space and line terminators, and the BOM). ADR 0051.
TRIMMED = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    map(chr, range(0x2000, 0x200B))
)
# Git Bash's spelling of a drive (``/c/Users``), which Claude Code's file tools read as ``C:\``
_GIT_BASH_DRIVE = re.compile(r"/([A-Za-z])(?=/|$)")
# Cygwin's and WSL's spellings of a drive: a drive in those, a folder of that name to Win32
_MOUNTED_DRIVE = re.compile(r"[/\\](?:cygdrive|mnt)[/\\]([A-Za-z])(?=[/\\]|$)", re.I)
_MACOS_DATA = "/System/Volumes/Data/"  # macOS's firmlink: the same files without it
_PROC_CWD = re.compile(r"/proc/(?:self|thread-self|[0-9]+)/cwd(/.*|$)", re.S)
_VOLUME = re.compile(
    r"(?is)[\\/]{2}[?.][\\/](?:Volume\{[^}]*\}|GLOBALROOT.Device.[^\\/]+)([\\/].*)"
)


def readings(raw: str, windows: bool) -> tuple[list[str], list[str]]:
    """(the spellings of ``raw`` that must all be inside a scope, the further spellings only
    the protected set is checked against). ADR 0051.

    - ``raw`` as Claude Code's file tools use it: without the white space around it (they
      trim it; a Write to ``settings.json\\n`` writes ``settings.json``), and as it is.
    - Windows: ``/c/Users/...`` is ``C:\\Users\\...`` to Claude Code's file tools and Git Bash
      (its literal reading, ``<current drive>:\\c\\Users``, is what PowerShell or an MCP
      server would open: checked against the protected set only); ``/cygdrive/c/`` and
      ``/mnt/c/`` both ways; the stream, share (``windows_spelling``), volume (0083) spellings.
    - POSIX: backslashes as separators too; macOS's ``/System/Volumes/Data/x`` as ``/x``; a
      path with ``..`` also with it undone on the text (``_lexical``)."""
    spelt = [raw]
    trimmed = raw.strip(TRIMMED)
    if trimmed and trimmed != raw:
        spelt.insert(0, trimmed)
    out: list[str] = []
    aliases: list[str] = []
    for text in spelt:
        found: list[str] = []
        if windows:
            bash = _GIT_BASH_DRIVE.match(text)
            mounted = _MOUNTED_DRIVE.match(text)
            if bash:
                found.append(bash.group(1).upper() + ":\\" + text[bash.end() + 1 :])
                aliases.append(text)
            elif mounted:
                found += [text, mounted.group(1).upper() + ":\\" + text[mounted.end() + 1 :]]
            else:
                found.append(text)
            found += [w for w in map(windows_spelling, found) if w not in found]
            found += [v[1] for v in map(_VOLUME.match, found) if v and v[1] not in found]
        else:
            found.append(text)
            if "\\" in text:
                found.append(text.replace("\\", "/"))
            if text.startswith(_MACOS_DATA):
                found.append(text[len(_MACOS_DATA) - 1 :])
            found += [n for n in map(_lexical, found) if n and n not in found]
        out += [f for f in found if f not in out]
    return out, [a for a in aliases if a not in out]


def _lexical(path: str) -> str | None:
    """``path`` with its ``..`` undone on the text, as Node's ``path.resolve`` (Claude Code's
    file tools, Node MCP servers) undoes it, when that differs from what the file system does:
    after a symlink, ``link/..`` is the link's folder, not its target's parent (ADR 0071)."""
    if not path.startswith("/") or ".." not in path.split("/"):
        return None
    import posixpath  # only for a path that climbs

    return posixpath.normpath(path)


def on_drive(path: str, root: str) -> str:
    """A Windows path rooted on no drive (``\\Users\\x``, ``/Users/x``) on the drive of
    ``root``, where Claude Code's file tools (Node's ``path.resolve``) put it; others as they
    are. ADR 0066."""
    if path[:1] not in "/\\" or path[1:2] in ("/", "\\"):
        return path
    drive = ntpath.splitdrive(root)[0]
    return drive + path.replace("/", "\\") if drive[1:2] == ":" else path


def locate(raw: str, root: str, fs: FileSystem, insensitive: bool | None = None) -> Located:
    """Resolve ``raw`` (as a tool gave it) against the already-resolved project ``root``;
    ``insensitive`` is ``fs.case_insensitive(root)`` when the caller already asked."""
    if "\x00" in raw:
        return Located(raw, (), (), "the path contains a NUL byte")
    if len(raw) > MAX_PATH_CHARS:
        return Located(raw, (), (), f"the path is longer than {MAX_PATH_CHARS} characters")
    windows = fs.windows
    spelt, aliases = readings(raw, windows)
    if windows:  # `\Users\x` is on the current drive: the project's, as Claude Code reads it
        spelt = list(dict.fromkeys(on_drive(r, root) for r in spelt))
    # /proc/self/cwd is the cwd of the process that opens it (Claude Code's, a server's), not
    # the hook's: read in the root too (ADR 0071)
    spelt += [root + m[1] for m in map(_PROC_CWD.match, spelt) if m and root + m[1] not in spelt]
    # posixpath.isabs of a str is startswith("/")
    absolute = [r for r in spelt if (ntpath.isabs(r) if windows else r.startswith("/"))]
    if not absolute:
        return Located(raw, (), (), "not an absolute path on this platform")
    problem = "" if len(absolute) == len(spelt) else "not an absolute path on this platform"
    if insensitive is None:
        insensitive = fs.case_insensitive(root)
    absolutes: list[str] = []
    seen: list[tuple[str, Identity | None]] = []
    rels: list[str] = []
    scoped: set[str] = set()  # what the scoped readings resolved to
    guard_only: list[str] = []
    for reading in absolute + aliases:
        alias = reading in aliases
        try:
            resolved = fs.resolve(reading, root)
        except (OSError, ValueError) as exc:
            if alias:
                continue
            return Located(raw, (), (), f"cannot be resolved ({type(exc).__name__})")
        real = resolved.path
        if real not in absolutes:
            absolutes.append(real)
            if resolved.observed:
                seen.append((real, resolved.identity))
        if alias:
            if real not in scoped and real not in guard_only:
                guard_only.append(real)
            continue
        scoped.add(real)
        rel = _relative(real, root, windows, insensitive)
        if rel is None and windows:
            rel = _as_spelt_by_root(real, root, insensitive, absolutes)
        if rel is None:
            problem = problem or "outside the project root"
        elif rel == "":
            problem = problem or ROOT_ITSELF
        elif rel not in rels:
            rels.append(rel)
    if windows and not problem and any(map(has_short, rels)):  # ADR 0078: SRC~1 is any src*
        problem = "a Windows short (8.3) name, which may stand for any name it starts"
    rels_or_none = () if problem else tuple(rels)
    return Located(raw, tuple(absolutes), rels_or_none, problem, tuple(seen), tuple(guard_only))
