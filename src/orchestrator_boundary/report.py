"""Activation readiness: is this project's audit trail good enough for ``enforce``? ADR 0012.

Pure computation: ``compute(records, thresholds, today)`` takes already-parsed audit records
and returns a ``Report`` (numbers, per-day series, criteria, verdict). Reading the trail is
``load_trail`` (malformed lines are counted, never fatal); rendering lives in ``cmd_report``
(text, JSON) and ``report_html`` (one self-contained page).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from orchestrator_boundary.config import ReportConfig
from orchestrator_boundary.progress import Progress

PRE = "PreToolUse"
DEFAULT_TREND_TOLERANCE = 0.005  # per day, in violation rate (0..1): half a point a day


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_days: int = 14
    min_tool_uses: int = 50
    max_hook_error_rate: float = 0.01
    max_bypass_session_share: float = 0.10
    trend_tolerance: float = DEFAULT_TREND_TOLERANCE

    @classmethod
    def from_config(cls, rc: ReportConfig, **overrides: Any) -> Thresholds:
        base: dict[str, Any] = {
            "min_days": rc.min_days,
            "min_tool_uses": rc.min_tool_uses,
            "max_hook_error_rate": rc.max_hook_error_rate,
            "max_bypass_session_share": rc.max_bypass_session_share,
        }
        base.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**base)


@dataclass(frozen=True, slots=True)
class Criterion:
    key: str
    label: str
    ok: bool
    value: str  # what the trail shows, human-readable
    needed: str  # what enforce needs


@dataclass(frozen=True, slots=True)
class Day:
    day: date
    tool_uses: int
    violations: int

    @property
    def rate(self) -> float:
        return self.violations / self.tool_uses if self.tool_uses else 0.0


@dataclass(slots=True)
class Report:
    today: date
    thresholds: Thresholds
    records: int = 0
    malformed: int = 0
    skipped_before_since: int = 0
    first: date | None = None
    last: date | None = None
    span_days: int = 0
    distinct_days: int = 0
    invocations: int = 0
    tool_uses: int = 0
    sessions: int = 0
    violations: int = 0
    bypassed_calls: int = 0
    sessions_with_bypass: int = 0
    hook_errors: int = 0
    subagent_calls: int = 0
    calls_with_agent_id: int = 0
    by_tool: list[tuple[str, int]] = field(default_factory=list)
    by_file: list[tuple[str, int]] = field(default_factory=list)
    by_agent: list[tuple[str, int]] = field(default_factory=list)
    by_rule: list[tuple[str, int]] = field(default_factory=list)
    per_day: list[Day] = field(default_factory=list)
    slope: float | None = None  # violation rate change per day (least squares)
    first_half_rate: float | None = None
    second_half_rate: float | None = None
    criteria: list[Criterion] = field(default_factory=list)

    @property
    def violations_per_session(self) -> float:
        return self.violations / self.sessions if self.sessions else 0.0

    @property
    def violation_rate(self) -> float:
        return self.violations / self.tool_uses if self.tool_uses else 0.0

    @property
    def hook_error_rate(self) -> float:
        return self.hook_errors / self.invocations if self.invocations else 0.0

    @property
    def bypass_session_share(self) -> float:
        return self.sessions_with_bypass / self.sessions if self.sessions else 0.0

    @property
    def ready(self) -> bool:
        return bool(self.criteria) and all(c.ok for c in self.criteria)

    @property
    def verdict(self) -> str:
        return "READY" if self.ready else "NOT READY"

    def to_json(self) -> dict[str, Any]:
        """Every number and criterion, for programs (``--json``)."""
        t = self.thresholds
        return {
            "verdict": self.verdict,
            "ready": self.ready,
            "today": self.today.isoformat(),
            "thresholds": {
                "min_days": t.min_days,
                "min_tool_uses": t.min_tool_uses,
                "max_hook_error_rate": t.max_hook_error_rate,
                "max_bypass_session_share": t.max_bypass_session_share,
                "trend_tolerance": t.trend_tolerance,
            },
            "records": self.records,
            "malformed_lines": self.malformed,
            "skipped_before_since": self.skipped_before_since,
            "first_day": self.first.isoformat() if self.first else None,
            "last_day": self.last.isoformat() if self.last else None,
            "span_days": self.span_days,
            "distinct_days": self.distinct_days,
            "invocations": self.invocations,
            "tool_uses": self.tool_uses,
            "sessions": self.sessions,
            "violations": self.violations,
            "violation_rate": self.violation_rate,
            "violations_per_session": self.violations_per_session,
            "violations_by_tool": dict(self.by_tool),
            "violations_by_file": dict(self.by_file),
            "violations_by_agent": dict(self.by_agent),
            "violations_by_rule": dict(self.by_rule),
            "bypassed_calls": self.bypassed_calls,
            "sessions_with_bypass": self.sessions_with_bypass,
            "bypass_session_share": self.bypass_session_share,
            "hook_errors": self.hook_errors,
            "hook_error_rate": self.hook_error_rate,
            "subagent_calls": self.subagent_calls,
            "calls_with_agent_id": self.calls_with_agent_id,
            "per_day": [
                {
                    "day": d.day.isoformat(),
                    "tool_uses": d.tool_uses,
                    "violations": d.violations,
                    "rate": d.rate,
                }
                for d in self.per_day
            ],
            "trend": {
                "slope_per_day": self.slope,
                "first_half_rate": self.first_half_rate,
                "second_half_rate": self.second_half_rate,
            },
            "criteria": [
                {"key": c.key, "label": c.label, "ok": c.ok, "value": c.value, "needed": c.needed}
                for c in self.criteria
            ],
        }


# ---------------------------------------------------------------- reading the trail


@dataclass(frozen=True, slots=True)
class Trail:
    records: list[dict[str, Any]]
    malformed: int
    files: list[str]


def record_day(rec: Mapping[str, Any]) -> date | None:
    """The UTC day of a record's ``ts``; None when it has no usable timestamp."""
    ts = rec.get("ts")
    if not isinstance(ts, str):
        return None
    try:
        return datetime.fromisoformat(ts).date()
    except ValueError:
        return None


def parse_lines(
    lines: Iterable[str], progress: Progress | None = None
) -> Iterator[dict[str, Any] | None]:
    """Each non-blank line as a record, or None when it is not a usable audit record."""
    for line in lines:
        if progress is not None:
            progress.advance()
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            yield None
            continue
        yield rec if isinstance(rec, dict) and record_day(rec) is not None else None


def iter_records(files: list[str], progress: Progress | None = None) -> Iterator[dict[str, Any]]:
    """Every line of the trail files in order, streamed: a record, or ``{}`` for a malformed
    line (which ``compute`` counts as malformed), so a large trail is never held in memory."""
    for name in files:
        with open(name, encoding="utf-8", errors="replace") as fh:
            for rec in parse_lines(fh, progress):
                yield {} if rec is None else rec


def load_trail(files: list[str], progress: Progress | None = None) -> Trail:
    """All records of the given trail files (oldest first); bad lines are counted."""
    records: list[dict[str, Any]] = []
    malformed = 0
    for name in files:
        with open(name, encoding="utf-8", errors="replace") as fh:
            for rec in parse_lines(fh, progress):
                if rec is None:
                    malformed += 1
                else:
                    records.append(rec)
    return Trail(records, malformed, list(files))


def parse_since(text: str, today: date) -> date:
    """``YYYY-MM-DD`` or ``Nd`` (N days before today)."""
    text = text.strip()
    if text.endswith("d") and text[:-1].isdigit():
        return today - timedelta(days=int(text[:-1]))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since {text!r}: expected YYYY-MM-DD or a number of days like 30d"
        ) from None


# ---------------------------------------------------------------- the numbers


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of y over x; None with fewer than two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    return sxy / sxx


def _ranked(counter: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))


def _pct(x: float) -> str:
    return f"{x * 100:.1f} %"


def _agent_label(rec: Mapping[str, Any]) -> str:
    if rec.get("session_kind") == "subagent":
        return str(rec.get("agent_type") or "subagent (no type)")
    return "main"


def compute(
    records: Iterable[Mapping[str, Any]],
    thresholds: Thresholds,
    today: date,
    *,
    since: date | None = None,
    malformed: int = 0,
) -> Report:
    """The readiness report over parsed audit records (any order)."""
    r = Report(today=today, thresholds=thresholds, malformed=malformed)
    sessions: set[str] = set()
    bypass_sessions: set[str] = set()
    days: set[date] = set()
    uses_per_day: Counter[date] = Counter()
    viol_per_day: Counter[date] = Counter()
    by_tool: Counter[str] = Counter()
    by_file: Counter[str] = Counter()
    by_agent: Counter[str] = Counter()
    by_rule: Counter[str] = Counter()
    for rec in records:
        day = record_day(rec)
        if day is None:
            r.malformed += 1
            continue
        if since is not None and day < since:
            r.skipped_before_since += 1
            continue
        r.records += 1
        r.invocations += 1
        days.add(day)
        sid = rec.get("session_id")
        if isinstance(sid, str) and sid:
            sessions.add(sid)
        if rec.get("error"):
            r.hook_errors += 1
            continue  # an error record judged nothing: it is not a tool use
        if rec.get("bypassed"):
            r.bypassed_calls += 1
            if isinstance(sid, str) and sid:
                bypass_sessions.add(sid)
        if rec.get("agent_id"):
            r.calls_with_agent_id += 1
        if rec.get("event") != PRE:
            continue
        r.tool_uses += 1
        uses_per_day[day] += 1
        if rec.get("session_kind") == "subagent":
            r.subagent_calls += 1
        if rec.get("would_deny") is True:
            r.violations += 1
            viol_per_day[day] += 1
            by_tool[str(rec.get("tool_name") or "?")] += 1
            by_agent[_agent_label(rec)] += 1
            code, rule = rec.get("code") or "?", rec.get("rule") or "?"
            by_rule[f"{code} ({rule})"] += 1
            for p in rec.get("paths") or []:
                by_file[str(p)] += 1
    r.sessions, r.sessions_with_bypass = len(sessions), len(bypass_sessions)
    if days:
        r.first, r.last = min(days), max(days)
        r.span_days = (r.last - r.first).days + 1
        r.distinct_days = len(days)
    r.by_tool, r.by_file = _ranked(by_tool), _ranked(by_file)
    r.by_agent, r.by_rule = _ranked(by_agent), _ranked(by_rule)
    r.per_day = [Day(d, uses_per_day[d], viol_per_day[d]) for d in sorted(uses_per_day)]
    _trend(r)
    r.criteria = criteria(r)
    return r


def _trend(r: Report) -> None:
    """Least-squares slope of the per-day violation rate over calendar days (gaps count)."""
    if not r.per_day:
        return
    origin = r.per_day[0].day
    r.slope = slope([((d.day - origin).days, d.rate) for d in r.per_day])
    half = len(r.per_day) // 2
    if half:
        first, second = r.per_day[:half], r.per_day[len(r.per_day) - half :]
        r.first_half_rate = sum(d.violations for d in first) / sum(d.tool_uses for d in first)
        r.second_half_rate = sum(d.violations for d in second) / sum(d.tool_uses for d in second)


def criteria(r: Report) -> list[Criterion]:
    t = r.thresholds
    trend_ok = r.slope is not None and r.slope <= t.trend_tolerance
    if r.slope is None:
        trend_value = "unknown (needs tool uses on 2+ days)"
    else:
        word = "falling" if r.slope < -t.trend_tolerance else "stable" if trend_ok else "rising"
        trend_value = f"{word}, {r.slope * 100:+.2f} points/day"
    return [
        Criterion(
            "days",
            "days of data",
            r.span_days >= t.min_days,
            f"{r.span_days} days ({r.distinct_days} with records)",
            f">= {t.min_days}",
        ),
        Criterion(
            "tool_uses",
            "tool uses",
            r.tool_uses >= t.min_tool_uses,
            str(r.tool_uses),
            f">= {t.min_tool_uses}",
        ),
        Criterion(
            "subagents",
            "subagent calls detected",
            r.subagent_calls > 0,
            f"{r.subagent_calls} calls",
            "> 0",
        ),
        Criterion(
            "hook_errors",
            "hook errors",
            r.hook_error_rate < t.max_hook_error_rate,
            f"{_pct(r.hook_error_rate)} ({r.hook_errors})",
            f"< {_pct(t.max_hook_error_rate)}",
        ),
        Criterion(
            "bypass",
            "sessions with bypass",
            r.bypass_session_share < t.max_bypass_session_share,
            f"{_pct(r.bypass_session_share)} ({r.sessions_with_bypass})",
            f"< {_pct(t.max_bypass_session_share)}",
        ),
        Criterion(
            "trend",
            "violations falling or stable",
            trend_ok,
            trend_value,
            f"slope <= {t.trend_tolerance * 100:+.2f}",
        ),
    ]
