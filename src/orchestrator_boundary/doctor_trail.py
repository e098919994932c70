"""``doctor``'s checks that nothing fooled the guard: the audit trail's hash chain (ADR 0031)
and the process on the evaluator's socket (ADR 0026), live and as the trail recorded it."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache

from orchestrator_boundary import audit, peer, report_trail, wire
from orchestrator_boundary.doctor_context import FAIL, OK, WARN, Check, Context
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.setups import setup
from orchestrator_boundary.trail_chain import ChainResult

SHOWN = 3  # places named in the message
_IMPOSTOR_KEY = '"evaluator_impostor"'
_UNJUDGED_KEY = '"unjudged": true'  # a call answered without the policy (ADR 0079)


@dataclass(frozen=True)
class Scan:
    """One pass over a trail: its chain, and the lines that record an impostor."""

    chain: ChainResult
    impostors: int
    latest: tuple[str, str] | None  # (ts, reason) of the last line that recorded one
    unjudged: int = 0  # calls answered while the policy could not load
    broken: tuple[str, str] | None = None  # (ts, error) of the last, when no judged line follows


def _trail(ctx: Context) -> tuple[str, int]:
    s = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root})
    return s.audit_file, s.config.audit.keep


def scan(path: str, keep: int) -> Scan | None:
    """The trail at ``path`` read once (None when there is none); cached while it is unchanged,
    since two checks read it."""
    files = audit.trail_files(path)
    if not files:
        return None
    stamp = []
    for name in files:
        st = os.stat(name)
        stamp.append((name, st.st_size, st.st_mtime_ns))
    return _scan(path, keep, tuple(stamp))


@lru_cache(maxsize=2)
def _scan(path: str, keep: int, stamp: tuple[tuple[str, int, int], ...]) -> Scan:
    files = [name for name, _, _ in stamp]
    check = report_trail.chain_check(path, files, keep)
    count, latest, unjudged, broken = 0, None, 0, None
    for name in files:
        for line in report_trail.read_lines(name, check):
            if _UNJUDGED_KEY in line:
                unjudged, broken = unjudged + 1, _ts_error(line)
            elif broken is not None and line.strip():
                broken = None  # a judged line came after it: the installation worked again
            if _IMPOSTOR_KEY not in line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("evaluator_impostor"):
                count += 1
                latest = (str(rec.get("ts") or "?"), str(rec["evaluator_impostor"]))
    return Scan(check.result(), count, latest, unjudged, broken)


def _ts_error(line: str) -> tuple[str, str]:
    try:
        rec = json.loads(line)
    except ValueError:
        return "?", "?"
    return (
        (str(rec.get("ts") or "?"), str(rec.get("error") or "?"))
        if isinstance(rec, dict)
        else ("?", "?")
    )


def _or_broken(check: Check, found: Scan) -> Check:
    """``check``, or a warning when the trail's last calls were answered without the policy:
    the installation cannot load it (a missing dependency, a half-finished upgrade)."""
    if found.broken is None or check.status != OK:
        return check
    ts, error = found.broken
    return Check(
        "trail",
        WARN,
        f"{check.message}; the latest calls were answered without the policy "
        f"({found.unjudged} in all, the last at {ts}: {error})",
        "reinstall the package (pip install --force-reinstall orchestrator-boundary, or from "
        "your clone), then run: orchestrator-boundary doctor",
    )


def check_trail(ctx: Context) -> Check:
    """The audit trail is as it was written: no line removed, reordered or changed."""
    try:
        path, keep = _trail(ctx)
        found = scan(path, keep)
    except (BoundaryInputError, OSError) as exc:
        return Check("trail", FAIL, f"the audit trail cannot be read: {exc}", "")
    if found is None:
        head = audit.read_head(path)
        if head is not None and head.seq > 0:  # deleted after lines were written
            return Check(
                "trail",
                FAIL,
                f"no audit trail at {path}, but its head record says {head.seq} lines were written",
                "find out who removed it; restore it from a backup if there is one",
            )
        return Check("trail", OK, f"no audit trail yet at {path}")
    c = found.chain
    if not c.chained and c.intact:
        return _or_broken(
            Check(
                "trail",
                OK,
                f"{path}: {c.lines} lines, none chained yet (written before the chain: the "
                "next line starts it)",
            ),
            found,
        )
    start = f"; the chain starts at {c.start} ({c.before_start} older lines unchecked)"
    start = start if c.before_start else ""
    if c.intact and c.head_missing:
        return Check(
            "trail",
            WARN,
            f"{path}: {c.summary()}{start}",
            f"find out who removed {os.path.basename(audit.head_path(path))}; the next line "
            "starts a new chain",
        )
    if c.intact:
        return _or_broken(Check("trail", OK, f"{path}: {c.summary()}{start}"), found)
    places = "; ".join(str(f) for f in c.findings[:SHOWN])
    more = f" (+{c.problems - SHOWN} more)" if c.problems > SHOWN else ""
    return Check(
        "trail",
        FAIL,
        f"{path} is not as it was written: {c.summary()}: {places}{more}{start}",
        "find out who changed the trail (only a person should reach its folder); to start a "
        f"new trail, move {os.path.basename(path)}* and {os.path.basename(audit.head_path(path))} "
        "aside",
    )


_PID = re.compile(r"\bpid (\d+)")  # the listener, and a reply's writer if it is another


def live_impostor(root: str, environ: dict[str, str]) -> tuple[str, str | None]:
    """(the evaluator's socket for ``root``, what answers there): None when nothing does, ""
    for our own evaluator, else why the listener, or the writer of its reply to a ping, is not
    it. Nothing is sent to a listener that fails."""
    env = {os.fsencode(k): os.fsencode(v) for k, v in environ.items()}
    path = wire.socket_path(root, env)
    if not os.path.exists(path):
        return path, None
    try:
        peer.exchange(path, root, [wire.version_tag(), wire.PING], 1.0)
    except peer.Impostor as exc:
        return path, str(exc)
    except (FileNotFoundError, ConnectionRefusedError):
        return path, None  # nothing listens (a stale socket file): the next hook starts one
    except (OSError, ValueError):
        pass  # busy or slow: the listener was verified, and every hook checks its replies
    return path, ""


def check_impostor(ctx: Context) -> Check:
    """No process but our own evaluator answers on its socket, now or in the trail's memory."""
    past = ""
    try:
        found = scan(*_trail(ctx))
    except (BoundaryInputError, OSError):
        found = None
    if found is not None and found.impostors and found.latest:
        ts, reason = found.latest
        past = (
            f"{found.impostors} recorded call(s) found an impostor on the evaluator's socket "
            f"and were judged in process, the latest at {ts} ({reason})"
        )
    if not hasattr(os, "fork") or not peer.can_verify():
        note = "the evaluator's peer cannot be verified here: every call is judged in process"
        return Check("impostor", WARN if past else OK, f"{note}; {past}" if past else note)
    path, live = live_impostor(ctx.root, dict(ctx.environ))
    if live:
        reason = live
        pids = " ".join(dict.fromkeys(_PID.findall(reason)))
        end = f"end it (kill {pids}) and remove {path}" if pids else f"remove {path}"
        return Check(
            "impostor",
            FAIL,
            f"{path} is held by a process that is not the evaluator ({reason}): every call "
            "is judged in process, and no evaluator starts while it is there"
            + (f"; {past}" if past else ""),
            f"find out which agent started it; {end}",
        )
    if past:
        return Check(
            "impostor",
            WARN,
            past + "; none holds the socket now",
            "find out which agent started it (the trail's lines name the process)",
        )
    now = "no evaluator listens on" if live is None else "our own evaluator (verified) holds"
    return Check("impostor", OK, f"{now} {path}; no impostor recorded in the trail")
