"""The field check, shell side (issue 12 point 11, ADR 0029): in ``warn``, what a Bash or
PowerShell call really changed under the project root, set against what the analysis
predicted (``field.compare``), in the PostToolUse audit line as ``field``.

Where the changes come from (``[bash] field_check``):
- ``auto`` (default): Claude Code's own list (``bashEditDiff.changedFiles``) where it will
  send one (a Bash call, in a git repository, with ``CLAUDE_CODE_BASH_EDIT_DIFF``, the user or
  managed setting ``bashEditDiffEnabled``, or bypassPermissions mode); else a bounded snapshot
  of the tree at PreToolUse, compared with another at PostToolUse (``field_scan``).
- ``scan``: always the snapshots, joined with the CLI's list when it comes (its list leaves
  out ignored files and a ``touch`` that changed no content).
- ``off``: nothing.

A Bash command that exits non-zero ends with ``PostToolUseFailure`` instead of PostToolUse
(seen on 2.1.330; ``grep`` with no match is not a failure): where the hooks are registered for
that event too, it is compared the same way, and its window closed.

Nothing runs outside ``warn`` or with ``off``: ``observe`` returns before any file-system or
store access. Every call that may change files (write, execute and unknown tools) keeps its
window in the state store, so a change made while another call ran is marked ``overlapped``
(parallel subagents share the tree). A failure here never costs the verdict: it is recorded.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from orchestrator_boundary.bash.model import BashAnalysis
from orchestrator_boundary.delegation import Unavailable
from orchestrator_boundary.field_cli import diff_expected
from orchestrator_boundary.field_scan import Bounds, changes, decode, encode, scan
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.setups import Setup
from orchestrator_boundary.targets import touched
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.verdict import POST, PRE, Verdict

FAILED = "PostToolUseFailure"  # a Bash command that exited non-zero (2.1.330)
ENDS = frozenset({POST, FAILED})
COMPARED = frozenset({"Bash", "PowerShell"})  # the tools whose analysis is measured
TRACKED = frozenset({ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.UNKNOWN})  # may change files
CALL_TTL_S = 120.0  # a call without a ``timeout``: Bash's default
BACKGROUND_TTL_S = 30 * 60.0  # a background command: its end is never seen
SLACK_S = 5.0
MAX_TIMEOUT_S = 600.0
BOUNDS = Bounds()
MAX_TARGETS = 64  # effect targets also looked at in their resolved form
MAX_COMMAND_CHARS = 300


def observe(
    payload: HookPayload,
    s: Setup,
    verdict: Verdict,
    environ: Mapping[str, str],
    clock: Callable[[], float] = time.time,  # noqa: TID251 - the shell reads the clock
) -> dict[str, Any]:
    """The field check's audit fields for one tool event; {} when it does not run."""
    mode = s.config.bash.field_check
    if mode == "off" or s.phase is not Phase.WARN or s.problem is not None:
        return {}
    if verdict.assessment.classification.tool_class not in TRACKED or not payload.tool_use_id:
        return {}
    try:
        if payload.hook_event_name == PRE:
            return _before(payload, s, environ, clock, scan_always=mode == "scan")
        if payload.hook_event_name in ENDS:
            return _after(payload, s, verdict)
    except Exception as exc:  # noqa: BLE001 - the check never costs the verdict
        return {"field": {"error": f"{type(exc).__name__}: {exc}"[:300]}}
    return {}


def _background(payload: HookPayload) -> bool:
    return payload.tool_input.get("run_in_background") is True or payload.tool_name == "Monitor"


def _expires(payload: HookPayload, start: float) -> float:
    if _background(payload):
        return start + BACKGROUND_TTL_S
    ms = payload.tool_input.get("timeout")
    wait = min(ms / 1000, MAX_TIMEOUT_S) if isinstance(ms, int | float) and ms > 0 else CALL_TTL_S
    return start + wait + SLACK_S


def _before(
    payload: HookPayload,
    s: Setup,
    environ: Mapping[str, str],
    clock: Callable[[], float],
    *,
    scan_always: bool,
) -> dict[str, Any]:
    start, snap = clock(), None
    out: dict[str, Any] = {}
    if payload.tool_name in COMPARED and not _background(payload):
        if scan_always or not diff_expected(payload, s.root, environ):
            t0 = time.perf_counter()
            picture = scan(s.root, skip=skipper(s.audit_file), bounds=BOUNDS)
            snap = encode(picture)
            took = round((time.perf_counter() - t0) * 1000, 3)
            out = {"snapshot": len(picture.entries), "ms": took}
            if picture.partial:
                out["partial"] = picture.partial
        else:
            out = {"awaits": "bashEditDiff"}
    from orchestrator_boundary.field_store import field_store_for  # sqlite3: only when used

    store = field_store_for(s.audit_file)
    if not store.started(
        payload.session_id or "-", payload.tool_use_id, start, _expires(payload, start), snap
    ):
        out = {**out, "state": "unavailable"}
    return {"field": out} if out else {}


def _after(payload: HookPayload, s: Setup, verdict: Verdict) -> dict[str, Any]:
    # imported here: a call the field check does not follow (any in enforce) skips them
    from orchestrator_boundary.field import compare, edit_diff, prediction, relative
    from orchestrator_boundary.field_store import field_store_for

    store = field_store_for(s.audit_file)
    background = _background(payload)
    window = store.ended(payload.session_id or "-", payload.tool_use_id, still_running=background)
    if payload.tool_name not in COMPARED:
        return {}
    if background:
        return {"field": {"skipped": "background command: it runs on after this hook"}}
    if isinstance(window, Unavailable):
        return {"field": {"state": "unavailable"}}
    t0 = time.perf_counter()
    fold = s.context.fs.case_insensitive(s.root)
    skip = skipper(s.audit_file)
    changed: set[str] = set()
    sources: list[str] = []
    partial = False
    before = decode(window.snapshot) if window.snapshot is not None else None
    if before is not None:
        found, partial = changes(before, scan(s.root, skip=skip, bounds=BOUNDS, within=before))
        changed.update(found)
        sources.append("scan")
    diff = edit_diff(payload.tool_response)
    if diff is not None and not diff.unavailable:
        for path in diff.changed:
            rel = relative(path, s.root, fold=fold)
            if rel is not None and not skip(os.path.join(s.root, *rel.split("/"))):
                changed.add(rel)
        partial = partial or diff.truncated
        sources.append("bashEditDiff")
    changed -= _trail_folders(s.audit_file, s.root, fold)
    if not sources:
        why = (
            "Claude Code sent no bashEditDiff"
            if window.start is not None
            else "no PreToolUse record"
        )
        return {"field": {"source": "none", "note": why}}
    p = prediction(_analysis(payload, s, verdict))
    p = type(p)(p.label, _spellings(p.targets), p.unresolved)
    finding = compare(
        p,
        sorted(changed),
        s.root,
        fold=fold,
        source="+".join(sources),
        partial=partial,
        overlapped=window.overlapped,
    )
    extra: dict[str, Any] = {"ms": round((time.perf_counter() - t0) * 1000, 3)}
    command = payload.tool_input.get("command")
    if finding.missed and isinstance(command, str):
        extra["command"] = command[:MAX_COMMAND_CHARS]  # for the report's examples
    return {"field": finding.audit(**extra)}


def _analysis(payload: HookPayload, s: Setup, verdict: Verdict) -> BashAnalysis | None:
    """The analysis the verdict holds; for PostToolUseFailure (which is not judged), made."""
    if verdict.assessment.bash is not None or payload.hook_event_name != FAILED:
        return verdict.assessment.bash
    return touched(payload, s.rules, s.context).analysis


def _spellings(targets: tuple[str, ...]) -> tuple[str, ...]:
    """Each target as written and resolved (a symlinked working folder, /tmp on macOS)."""
    out = list(targets)
    for t in targets[:MAX_TARGETS]:
        real = os.path.realpath(t)  # noqa: TID251 - the shell resolves paths
        if real != t:
            out.append(real)
    return tuple(dict.fromkeys(out))


def _trail_folders(audit_file: str, root: str, fold: bool) -> set[str]:
    """The folders on the way to the trail: the hook makes them when they are missing."""
    from orchestrator_boundary.field import relative

    rel = relative(audit_file, root, fold=fold)
    parts = rel.split("/")[:-1] if rel else []
    return {"/".join(parts[: i + 1]) for i in range(len(parts))}


def skipper(audit_file: str) -> Callable[[str], bool]:
    """Leaves out the hook's own files: the trail, its rotations, its state file (all start
    with the trail's path), and its lock and spool files beside it."""
    folder, name = os.path.split(audit_file)
    prefixes = (audit_file, os.path.join(folder, f".{name}-"))
    return lambda path: path.startswith(prefixes)
