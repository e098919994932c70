"""Activation readiness: is this project's audit trail good enough for ``enforce``? ADR 0012.

Pure computation: ``compute(records, thresholds, today)`` takes already-parsed audit records
and returns a ``Report`` (numbers, per-day series, criteria, verdict, notes). Reading the trail
is ``report_trail`` (re-exported here); rendering lives in ``report_text``, ``report_html`` and
``Report.to_json``.

Counting is per call, not per line: a call's PreToolUse and PostToolUse lines share its
``tool_use_id``, so a bypassed call counts once, and a PreToolUse line whose ``tool_use_id`` was
already counted (the boundary registered twice) is a repeated record, not a second tool use.

Intended writes (``report_signals``) block READY: when the top violation is the orchestrator
keeping its own notes, ``enforce`` would deny that in every session, and a steady stream of
them can hide how the other violations move. The team decides first: allow the file (the
report suggests the exact ``write_allow`` line, and re-judges the recorded writes with the
current list, so the criterion turns green at once) or stop the writes and judge the trail
from then on (``--since``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from orchestrator_boundary.report_intents import IntentTally
from orchestrator_boundary.report_model import PRE, Criterion, Day, Report, Thresholds
from orchestrator_boundary.report_signals import (
    WRITE_CODES,
    FileWrites,
    WriteAllow,
    error_cause,
    intended_write,
    suggested_write_allow,
)
from orchestrator_boundary.report_trail import (  # re-exported: the report's public names
    Trail,
    iter_records,
    load_trail,
    parse_lines,
    parse_since,
    record_day,
)
from orchestrator_boundary.report_verdict import criteria, notes
from orchestrator_boundary.report_words import plural
from orchestrator_boundary.trail_chain import ChainCheck

__all__ = [
    "Criterion",
    "Day",
    "Report",
    "Thresholds",
    "Trail",
    "WriteAllow",
    "compute",
    "criteria",
    "iter_records",
    "load_trail",
    "parse_lines",
    "parse_since",
    "plural",
    "record_day",
    "slope",
]

# ---------------------------------------------------------------- the numbers


def slope(points: list[tuple[float, float]], weights: list[float] | None = None) -> float | None:
    """Least-squares slope of y over x, each point weighted (1 each when no weights are
    given); None with fewer than two distinct x of positive weight."""
    ws = [1.0] * len(points) if weights is None else weights
    pts = [(x, y, w) for (x, y), w in zip(points, ws, strict=True) if w > 0]
    if len({x for x, _, _ in pts}) < 2:
        return None
    total = sum(w for _, _, w in pts)
    mx = sum(w * x for x, _, w in pts) / total
    my = sum(w * y for _, y, w in pts) / total
    sxx = sum(w * (x - mx) ** 2 for x, _, w in pts)
    sxy = sum(w * (x - mx) * (y - my) for x, y, w in pts)
    return sxy / sxx


def _ranked(counter: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))


def _text(rec: Mapping[str, Any], key: str) -> str | None:
    value = rec.get(key)
    return value if isinstance(value, str) and value else None


@dataclass(slots=True)
class _Tally:
    """One pass over the records; ``finish`` writes what it gathered into the Report."""

    allow: WriteAllow
    sessions: set[str] = field(default_factory=set)
    bypass_sessions: set[str] = field(default_factory=set)
    days: set[date] = field(default_factory=set)
    uses_per_day: Counter[date] = field(default_factory=Counter)
    viol_per_day: Counter[date] = field(default_factory=Counter)
    by: dict[str, Counter[str]] = field(
        default_factory=lambda: {k: Counter() for k in ("tool", "file", "agent", "rule", "cause")}
    )
    counted: set[str] = field(default_factory=set)  # tool_use_ids of the tool uses counted
    bypassed: set[str] = field(default_factory=set)  # tool_use_ids of the bypassed calls
    bypassed_without_id: int = 0
    writes: dict[str, FileWrites] = field(default_factory=dict)  # main agent, per file

    def add(self, r: Report, rec: Mapping[str, Any], day: date) -> None:
        r.records += 1
        r.invocations += 1
        self.days.add(day)
        sid, call = _text(rec, "session_id"), _text(rec, "tool_use_id")
        pre = rec.get("event") == PRE
        if sid:
            self.sessions.add(sid)
        if rec.get("bypassed"):  # also a call let through unjudged under it (ADR 0079)
            self._bypass(sid, call, pre)
        if rec.get("error"):
            r.hook_errors += 1
            self.by["cause"][error_cause(rec["error"])] += 1
            return  # an error record judged nothing: it is not a tool use
        r.misses.add(rec)  # the field check's comparisons (PostToolUse lines; ADR 0029)
        if rec.get("agent_id"):
            r.calls_with_agent_id += 1
        if not pre:
            return
        if call is not None:
            if call in self.counted:
                r.repeated_records += 1
                return
            self.counted.add(call)
        self._tool_use(r, rec, day, sid)

    def _bypass(self, sid: str | None, call: str | None, pre: bool) -> None:
        """Per call: its PostToolUse line (same ``tool_use_id``) is the same bypass. Without an
        id, only the PreToolUse line counts (every call that ran had one)."""
        if sid:
            self.bypass_sessions.add(sid)
        if call is not None:
            self.bypassed.add(call)
        elif pre:
            self.bypassed_without_id += 1

    def _tool_use(self, r: Report, rec: Mapping[str, Any], day: date, sid: str | None) -> None:
        r.tool_uses += 1
        self.uses_per_day[day] += 1
        subagent = rec.get("session_kind") == "subagent"
        r.subagent_calls += subagent
        if rec.get("would_deny") is not True:
            return
        code, paths = str(rec.get("code") or "?"), [str(p) for p in rec.get("paths") or []]
        if not subagent and self.allow.allows(code, paths):
            r.allowed_by_config += 1
            return
        r.violations += 1
        self.viol_per_day[day] += 1
        self.by["tool"][str(rec.get("tool_name") or "?")] += 1
        self.by["agent"][
            str(rec.get("agent_type") or "subagent (no type)") if subagent else "main"
        ] += 1
        self.by["rule"][f"{code} ({rec.get('rule') or '?'})"] += 1
        for p in paths:
            self.by["file"][p] += 1
            if not subagent and code in WRITE_CODES:
                self.writes.setdefault(p, FileWrites()).add(sid, day)

    def finish(self, r: Report) -> None:
        r.sessions, r.sessions_with_bypass = len(self.sessions), len(self.bypass_sessions)
        r.bypassed_calls = len(self.bypassed) + self.bypassed_without_id
        if self.days:
            r.first, r.last = min(self.days), max(self.days)
            r.span_days = (r.last - r.first).days + 1
            r.distinct_days = len(self.days)
        r.by_tool, r.by_file = _ranked(self.by["tool"]), _ranked(self.by["file"])
        r.by_agent, r.by_rule = _ranked(self.by["agent"]), _ranked(self.by["rule"])
        r.by_cause = _ranked(self.by["cause"])
        days = sorted(self.uses_per_day)
        r.per_day = [Day(d, self.uses_per_day[d], self.viol_per_day[d]) for d in days]
        r.intended = intended_write(r.by_file, self.writes)
        if r.intended is not None:
            r.write_allow = suggested_write_allow(self.allow.patterns, r.intended.path)
        r.config_file = self.allow.config_file


def compute(
    records: Iterable[Mapping[str, Any]],
    thresholds: Thresholds,
    today: date,
    *,
    since: date | None = None,
    malformed: int = 0,
    allow: WriteAllow | None = None,
    intents: Mapping[str, str] | None = None,
    chain: ChainCheck | None = None,
) -> Report:
    """The readiness report over parsed audit records (any order). ``allow``: the current
    config's allow lists (recorded orchestrator writes they cover are not violations now);
    ``intents``: each configured intent's status, for the per-intent table; ``chain``: the
    check fed while ``records`` were read (ADR 0031)."""
    r = Report(today=today, thresholds=thresholds, malformed=malformed)
    tally = _Tally(allow or WriteAllow())
    per_intent = IntentTally()
    for rec in records:
        day = record_day(rec)
        if day is None:
            r.malformed += 1
        elif since is not None and day < since:
            r.skipped_before_since += 1
        else:
            tally.add(r, rec, day)
            per_intent.add(rec)
    tally.finish(r)
    r.intents = per_intent.rows(intents)
    r.chain = chain.result() if chain is not None else None
    _trend(r)
    r.criteria = criteria(r)
    r.notes = notes(r)
    return r


def _trend(r: Report) -> None:
    """Least-squares slope of the per-day violation rate over calendar days (gaps count),
    each day weighted by its tool uses: a day of one call is one call's evidence, so a single
    violation on a quiet day no longer reads as a rising trend (ADR 0064)."""
    if not r.per_day:
        return
    origin = r.per_day[0].day
    points = [(float((d.day - origin).days), d.rate) for d in r.per_day]
    r.slope = slope(points, [float(d.tool_uses) for d in r.per_day])
    half = len(r.per_day) // 2
    if half:
        first, second = r.per_day[:half], r.per_day[len(r.per_day) - half :]
        r.first_half_rate = sum(d.violations for d in first) / sum(d.tool_uses for d in first)
        r.second_half_rate = sum(d.violations for d in second) / sum(d.tool_uses for d in second)
