"""The hook's fast path: hand the call to a resident evaluator, else judge it here. ADR 0009.

Claude Code starts a new process for every hook call, so this module is what that process runs.
It imports nothing beyond ``os``, ``sys``, ``_socket`` and the import-free ``wire`` leaf (no
``json``, ``re`` or ``socket``): it sends the payload with the hook's own environment to the
project's evaluator (``orchestrator_boundary.daemon``) over a Unix socket, writes the answer.

Whenever the evaluator cannot answer (disabled, no socket, refused, timeout, a reply it does
not understand, another version) the call is judged in this process by the same
``shell.evaluate``: nothing ever fails open because the evaluator is missing. A missing
evaluator is started in the background for the next call. Runnable by path without ``site``
(``python -I -S .../client.py PreToolUse``) or imported by the thin ``hooks/*.py`` entries.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # run by path with -I -S: find the package beside this file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from orchestrator_boundary import wire

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_TIMEOUT = wire.DEFAULT_TIMEOUT  # seconds; well below any hook timeout, then judged here


# ---- the evaluator route ----


def request(path: str, root: str, fields: list[bytes], timeout: float) -> list[bytes] | None:
    """Send one request; the reply's fields, or None when the evaluator gave no usable answer.
    Raises Impostor when the listener (sent nothing) or the reply's writer is not verified."""
    from orchestrator_boundary import peer

    reply = peer.exchange(path, root, fields, timeout)
    if not reply.startswith(wire.REPLY_MAGIC):
        return None  # MISMATCH, empty (the evaluator died) or garbage
    answer = wire.unpack(reply, len(wire.REPLY_MAGIC))
    if len(answer) != 3 or answer[0] not in (b"0", b"2"):
        return None
    return answer


def via_daemon(raw: bytes, event: str) -> tuple[int, bytes, bytes] | None:
    """The evaluator's answer, or None when the call must be judged in-process."""
    import _socket

    if not hasattr(os, "fork") or not hasattr(_socket, "AF_UNIX"):
        return None  # Windows: no Unix-socket evaluator; judged in this process (issue 15)
    env = os.environb
    if env.get(wire.NO_DAEMON_ENV.encode(), b"").strip().lower() in (b"1", b"true", b"yes", b"on"):
        return None
    from orchestrator_boundary import peer  # here: a broken install still reaches cannot_load

    if not peer.can_verify():
        return None  # macOS: an evaluator we cannot verify is never asked (ADR 0026)
    if len(raw) > wire.MAX_EVALUATOR_PAYLOAD_BYTES:
        return None  # the evaluator would refuse it: judged here, its memory stays bounded
    root_b = env.get(wire.PROJECT_DIR_ENV.encode())
    if not root_b or not root_b.startswith(b"/"):
        return None
    root = os.fsdecode(root_b)
    path = wire.socket_path(root, env)
    if len(os.fsencode(path)) > wire.SOCKET_PATH_MAX or not wire.private_dir(
        os.path.dirname(path), create=True
    ):
        return None
    timeout = wire.client_timeout(env.get(wire.TIMEOUT_ENV.encode()))
    try:
        cwd = os.fsencode(os.getcwd())
    except OSError:
        cwd = b""
    fields = [wire.version_tag(), event.encode(), cwd]
    for key, value in env.items():
        fields.append(key + b"=" + value)
    fields.append(b"")  # end of the environment
    fields.append(raw)
    try:
        answer = request(path, root, fields, timeout)
    except (FileNotFoundError, ConnectionRefusedError):
        peer.start_daemon(path, root)
        return None
    except (OSError, ValueError):
        return None  # timeout, reset, a reply cut short: judge here
    if answer is None:
        return None
    return int(answer[0]), answer[1], answer[2]


# ---- the in-process route (same function the evaluator calls) ----


def in_process(raw: bytes, event: str, impostor: str = "") -> tuple[int, bytes, bytes]:
    """``shell.evaluate`` here; an impostor found on the evaluator's socket is handed on in
    ``wire.IMPOSTOR_ENV`` (only in this mapping), for the audit line."""
    wire.import_path()
    from orchestrator_boundary.shell import evaluate, keep_compiled

    keep_compiled()  # a validated config is left for the next process (ADR 0030)
    environ: Mapping[str, str] = os.environ
    if impostor or wire.IMPOSTOR_ENV in environ:
        environ = {k: v for k, v in os.environ.items() if k != wire.IMPOSTOR_ENV}
        if impostor:
            environ[wire.IMPOSTOR_ENV] = impostor
    try:
        return evaluate(raw, environ, event=event).encoded()
    except BaseException as exc:  # past the one guard: the policy loaded, the call unjudged
        raise Unjudged(f"{type(exc).__name__}: {exc}") from exc


class Unjudged(Exception):
    """The policy loaded, but a call escaped ``shell.evaluate``'s guard: never opened by the
    bypass, which opens only what could not load (ADR 0079)."""


def judge_here(raw: bytes, event: str, impostor: str = "") -> tuple[int, bytes, bytes]:
    """``in_process``, never raising. A cached ``.pyc`` cut short (a full disk) fails its
    module's import on every call: such files are removed and the call judged once more, with
    no bytecode written (ADR 0057); anything else is ``cannot_load``."""
    try:
        return in_process(raw, event, impostor)
    except (EOFError, ValueError) as exc:
        if "marshal" not in str(exc):
            return cannot_load(exc, event, raw)
        first: BaseException = exc
    except BaseException as exc:  # noqa: BLE001 - e.g. a broken install: never exit 1
        return cannot_load(exc, event, raw)
    try:
        from orchestrator_boundary.peer import drop_cut_bytecode

        drop_cut_bytecode()
        sys.dont_write_bytecode, sys.pycache_prefix = True, os.devnull  # the sources, this once
        return in_process(raw, event, impostor)
    except BaseException as exc:  # noqa: BLE001 - still broken: block as below
        first = exc
    return cannot_load(first, event, raw)


def cannot_load(
    exc: BaseException, event: str = "PreToolUse", raw: bytes = b""
) -> tuple[int, bytes, bytes]:
    """The package itself cannot run (a broken install): exit 2 with one line (exit 1 or a
    traceback would fail open), or exit 0 with the line in off and warn: the phase of
    ``ORCHESTRATOR_BOUNDARY_PHASE``, else of the config's own ``phase`` line (``config_phase``;
    before, a warn project blocked every call, ADR 0072). Other events never block. Under
    the bypass the call goes through, as the launcher's no-installation answer lets it: the
    policy, TAMPER's check included, is what could not load; a judgement that ran out of time or
    escaped the guard still blocks. The call's record waits beside the trail (ADR 0079)."""
    if isinstance(exc, Unjudged):
        error = "internal error (%s)" % exc
    else:
        what = "ran out of time" if isinstance(exc, HookDeadline) else "cannot load the policy"
        error = "%s: %s: %s" % (what, type(exc).__name__, exc)
    error = error[:1000]
    phase = os.environ.get(wire.PHASE_ENV, "").strip().lower() or config_phase(os.environ)
    bypassed = error.startswith("cannot load") and wire.bypass_set(os.environ)
    # observed and lifecycle events never block
    blocks = event in wire.TOOL_EVENTS and not bypassed and phase not in ("off", "warn")
    code = 2 if blocks else 0
    said = "; %s is set: this call goes through unguarded" % wire.BYPASS_ENV if bypassed else ""
    try:  # peer needs only wire and os: it loads where the policy cannot
        from orchestrator_boundary import peer

        rec = peer.unjudged_record(raw, event, error, phase, code, bypassed)
    except Exception:  # noqa: BLE001 - peer cannot load: rescue needs neither (ADR 0084)
        note = ""
        try:
            from orchestrator_boundary import rescue

            said += rescue.leave(
                os.environ, rescue.record(raw, event, error, phase, code, bypassed)
            )
        except Exception as gone:  # noqa: BLE001 - the answer stands, in one line
            said += "; no record of this call either (%s)" % gone
    else:
        note = peer.spool_unjudged(os.environ, rec)
    line = "orchestrator-boundary: %s%s\n%s" % (error, said, note)
    return code, b"", line.encode("utf-8", "backslashreplace")[:4000]


config_phase = wire.config_phase  # the config's phase line, read without the policy


STDIN_WAIT_S = 4  # whole seconds (an alarm); Claude Code closes stdin at once
# From the hook's start. Claude Code kills a hook at its timeout (10 s as installed) and then
# lets the call through unless onFailure is set (2.1.295+): a deliberate answer comes first.
DEADLINE_S = 8.0


class HookDeadline(Exception):
    """Judging ran past ``DEADLINE_S`` (raised by the timer, inside ``shell.evaluate``'s guard
    when it is there: the trail then records it as an internal error). ADR 0072."""


def _late(_signum: int, _frame: object) -> None:
    raise HookDeadline(f"judging this call took more than {DEADLINE_S:g} s")


def judge_in_time(
    raw: bytes, event: str, impostor: str, started: float
) -> tuple[int, bytes, bytes]:
    """``judge_here`` under a one-shot timer ending ``DEADLINE_S`` after ``started``
    (``os.times().elapsed``); none where there is no SIGALRM (Windows) or off the main thread."""
    import _signal  # type: ignore[import-not-found]  # built in, loaded at start-up

    armed = False
    try:
        try:
            try:
                old = _signal.signal(_signal.SIGALRM, _late)
                left = DEADLINE_S - (os.times().elapsed - started)
                _signal.setitimer(_signal.ITIMER_REAL, max(left, 0.5))
                armed = True
            except (AttributeError, ValueError, OSError):
                pass
            return judge_here(raw, event, impostor)
        finally:
            if armed:  # only the timer set here: a caller's own SIGALRM is put back
                _signal.setitimer(_signal.ITIMER_REAL, 0)
                _signal.signal(_signal.SIGALRM, old)
    except HookDeadline as exc:  # also when it fired in the finally above: one shot, no more
        return cannot_load(exc, event, raw)


class _StdinLate(Exception):
    """stdin was still open ``STDIN_WAIT_S`` after the hook started."""


def _stdin_late(_signum: int, _frame: object) -> None:
    raise _StdinLate


def read_stdin() -> tuple[bytes, bool]:
    """stdin up to one byte over the limit, and whether it was closed in time. A writer that
    never closes it would hold the hook until Claude Code's timeout, which fails open: after
    ``STDIN_WAIT_S`` what came is judged (cut short, not JSON: refused). A failed read ends it
    likewise; non-blocking stdin (Claude Code's is a blocking socket) made blocking (ADR 0063)."""
    import _signal  # built in, loaded at start-up (its stubs: see judge_in_time)

    timed = hasattr(_signal, "SIGALRM")
    if timed:
        try:
            old = _signal.signal(_signal.SIGALRM, _stdin_late)
        except ValueError:  # not the main thread (a test calling ``run``): no deadline
            timed = False
        else:
            _signal.alarm(STDIN_WAIT_S)
    chunks: list[bytes] = []
    closed = False
    try:
        closed = _read_into(chunks)
    except _StdinLate:
        pass
    finally:
        if timed:
            _signal.alarm(0)
            _signal.signal(_signal.SIGALRM, old)
    return b"".join(chunks)[: wire.MAX_PAYLOAD_BYTES + 1], closed


def _read_into(chunks: list[bytes]) -> bool:
    """Read stdin into ``chunks`` until it ends (True), fails or passes the limit."""
    total = 0
    while total <= wire.MAX_PAYLOAD_BYTES:
        try:
            chunk = os.read(0, 1 << 20)
        except BlockingIOError:
            os.set_blocking(0, True)
            continue
        except OSError:
            return False
        if not chunk:
            return True
        chunks.append(chunk)
        total += len(chunk)
    return True


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def hold_std_fds() -> frozenset[int]:
    """The standard descriptors (0, 1, 2) that were closed, each now held open on the null
    device: a file or socket opened later would otherwise take the number, and the answer meant
    for stdout would be written into it (the audit trail, the state store)."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        held = os.open(os.devnull, os.O_RDWR)
        if held != fd:
            os.dup2(held, fd, inheritable=False)
            os.close(held)
    return frozenset(closed)


def deliver(code: int, out: bytes, err: bytes, closed: frozenset[int] = frozenset()) -> int:
    """Write the answer; the exit code Claude Code must see. When stdout cannot take the
    answer (closed, a broken pipe, a full disk), a block is given as exit 2 with its reason on
    stderr, which blocks without stdout: a crash there would exit 1 and let the call through."""
    try:
        if out:
            if 1 in closed:
                raise BrokenPipeError("stdout is closed")
            _write(1, out)
    except OSError:
        reason = _block_reason(out)
        if reason is not None:
            code = 2
            err = ("orchestrator-boundary: %s\n" % reason).encode("utf-8", "backslashreplace") + err
    if err and 2 not in closed:
        try:
            _write(2, err)
        except OSError:
            pass  # the exit code still says it all
    return code


def _block_reason(out: bytes) -> str | None:
    """The reason of a deny, an ask or a PostToolUse block in ``out``; None for an answer that
    lets the call through (a warning the model could not be given)."""
    import json

    try:
        answer = json.loads(out)
        specific = answer.get("hookSpecificOutput") or {}
        if specific.get("permissionDecision") in ("deny", "ask"):
            return str(specific.get("permissionDecisionReason") or "blocked")
        if answer.get("decision") == "block":
            return str(answer.get("reason") or "blocked")
    except (ValueError, AttributeError):
        return "blocked: the answer could not be read back"  # never ours; block, not guess
    return None


def run(event: str, *, leave_fast: bool = False) -> int:
    """One hook call: stdin -> verdict on stdout/stderr -> exit code. ``leave_fast`` (the
    registered entry, a process of its own): once the evaluator answered and the answer is
    written, the process ends with ``os._exit``: nothing is left to finish (the answer went out
    by ``os.write``, no file is open, no thread runs), and the interpreter's shutdown would
    cost more than the rest of the call (ADR 0039). A call judged here ends normally."""
    started = os.times().elapsed
    closed = hold_std_fds()
    raw, ended = read_stdin()
    impostor = ""
    try:
        answer = via_daemon(raw, event)
    except wire.Impostor as exc:
        answer, impostor = None, str(exc)
    except Exception:  # noqa: BLE001 - the fast path must never decide; judge here instead
        answer = None
    answered_there = answer is not None
    if answer is None:
        answer = judge_in_time(raw, event, impostor, started)
    code, out, err = answer
    if not ended:
        err += (
            b"orchestrator-boundary: stdin did not end (open after %d s, or unreadable); "
            % (STDIN_WAIT_S)
            + b"judged what came\n"
        )
    if impostor:
        err += b"orchestrator-boundary: not the evaluator on its socket (%s); judged here\n" % (
            impostor.encode("utf-8", "backslashreplace")
        )
    code = deliver(code, out, err, closed)
    if leave_fast and answered_there:
        for stream in (sys.stdout, sys.stderr):  # None when the descriptor was closed
            if stream is not None:  # empty: nothing here writes through them
                stream.flush()
        os._exit(code)
    return code


def pre_tool_use_main() -> int:
    return run("PreToolUse")


def post_tool_use_main() -> int:
    return run("PostToolUse")


EVENT_ARGS = {"pre": "PreToolUse", "post": "PostToolUse", **{e: e for e in wire.EVENTS}}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in EVENT_ARGS:
        sys.stderr.write("usage: client.py %s\n" % "|".join(wire.EVENTS))
        sys.exit(2)  # a misregistered hook blocks rather than failing open
    sys.exit(run(EVENT_ARGS[sys.argv[1]]))
