"""What the hook client and the resident evaluator share: the wire format and runtime paths.

A leaf: it imports only ``os`` and ``sys`` (the client runs with ``-I -S`` and pays for every
import, ADR 0009; ``ntpath`` when Windows' runtime folder is asked for), and nothing in the
package. ``client`` and ``daemon`` both import it; neither imports the other's side, so there
is no cycle between them.

A request is ``REQUEST_MAGIC`` + fields, a reply ``REPLY_MAGIC`` + fields, each field
``b"<decimal length>:" + bytes``.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from collections.abc import Mapping

    Environ = Mapping[bytes, bytes]  # os.environb, or a test's mapping

PROTOCOL = b"OB1"
REQUEST_MAGIC = b"OBQ1"
REPLY_MAGIC = b"OBA1"
MISMATCH = b"OBX1"
TOOL_EVENTS = ("PreToolUse", "PostToolUse")  # ``client.cannot_load`` blocks only these
# SubagentStop, Stop and SessionEnd: delegation contracts' deliverables, the session summary
# and cleaning (ADR 27).
EVENTS = (*TOOL_EVENTS, "PostToolUseFailure", "SubagentStop", "Stop", "SessionEnd")
# ``doctor`` asks the evaluator for a reply that judges nothing: is its writer the process that
# listens (ADR 0026)? A request of two fields, the version and this.
PING = b"Ping"


class Impostor(Exception):
    """Something answers on the evaluator's socket that is not a verified evaluator (ADR 0026).

    Here, not in ``peer``: the client must name it even when ``peer`` cannot be imported (a
    broken install still blocks instead of exiting 1)."""


MAX_PAYLOAD_BYTES = 32 * 1024 * 1024  # as payload.MAX_PAYLOAD_BYTES: one byte more is refused
MAX_REPLY_BYTES = 4 * 1024 * 1024
# The evaluator takes payloads up to this size; a larger one is judged in the hook's own process
# (same verdict, slower), so the evaluator's memory stays bounded: MAX_CONNECTIONS requests of
# at most MAX_EVALUATOR_PAYLOAD_BYTES + MAX_EVALUATOR_ENV_BYTES each. Issue 13 point 5.
MAX_EVALUATOR_PAYLOAD_BYTES = 4 * 1024 * 1024
MAX_EVALUATOR_ENV_BYTES = 1024 * 1024  # the hook's environment, every other field together
MAX_CONNECTIONS = 16
SOCKET_PATH_MAX = 100  # sun_path is 108 bytes on Linux, 104 on macOS

# The environment variables the hook reads, each named once.
PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"
HOME_ENV = "HOME"
USERPROFILE_ENV = "USERPROFILE"  # Windows' home: what Claude Code (Node) takes there
CONFIG_ENV = "ORCHESTRATOR_BOUNDARY_CONFIG"
PHASE_ENV = "ORCHESTRATOR_BOUNDARY_PHASE"

# Claude Code 2.1.330's managed settings file on each platform (its policy folder)
MANAGED_SETTINGS_PATHS = {
    "linux": "/etc/claude-code/managed-settings.json",
    "darwin": "/Library/Application Support/ClaudeCode/managed-settings.json",
    "win32": "C:\\Program Files\\ClaudeCode\\managed-settings.json",
}
BYPASS_ENV = "AMPLIFIER_BYPASS_BOUNDARY"
AUDIT_ENV = "ORCHESTRATOR_BOUNDARY_AUDIT_PATH"  # a user-scope install's per-user trail
PLUGIN_ROOT_ENV = "CLAUDE_PLUGIN_ROOT"
CLAUDE_CONFIG_DIR_ENV = "CLAUDE_CONFIG_DIR"
RUNTIME_DIR_ENV = "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR"
XDG_RUNTIME_DIR_ENV = "XDG_RUNTIME_DIR"
LOCALAPPDATA_ENV = "LOCALAPPDATA"  # Windows: the runtime folder is made in it (ADR 0041)
NO_DAEMON_ENV = "ORCHESTRATOR_BOUNDARY_NO_DAEMON"
TIMEOUT_ENV = "ORCHESTRATOR_BOUNDARY_DAEMON_TIMEOUT"
IDLE_ENV = "ORCHESTRATOR_BOUNDARY_DAEMON_IDLE"
DEFAULT_TIMEOUT = 2.5  # seconds the client waits for the evaluator; then it judges in process
# Set by the client (never read from the hook's own environment: it overwrites it) when a
# process on the evaluator's socket failed verification, for the audit line (ADR 0026).
IMPOSTOR_ENV = "ORCHESTRATOR_BOUNDARY_EVALUATOR_IMPOSTOR"
# Every variable a decision depends on: a Setup's cache key (the client hands the evaluator its
# whole environment). tests/test_setup_cache.py records what a Setup reads and fails if this
# list misses any. The rest above steer only the evaluator route. The runtime folder is in the
# protected set, so the variables that place it are here: LOCALAPPDATA only on Windows.
DECISION_ENV = (
    PROJECT_DIR_ENV,
    HOME_ENV,
    USERPROFILE_ENV,
    CONFIG_ENV,
    PHASE_ENV,
    BYPASS_ENV,
    PLUGIN_ROOT_ENV,
    CLAUDE_CONFIG_DIR_ENV,
    RUNTIME_DIR_ENV,
    XDG_RUNTIME_DIR_ENV,
    LOCALAPPDATA_ENV,
)

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
IMPORT_ROOT = os.path.dirname(PACKAGE_DIR)  # src/ in a checkout, site-packages when installed

CONFIG_PATH = os.path.join(".claude", "boundary.toml")  # the project's config, from its root


def project_gone(root: str | None) -> str | None:
    """Why ``root`` (``CLAUDE_PROJECT_DIR``, else the payload's cwd) is no project folder any
    more, or None: an absolute path with no folder there was moved or removed during the
    session (by a program an agent ran, say). Judged as a project without a config, every call
    went through, in enforce too, protected files included (ADR 0063)."""
    if not root or not os.path.isabs(root) or os.path.isdir(root):
        return None
    return (
        "the project folder %r is gone (moved or removed during the session); start Claude "
        "Code again in the project's folder" % (root,)
    )


def configured_above(folder: str, home: str | None) -> str | None:
    """The nearest folder at or above ``folder`` with ``.claude/boundary.toml``, the home
    folder excepted (its ``.claude`` is the user's Claude folder); None when there is none.

    Claude Code reads a project's ``.claude/settings.json`` only in the folder a session starts
    in, so a session started in ``src/`` runs only user-scope and managed hooks, with
    ``CLAUDE_PROJECT_DIR`` naming ``src/``. Those hooks, and the commands a person runs, take
    the project from here, as git finds ``.git`` (ADRs 0046, 0054)."""
    home_real = os.path.realpath(home) if home else None
    current = folder
    while True:
        if os.path.isfile(os.path.join(current, CONFIG_PATH)) and (
            os.path.realpath(current) != home_real
        ):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def project_config(environ: Mapping[str, str]) -> tuple[str, bytes]:
    """The project as the hook takes it without the policy (``CLAUDE_PROJECT_DIR``, else the
    working folder, or the nearest configured folder above, ADR 0054) and the first 64 KiB of
    its config (``b""`` when none can be read: opened without blocking, so a FIFO in its place
    reads as empty). Raises OSError or ValueError when there is no folder to name."""
    root = os.path.abspath(environ.get(PROJECT_DIR_ENV) or os.getcwd())
    root = configured_above(root, user_home(environ)) or root
    path = os.path.join(root, environ.get(CONFIG_ENV) or CONFIG_PATH)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            return root, os.read(fd, 1 << 16)
        finally:
            os.close(fd)
    except OSError:
        return root, b""


def bypass_set(environ: Mapping[str, str]) -> bool:
    """``BYPASS_ENV`` = true/1/yes/on, any case (``phase.bypass_requested``, without it)."""
    return environ.get(BYPASS_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def config_phase(environ: Mapping[str, str]) -> str:
    """The top-level ``phase = "..."`` line of the project's config as the committed launcher
    reads it (ADR 0058), in the project ``project_config`` finds; '' when none is read."""
    try:
        data = project_config(environ)[1]
    except (OSError, ValueError):
        return ""
    lines = data.decode("utf-8", "replace").lstrip("\ufeff").splitlines()
    for key, eq, value in (line.partition("=") for line in lines):
        if key.strip().startswith("["):
            break
        if eq and key.strip() == "phase":
            return value.partition("#")[0].strip().strip("\"'").strip().lower()
    return ""


def client_timeout(value: bytes | str | None) -> float:
    """How long the client waits for the evaluator (``TIMEOUT_ENV``, else the default): the
    client and the evaluator read it alike (ADR 0063)."""
    try:
        return float(value or DEFAULT_TIMEOUT)
    except ValueError:
        return DEFAULT_TIMEOUT


def pack(fields: list[bytes]) -> bytes:
    return b"".join(b"%d:%s" % (len(f), f) for f in fields)


def unpack(data: bytes, start: int = 0) -> list[bytes]:
    """The fields of ``data[start:]``; ValueError when it is not exactly a field sequence."""
    out = []
    i, n = start, len(data)
    while i < n:
        colon = data.index(b":", i, i + 12)
        size = int(data[i:colon])
        if size < 0 or colon + 1 + size > n:
            raise ValueError("truncated field")
        out.append(data[colon + 1 : colon + 1 + size])
        i = colon + 1 + size
    return out


def _source_stamp(folder: str, depth: int = 2) -> int:
    """The newest mtime (ns) among the package's ``.py`` files (~30 stat calls).

    Not the folders' own: writing ``__pycache__`` changes those, and would retire every
    evaluator started before the first compile.
    """
    newest = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    newest = max(newest, entry.stat().st_mtime_ns)
                elif depth > 1 and entry.name != "__pycache__" and entry.is_dir():
                    newest = max(newest, _source_stamp(entry.path, depth - 1))
    except OSError:
        pass
    return newest


def version_tag() -> bytes:
    """Protocol + package version + the newest source mtime (an edit or upgrade in place).

    Client and evaluator must agree exactly; otherwise the evaluator quits and the call is
    judged in-process, so changed code never talks to an old process.
    """
    return b"%s/%s/%d" % (PROTOCOL, package_version().encode(), _source_stamp(PACKAGE_DIR))


def _fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def runtime_dir(explicit: bytes | None, xdg: bytes | None) -> str:
    """The evaluators' folder, from ``$ORCHESTRATOR_BOUNDARY_RUNTIME_DIR`` and
    ``$XDG_RUNTIME_DIR`` (as bytes, as ``os.environb`` holds them)."""
    if explicit:
        return os.fsdecode(explicit)
    if xdg and xdg.startswith(b"/"):
        return os.path.join(os.fsdecode(xdg), "orchestrator-boundary")
    uid = os.getuid() if hasattr(os, "getuid") else 0  # Windows has no uid
    return "/tmp/orchestrator-boundary-%d" % uid  # noqa: S108 - checked: ours, 0700


def windows_runtime_dir(explicit: str | None, local_app_data: str | None) -> str | None:
    """Windows' runtime folder (ADR 0041): ``$ORCHESTRATOR_BOUNDARY_RUNTIME_DIR``, else
    ``%LOCALAPPDATA%\\orchestrator-boundary`` when LOCALAPPDATA is an absolute path on a drive
    below its root (``C:\\Users\\me\\AppData\\Local``), else None: no folder, rather than one
    at a drive's root or on a share, where another user may have made it first."""
    if explicit:
        return explicit
    import ntpath  # os.path itself on Windows; only this function needs it elsewhere

    if not local_app_data:
        return None
    drive, rest = ntpath.splitdrive(ntpath.normpath(local_app_data))
    on_drive = len(drive) == 2 and drive[1] == ":" and drive[0].isascii() and drive[0].isalpha()
    if not on_drive or rest[:1] != "\\" or not rest.strip("\\"):
        return None
    return ntpath.join(drive + rest, "orchestrator-boundary")


def runtime_dir_of(environ: Environ) -> str:
    return runtime_dir(
        environ.get(RUNTIME_DIR_ENV.encode()), environ.get(XDG_RUNTIME_DIR_ENV.encode())
    )


def socket_path(root: str, environ: Environ) -> str:
    """One evaluator per user (the folder), project root, interpreter and installation."""
    key = b"\0".join((os.fsencode(root), os.fsencode(sys.executable), os.fsencode(PACKAGE_DIR)))
    return os.path.join(runtime_dir_of(environ), "%016x.sock" % _fnv1a64(key))


def lock_path(path: str) -> str:
    return path[: -len(".sock")] + ".lock" if path.endswith(".sock") else path + ".lock"


def _made_dir(path: str, *, create: bool, parents: bool = True) -> os.stat_result | None:
    """``lstat`` of ``path``; made first (mode 0700) when missing and ``create`` is set, with
    the folders above it unless ``parents`` is False."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        if not create:
            return None
        try:
            if parents:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
        try:
            return os.lstat(path)
        except OSError:
            return None
    except OSError:
        return None


def private_dir(path: str, *, create: bool) -> bool:
    """True when ``path`` is a real folder owned by us that nobody else can enter (0700)."""
    st = _made_dir(path, create=create)
    if st is None:
        return False
    return (
        (st.st_mode & 0o170000) == 0o040000 and st.st_uid == os.getuid() and not st.st_mode & 0o077
    )


# stat.FILE_ATTRIBUTE_REPARSE_POINT: a symbolic link, a junction (mount point) or another link.
# Windows' lstat shows a junction as a folder; only this attribute tells it apart.
REPARSE_POINT = 0x400
S_IFDIR, S_IFREG = 0o040000, 0o100000


def plain_node(st: os.stat_result, kind: int) -> bool:
    """Windows: ``st`` (an ``lstat`` or ``fstat``) is of ``kind`` (``S_IFDIR``, ``S_IFREG``)
    and no reparse point. There is no owner or mode to check without the ACL API (ADR 0041)."""
    attributes = getattr(st, "st_file_attributes", 0)
    return (st.st_mode & 0o170000) == kind and not attributes & REPARSE_POINT


def local_dir(path: str, *, create: bool) -> bool:
    """Windows' ``private_dir``: True when ``path`` is a real folder, not a junction or a
    link; made when missing (mode 0700: from Python 3.11.10, 3.12.4 and 3.13 on, an ACL that
    admits only the user and Administrators), but only in a folder that exists: a parent made
    here would inherit its own parent's ACL, which at a drive's root lets every user in."""
    st = _made_dir(path, create=create, parents=False)
    return st is not None and plain_node(st, S_IFDIR)


def import_path() -> None:
    """Make the package and its dependencies importable when started with ``-S``."""
    if IMPORT_ROOT not in sys.path:
        sys.path.insert(0, IMPORT_ROOT)
    if "site" not in sys.modules:
        import site

        site.main()
        if IMPORT_ROOT in sys.path:  # keep this copy first, ahead of any installed one
            sys.path.remove(IMPORT_ROOT)
        sys.path.insert(0, IMPORT_ROOT)


_VERSION: list[str] = []  # read once per process


def package_version() -> str:
    """The package's version from its metadata, for ``--version``, the audit line and the
    evaluator's tag (ADR 0079): the ``orchestrator_boundary-X.dist-info`` beside the package,
    else the ``PKG-INFO`` an editable install leaves in ``src/``, else the checkout's
    ``pyproject.toml``, else ``__version__``; not ``importlib.metadata`` (25 ms a call)."""
    if not _VERSION:
        try:
            names = os.listdir(IMPORT_ROOT)
        except OSError:
            names = []
        dist = [n[22:-10] for n in names if n[:22] + n[-10:] == "orchestrator_boundary-.dist-info"]
        found = dist[0] if len(dist) == 1 else ""
        for path, key in (
            (os.path.join(IMPORT_ROOT, "orchestrator_boundary.egg-info", "PKG-INFO"), "Version:"),
            (os.path.join(os.path.dirname(IMPORT_ROOT), "pyproject.toml"), "version ="),
        ):
            found = found or _line_value(path, key)
        if not found:  # a copy of the package without its metadata: what it says of itself
            import orchestrator_boundary

            found = getattr(orchestrator_boundary, "__version__", "0+unknown")
        _VERSION.append(found)
    return _VERSION[0]


def _line_value(path: str, key: str) -> str:
    """What follows ``key`` on the first line of ``path`` that starts with it, unquoted."""
    try:
        with open(path, encoding="utf-8") as text:
            for line in text:
                if line.startswith(key):
                    return line[len(key) :].strip().strip("\"'")
    except (OSError, ValueError):
        pass
    return ""


def user_home(environ: Mapping[str, str]) -> str | None:
    """The home folder Claude Code reads ``~/.claude`` from: Node's ``os.homedir()`` takes
    ``USERPROFILE`` on Windows (a ``HOME`` set for Git Bash, often a network drive, is not
    it), ``HOME`` elsewhere; each falls back on the other."""
    first, second = (USERPROFILE_ENV, HOME_ENV) if os.name == "nt" else (HOME_ENV, USERPROFILE_ENV)
    return environ.get(first) or environ.get(second) or None
