"""The readiness report's values (``Report``, its thresholds, days and criteria) and their
JSON form for programs (``--json``). ``report`` computes them; ``report_verdict`` judges them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from orchestrator_boundary.config import ReportConfig
from orchestrator_boundary.report_intents import IntentRow
from orchestrator_boundary.report_signals import AnalysisMisses, IntendedWrite, write_allow_toml
from orchestrator_boundary.trail_chain import ChainResult

if TYPE_CHECKING:
    from datetime import date  # annotations only: the core reads no clock

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
    repeated_records: int = 0  # PreToolUse lines of a call already counted
    first: date | None = None
    last: date | None = None
    span_days: int = 0
    distinct_days: int = 0
    invocations: int = 0
    tool_uses: int = 0
    sessions: int = 0
    violations: int = 0
    allowed_by_config: int = 0  # recorded violations the current write_allow now allows
    bypassed_calls: int = 0
    sessions_with_bypass: int = 0
    hook_errors: int = 0
    subagent_calls: int = 0
    calls_with_agent_id: int = 0
    by_tool: list[tuple[str, int]] = field(default_factory=list)
    by_file: list[tuple[str, int]] = field(default_factory=list)
    by_agent: list[tuple[str, int]] = field(default_factory=list)
    by_rule: list[tuple[str, int]] = field(default_factory=list)
    by_cause: list[tuple[str, int]] = field(default_factory=list)  # hook errors
    per_day: list[Day] = field(default_factory=list)
    slope: float | None = None  # violation rate change per day (least squares)
    first_half_rate: float | None = None
    second_half_rate: float | None = None
    intended: IntendedWrite | None = None  # the top violation, when it looks intended
    write_allow: list[str] = field(default_factory=list)  # suggested list; empty: none
    config_file: str = ""
    intents: list[IntentRow] = field(default_factory=list)  # per intent; empty: none (ADR 27)
    criteria: list[Criterion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # sentences for the team
    misses: AnalysisMisses = field(default_factory=AnalysisMisses)  # the field check (ADR 29)
    chain: ChainResult | None = None  # the trail's hash chain, checked (ADR 0031)

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
        """Every number, criterion and note, for programs (``--json``)."""
        return report_json(self)


@dataclass(frozen=True, slots=True)
class Criterion:
    key: str
    label: str
    ok: bool
    value: str  # what the trail shows, human-readable
    needed: str  # what enforce needs


def report_json(r: Report) -> dict[str, Any]:
    return {
        "verdict": r.verdict,
        "ready": r.ready,
        "today": r.today.isoformat(),
        "thresholds": _thresholds(r),
        "records": r.records,
        "malformed_lines": r.malformed,
        "skipped_before_since": r.skipped_before_since,
        "repeated_records": r.repeated_records,
        "first_day": r.first.isoformat() if r.first else None,
        "last_day": r.last.isoformat() if r.last else None,
        "span_days": r.span_days,
        "distinct_days": r.distinct_days,
        **_counts(r),
        "violations_by_tool": dict(r.by_tool),
        "violations_by_file": dict(r.by_file),
        "violations_by_agent": dict(r.by_agent),
        "violations_by_rule": dict(r.by_rule),
        "hook_errors_by_cause": dict(r.by_cause),
        "per_day": [
            {
                "day": d.day.isoformat(),
                "tool_uses": d.tool_uses,
                "violations": d.violations,
                "rate": d.rate,
            }
            for d in r.per_day
        ],
        "trend": {
            "slope_per_day": r.slope,
            "first_half_rate": r.first_half_rate,
            "second_half_rate": r.second_half_rate,
        },
        "intended_write": _intended(r),
        "write_allow_suggestion": _suggestion(r),
        "intents": [row.to_json() for row in r.intents],
        "analysis_misses": r.misses.to_json(),
        "criteria": [
            {"key": c.key, "label": c.label, "ok": c.ok, "value": c.value, "needed": c.needed}
            for c in r.criteria
        ],
        "notes": list(r.notes),
        "trail_chain": r.chain.to_json() if r.chain is not None else None,
    }


def _thresholds(r: Report) -> dict[str, Any]:
    t = r.thresholds
    return {
        "min_days": t.min_days,
        "min_tool_uses": t.min_tool_uses,
        "max_hook_error_rate": t.max_hook_error_rate,
        "max_bypass_session_share": t.max_bypass_session_share,
        "trend_tolerance": t.trend_tolerance,
    }


def _counts(r: Report) -> dict[str, Any]:
    return {
        "invocations": r.invocations,
        "tool_uses": r.tool_uses,
        "sessions": r.sessions,
        "violations": r.violations,
        "violations_allowed_by_config": r.allowed_by_config,
        "violation_rate": r.violation_rate,
        "violations_per_session": r.violations_per_session,
        "bypassed_calls": r.bypassed_calls,
        "sessions_with_bypass": r.sessions_with_bypass,
        "bypass_session_share": r.bypass_session_share,
        "hook_errors": r.hook_errors,
        "hook_error_rate": r.hook_error_rate,
        "subagent_calls": r.subagent_calls,
        "calls_with_agent_id": r.calls_with_agent_id,
    }


def _intended(r: Report) -> dict[str, Any] | None:
    w = r.intended
    if w is None:
        return None
    return {"path": w.path, "writes": w.writes, "sessions": w.sessions, "days": w.days}


def _suggestion(r: Report) -> dict[str, Any] | None:
    """The ``write_allow`` the report suggests, with the TOML to paste; None when none."""
    if not r.write_allow:
        return None
    return {
        "file": r.config_file,
        "write_allow": list(r.write_allow),
        "toml": write_allow_toml(r.write_allow),
    }
