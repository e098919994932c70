"""What a registered entry does when the package is too broken to run its own client (ADR 0084).

``launcher.py`` and Windows' exec-form program import ``hook_main``, which imports ``wire``; the
client's fallback (``client.cannot_load``) needs ``wire``, and its record needs ``peer``. When
one of those cannot load (a half-finished upgrade, a file with a syntax error), the call was
answered from ``ORCHESTRATOR_BOUNDARY_PHASE`` alone, with nothing recorded, and anything but an
``ImportError`` died with a traceback: exit 1, which Claude Code lets through. This module
imports nothing of the package (only ``os`` and ``sys``; ``json``, ``time``, ``tomllib`` and
``signal`` where a record is written), so the launcher, ``hook_main``, the client and the
plugin's ``hook.py`` can all fall back on it. It repeats, on purpose, the little of ``wire``
and ``peer`` it needs: the phase (the variable, else the config's top-level ``phase`` line),
the bypass, and the call's record spooled beside the trail, which ``report`` reads and the
next working writer seals into the chain, as ``peer.spool_unjudged`` leaves one. A test holds
the two records alike.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

TOOL_EVENTS = ("PreToolUse", "PostToolUse")
EVENTS = {"pre": "PreToolUse", "post": "PostToolUse"}
EVENTS.update((e, e) for e in (*TOOL_EVENTS, "PostToolUseFailure", "SubagentStop", "Stop"))
EVENTS["SessionEnd"] = "SessionEnd"
CONFIG_PATH = os.path.join(".claude", "boundary.toml")
DEFAULT_AUDIT_PATH = ".claude/boundary/audit.jsonl"
SPOOL_MAX_FILES = 4096
STDIN_WAIT_S = 2
PAYLOAD_MAX = 1 << 20


def rescued(first: BaseException) -> Callable[[list[str]], int]:
    """The ``main`` to run after ``hook_main`` failed to import with ``first``. A cached
    ``.pyc`` cut short by a full disk (EOFError, ValueError; ADR 0057) is retried once, from the
    sources: the interpreter is started again in this process with bytecode off (``-B``, which
    also marks the retry), and ``hook_main`` drops the cut files. Windows has no ``exec`` that
    keeps the process Claude Code waits for: there, and for anything else, the call is
    answered without the package."""
    cut = isinstance(first, (EOFError, ValueError)) and not sys.flags.dont_write_bytecode
    if cut and os.name != "nt" and len(sys.orig_argv) > 1:
        again = ["-B", "-X", "pycache_prefix=" + os.devnull, *sys.orig_argv[1:]]
        try:  # noqa: SIM105 - contextlib is not loaded here
            os.execv(sys.executable, [sys.executable, *again])  # noqa: S606 - ourselves, again
        except OSError:
            pass  # answered below
    if cut:  # this call is answered without the package; the next one compiles the sources
        drop_cut_bytecode(os.path.dirname(os.path.abspath(__file__)))
    return lambda argv: answer(argv, first, os.environ)


def drop_cut_bytecode(package: str) -> None:
    """Remove the package's cached ``.pyc`` files that do not load, as ``peer`` does."""
    import marshal

    folder = os.path.join(package, "__pycache__")
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".pyc")]
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as cached:
                marshal.loads(cached.read()[16:])  # noqa: S302 - our cache, as import reads it
        except (EOFError, ValueError, TypeError):
            try:  # noqa: SIM105 - contextlib is not loaded here
                os.remove(path)
            except OSError:
                pass
        except OSError:
            continue


def answer(argv: list[str], exc: BaseException, environ: Mapping[str, str]) -> int:
    """Exit 2 for a tool call unless the phase is off or warn or the bypass is set; 0 for any
    other event (a stop is never held). One line on stderr; the call's record beside the trail."""
    event = EVENTS.get(argv[1]) if len(argv) > 1 else None
    if event is None or argv[2:] not in ([], ["user"]):
        _say("orchestrator-boundary: usage: launcher.py EVENT [user]\n")
        return 2  # a misregistered hook blocks rather than failing open
    error = f"cannot load the policy: {type(exc).__name__}: {exc}"[:1000]
    root = project_root(environ)
    phase = environ.get("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower()
    phase = phase or config_phase(config_text(root, environ))
    bypassed = environ.get("AMPLIFIER_BYPASS_BOUNDARY", "").strip().lower() in _YES
    # with no phase to read, a user entry lets the call through as the gone guard does: it
    # serves every project of its user, which a working hook judges in warn (ADR 0079)
    opened = phase in ("off", "warn") or (not phase and argv[2:] == ["user"])
    code = 2 if event in TOOL_EVENTS and not bypassed and not opened else 0
    said = "; AMPLIFIER_BYPASS_BOUNDARY is set: this call goes through unguarded" * bypassed
    raw = read_payload() if event in TOOL_EVENTS else b""
    line = record(raw, event, error, phase, code, bypassed)
    said += leave(environ, line, user=argv[2:] == ["user"])
    _say(
        f"orchestrator-boundary: cannot load the package ({type(exc).__name__}: {exc}){said}; "
        'reinstall it, or roll back by hand: phase = "warn" in .claude/boundary.toml\n'
    )
    return code


_YES = ("1", "true", "yes", "on")


def leave(environ: Mapping[str, str], line: bytes, *, user: bool = False) -> str:
    """Spool ``line`` beside the project's trail; '' when done, else what to add to the stderr
    line: why not, and the record itself (``client.cannot_load`` uses it when ``peer`` is
    what cannot load)."""
    root = project_root(environ)
    if root and not os.path.isdir(root):  # moved away: a folder made again here would be
        note = f"the project folder {root!r} is gone"  # judged as a project of its own
    else:
        note = spool(trail_path(root, environ, user), line) if root else "no project to name"
    return f"; no record of this call ({note}): {line.decode('utf-8', 'replace')}" if note else ""


def _say(text: str) -> None:
    try:  # noqa: SIM105 - contextlib is not loaded here
        os.write(2, text.replace("\n", " ").rstrip().encode("utf-8", "backslashreplace") + b"\n")
    except OSError:
        pass  # the exit code says it all


def project_root(environ: Mapping[str, str]) -> str | None:
    """``CLAUDE_PROJECT_DIR`` (else the working folder), or the nearest configured folder
    above it, the home folder excepted (``wire.configured_above``). None when neither names a
    project: nothing is written into a folder that only happens to be the working one."""
    named = environ.get("CLAUDE_PROJECT_DIR", "")
    try:
        start = os.path.abspath(named or os.getcwd())
    except (OSError, ValueError):
        return None
    home = environ.get("USERPROFILE" if os.name == "nt" else "HOME", "")
    home_real = os.path.realpath(home) if home else None
    current = start
    while True:
        if os.path.isfile(os.path.join(current, CONFIG_PATH)) and (
            os.path.realpath(current) != home_real
        ):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return start if named else None
        current = parent


def config_text(root: str | None, environ: Mapping[str, str]) -> str:
    """The first 64 KiB of the project's config, '' when there is none (a FIFO reads empty)."""
    if root is None:
        return ""
    path = os.path.join(root, environ.get("ORCHESTRATOR_BOUNDARY_CONFIG") or CONFIG_PATH)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
        try:
            return os.read(fd, 1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
        finally:
            os.close(fd)
    except (OSError, ValueError):
        return ""


def config_phase(text: str) -> str:
    """The top-level ``phase = "..."`` line, as ``wire.config_phase`` reads it."""
    for key, eq, value in (line.partition("=") for line in text.splitlines()):
        if key.strip().startswith("["):
            break
        if eq and key.strip() == "phase":
            return value.partition("#")[0].strip().strip("\"'").strip().lower()
    return ""


def trail_path(root: str, environ: Mapping[str, str], user: bool) -> str:
    """Where the trail is, as ``setups`` places it: ``[audit] path``, else an absolute
    ``ORCHESTRATOR_BOUNDARY_AUDIT_PATH`` (a user-scope entry's, else under the user's Claude
    folder, ``hook_main.user_trail`` without its legacy move), else the default."""
    try:
        import tomllib

        named = tomllib.loads(config_text(root, environ))["audit"]["path"]
    except (ImportError, ValueError, KeyError, TypeError):
        named = environ.get("ORCHESTRATOR_BOUNDARY_AUDIT_PATH", "")
        named = named if os.path.isabs(named) else ""
        if user and not named:
            from hashlib import sha256

            exact = os.path.normcase(root).encode("utf-8", "surrogatepass")
            legacy = "".join(c if c.isascii() and c.isalnum() else "-" for c in root)
            slug = f"{legacy[-80:]}-{sha256(exact).hexdigest()[:16]}"
            home = environ.get("USERPROFILE" if os.name == "nt" else "HOME", "")
            claude = environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home or "~", ".claude")
            parts = ("orchestrator-boundary", "projects", slug, "audit.jsonl")
            named = os.path.join(os.path.expanduser(claude), *parts)
    return os.path.join(root, named if isinstance(named, str) and named else DEFAULT_AUDIT_PATH)


def read_payload() -> bytes:
    """stdin, up to ``PAYLOAD_MAX``, given up after ``STDIN_WAIT_S`` (Claude Code closes it at
    once). Where there is no alarm (Windows) it is read as ``client.read_stdin`` reads it there:
    to its end."""
    import signal

    def late(_signum: int, _frame: object) -> None:
        raise TimeoutError

    chunks: list[bytes] = []
    timed = hasattr(signal, "SIGALRM")
    try:
        old = signal.signal(signal.SIGALRM, late) if timed else None
    except ValueError:
        return b""  # not the main thread
    if timed:
        signal.alarm(STDIN_WAIT_S)
    try:
        while sum(map(len, chunks)) <= PAYLOAD_MAX:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except (OSError, TimeoutError):
        pass
    finally:
        if timed:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return b"".join(chunks)


def record(raw: bytes, event: str, error: str, phase: str, code: int, bypassed: bool) -> bytes:
    """The call's audit line, as ``peer.unjudged_record`` writes it."""
    import json
    import time

    now = time.time()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))
    rec: dict[str, object] = {"ts": f"{stamp}.{int(now % 1 * 1e6):06d}+00:00", "event": event}
    try:
        sent = json.loads(raw) if raw and len(raw) <= PAYLOAD_MAX else None
    except (ValueError, RecursionError):
        sent = None
    for key in ("session_id", "agent_id", "agent_type", "tool_name", "tool_use_id"):
        value = sent.get(key) if isinstance(sent, dict) else None
        if isinstance(value, str):
            rec[key] = value[:200]
    rec.update(decision="deny" if code == 2 else "none", would_deny=None, phase=phase or None)
    rec.update(bypassed=bypassed, error=error, input_bytes=len(raw), unjudged=True)
    text = json.dumps(rec, ensure_ascii=False).replace("\n", " ")
    return text.encode("utf-8", "backslashreplace") + b"\n"


def spool(trail: str, line: bytes) -> str:
    """Leave ``line`` beside ``trail`` as ``peer.spool_unjudged`` does: '', else why not."""
    try:
        folder, base = os.path.split(trail)
        os.makedirs(folder, exist_ok=True)
        if sum(n.startswith(f".{base}-spool-") for n in os.listdir(folder)) >= SPOOL_MAX_FILES:
            return "too many lines wait beside the trail already"
        import time

        stem = f"{time.time_ns():020d}-{os.getpid()}"
        partial = os.path.join(folder, f".{base}-partial-{stem}")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        fd = os.open(partial, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:  # whole or not at all: a full disk writes short, then fails
            try:
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            os.replace(partial, os.path.join(folder, f".{base}-spool-{stem}"))
        except OSError:
            try:  # noqa: SIM105 - contextlib is not loaded here
                os.remove(partial)
            except OSError:
                pass
            raise
    except (OSError, ValueError) as exc:
        return f"audit trail not writable: {exc}"
    return ""
