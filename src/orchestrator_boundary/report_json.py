"""The report as one JSON object (``report --json``): every number, criterion and note."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orchestrator_boundary.report_signals import write_allow_toml

if TYPE_CHECKING:
    from orchestrator_boundary.report import Report


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
        "criteria": [
            {"key": c.key, "label": c.label, "ok": c.ok, "value": c.value, "needed": c.needed}
            for c in r.criteria
        ],
        "notes": list(r.notes),
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
