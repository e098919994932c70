"""The hook shell: raw payload -> Setup -> policy -> verdict -> one audit line -> the answer.

Nothing here decides; it gathers facts (``setups``), calls the core and maps the verdict to the
protocol. ``evaluate`` is what both routes run: the hook process itself (``client``) and the
resident evaluator (``daemon``). Its one guard turns any failure into a deliberate answer
(ADR 0004): in ``enforce``/``ask`` a call whose input cannot be understood is blocked with
exit 2 and a one-line reason on stderr; in ``warn``/``off`` it goes through and is recorded as
an error. Tracebacks never reach stdout.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

from orchestrator_boundary import audit, wire
from orchestrator_boundary.errors import (
    BoundaryInputError,
    PayloadError,
    PayloadTooDeep,
    ProjectGone,
)
from orchestrator_boundary.fs import sha256_of
from orchestrator_boundary.ledger import LIFECYCLE_EVENTS, ToolCall, lifecycle_call
from orchestrator_boundary.payload import TOOL_EVENTS, HookPayload, parse_payload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.policy import assess
from orchestrator_boundary.session import detect
from orchestrator_boundary.setups import Setup, setup
from orchestrator_boundary.setups import keep_compiled as keep_compiled  # for the client
from orchestrator_boundary.tools import ToolClass, classify, says_it_changes
from orchestrator_boundary.values import replace
from orchestrator_boundary.verdict import POST, PRE, HookAnswer, Verdict, decide, render
from orchestrator_boundary.violation import Assessment

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any

    from orchestrator_boundary.delegation import Ledger


def judge(payload: HookPayload, s: Setup, ledger: Ledger | None = None) -> Verdict:
    """The verdict for one parsed payload (shared by the hooks, ``check`` and ``replay``;
    only the hooks pass the ``ledger`` of delegation state, ADR 27)."""
    if payload.hook_event_name in TOOL_EVENTS:
        context = s.context if ledger is None else replace(s.context, ledger=ledger)
        assessment = assess(payload, s.rules, context)
    else:  # not a tool event: nothing to decide, but still recorded
        assessment = Assessment(detect(payload), payload.tool_name, classify(payload.tool_name))
    return decide(
        payload.hook_event_name,
        assessment,
        s.phase,
        s.phase_source,
        bypass=s.bypass,
        bypass_opens_protected=s.bypass and s.config.protect.bypass_opens,  # read with bypass
        config_note=f"config problem: {s.problem}; writes are blocked until it is fixed"
        if s.problem
        else "",
    )


def traces(payload: HookPayload, verdict: Verdict, root: str) -> list[dict[str, Any]]:
    """Content hashes of the files a successful write changed (PostToolUse)."""
    a = verdict.assessment
    if payload.hook_event_name != POST:
        return []
    if a.classification.tool_class is ToolClass.WRITE:
        paths = list(a.paths)
    elif a.bash is not None:
        paths = [e.resolved for e in a.bash.effects if e.resolved]
    elif a.classification.tool_class is ToolClass.UNKNOWN and says_it_changes(payload.tool_name):
        # an MCP write (ADR 0050); a tool whose name says it only reads changed nothing (0085)
        from orchestrator_boundary.ledger_files import named_paths

        named = named_paths(payload.tool_input, None, payload.cwd or "")
        paths = [p for p in named if os.path.isfile(p)]
    else:
        return []
    out = []
    for p in paths:
        if not p or p == "?":
            continue
        full = p if os.path.isabs(p) else os.path.join(root, p)
        rel = os.path.relpath(full, root) if full.startswith(root + os.sep) else full
        out.append({"path": rel, "sha256": sha256_of(full)})
    return out


def _cannot_judge(
    exc: BaseException, raw_len: int, environ: Mapping[str, str], event: str, root_hint: str
) -> tuple[HookAnswer, str | None, dict[str, Any]]:
    """A deliberate answer for input (or an internal state) the core cannot handle."""
    internal = not isinstance(exc, BoundaryInputError)
    message = f"internal error ({type(exc).__name__}: {exc})" if internal else str(exc)
    phase, audit_file = Phase.ENFORCE, None
    try:
        if isinstance(exc, ProjectGone):
            raise exc  # no config to read the phase from: the named phase, else enforce
        s = setup(root_hint or os.getcwd(), environ)
        phase, audit_file = s.phase, s.audit_file
    except Exception:  # noqa: BLE001 - even the setup failed: fail closed, unless the person
        # named a phase in the environment (the documented rollback), as client.cannot_load does
        named = environ.get(wire.PHASE_ENV, "").strip().lower()
        phase = Phase(named) if named in {p.value for p in Phase} else Phase.ENFORCE
    # only PreToolUse/PostToolUse block on a failure: on SubagentStop/Stop/SessionEnd it would
    # hold a stop (ADR 27), and PostToolUseFailure is only observed (ADR 0029)
    blocks = phase in (Phase.ENFORCE, Phase.ASK) and event in TOOL_EVENTS
    if isinstance(exc, PayloadTooDeep) and phase is not Phase.OFF and event == PRE:
        blocks = True  # what cannot be read could name a protected file: TAMPER's rule
    rec = audit.failure_record(event, phase, message, raw_len, blocks=blocks)
    if internal:
        import traceback  # only here: it costs a hook process as much as its decision

        rec["traceback"] = traceback.format_exc(limit=8)
    line = f"orchestrator-boundary: cannot judge this call: {message}"
    return HookAnswer(2 if blocks else 0, "", line[:2000] + "\n"), audit_file, rec


_OBSERVED_EVENTS = LIFECYCLE_EVENTS | {"PostToolUseFailure"}  # recorded, never judged


def _mismatched(got: str, registered: str) -> bool:
    """A tool hook's input names the other tool event, or an event Claude Code does not send
    (``pretooluse``, ``""``): it cannot be judged as the call it was registered for."""
    return got != registered and (got in TOOL_EVENTS or got not in _OBSERVED_EVENTS)


def evaluate(
    raw: bytes,
    environ: Mapping[str, str],
    *,
    event: str = PRE,
    clock: Callable[[], float] = time.time,
) -> HookAnswer:
    """One hook invocation, start to finish; never raises."""
    started = time.perf_counter()
    payload: HookPayload | None = None
    audit_file: str | None = None
    try:
        payload = parse_payload(raw)
        if event in TOOL_EVENTS and _mismatched(payload.hook_event_name, event):
            raise PayloadError(  # a tool hook that gets another event cannot judge the call
                f"the hook is registered for {event}, but the input is a "
                f"{payload.hook_event_name or 'nameless'} event"
            )
        gone = wire.project_gone(environ.get(wire.PROJECT_DIR_ENV) or payload.cwd)
        if gone:  # its config went with it: never judged as unconfigured (ADR 0063)
            raise ProjectGone(gone)
        s = setup(payload.cwd, environ)
        audit_file = s.audit_file
        if payload.hook_event_name in LIFECYCLE_EVENTS:
            verdict = judge(payload, s)
            out, extra = lifecycle_call(payload, s)
            answer = HookAnswer(0, out) if out else render(verdict)
            rec = {**audit.record(payload, verdict, ts=clock()), **extra}
        else:
            answer, rec = _tool_call(payload, s, clock, environ)
        max_bytes, keep = s.config.audit.max_bytes, s.config.audit.keep
    except Exception as exc:  # noqa: BLE001 - the one guard: every failure gets a verdict
        cwd = payload.cwd if payload is not None else ""
        answer, audit_file, rec = _cannot_judge(exc, len(raw), environ, event, cwd)
        if payload is not None:
            rec = {
                **audit.record(payload, None, ts=clock()),
                **rec,
                "event": payload.hook_event_name,
            }
        rec.setdefault("ts", audit.iso(clock()))
        max_bytes, keep = 0, 20
    rec["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
    audit.mark_impostor(rec, environ)  # the client judged it here: an impostor held the socket
    if rec.get("trace") is None:
        rec.pop("trace", None)
    return _with_audit(answer, audit_file, rec, max_bytes, keep)


def _tool_call(
    payload: HookPayload, s: Setup, clock: Callable[[], float], environ: Mapping[str, str]
) -> tuple[HookAnswer, dict[str, Any]]:
    """A tool event: the verdict with the delegation ledger, the state it leaves, the line."""
    ledger = ToolCall(payload, s)
    verdict = judge(payload, s, ledger.view)
    answer = render(verdict)
    trace = traces(payload, verdict, s.root) or None
    extra = ledger.done(verdict, trace)
    rec = audit.record(payload, verdict, ts=clock(), trace=trace)
    rec.update(extra)
    if s.phase is Phase.WARN and s.config.bash.field_check != "off":  # warn only (ADR 0029)
        import orchestrator_boundary.field_check as field_check  # snapshots: warn only

        rec.update(field_check.observe(payload, s, verdict, environ))
    return answer, rec


def _with_audit(
    answer: HookAnswer, audit_file: str | None, rec: dict[str, Any], max_bytes: int, keep: int
) -> HookAnswer:
    """The answer, after its audit line is written; a trail that cannot be written never
    costs the verdict: the line goes to stderr instead."""
    try:
        if audit_file is None:  # no root known: the hook's working folder (may be gone: guarded)
            audit_file = audit.trail_path(os.getcwd())
        audit.write(audit_file, rec, max_bytes=max_bytes, keep=keep)
    except Exception as exc:  # noqa: BLE001 - never lose the verdict over the trail
        import json

        lost = json.dumps(rec, default=str)
        note = f"orchestrator-boundary: audit trail not writable ({exc}); record: {lost}\n"
        return HookAnswer(answer.exit_code, answer.stdout, answer.stderr + note)
    return answer
