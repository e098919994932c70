"""What the report's numbers mean: the criteria for ``enforce`` and the notes for the team.

Every note is a whole sentence, the same in the text, the JSON and the HTML form.
"""

from __future__ import annotations

from orchestrator_boundary.report_chain import chain_criteria, chain_notes
from orchestrator_boundary.report_model import Criterion, Report
from orchestrator_boundary.report_words import pct, plural, verb


def criteria(r: Report) -> list[Criterion]:
    t = r.thresholds
    return [
        Criterion(
            "days",
            "days of data",
            # days with records, not the span: two busy days a fortnight apart are two days
            # of data, and a quiet week between them shows nothing about enforce
            r.distinct_days >= t.min_days,
            f"{plural(r.distinct_days, 'day')} with records (over {plural(r.span_days, 'day')})",
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
            plural(r.subagent_calls, "call"),
            "> 0",
        ),
        Criterion(
            "hook_errors",
            "hook errors",
            r.hook_error_rate < t.max_hook_error_rate,
            f"{pct(r.hook_error_rate, 2)} ({plural(r.hook_errors, 'error')})",
            f"< {pct(t.max_hook_error_rate, 2)}",
        ),
        Criterion(
            "bypass",
            "sessions with bypass",
            r.bypass_session_share < t.max_bypass_session_share,
            f"{pct(r.bypass_session_share)} ({plural(r.sessions_with_bypass, 'session')})",
            f"< {pct(t.max_bypass_session_share)}",
        ),
        _trend(r),
        _intended(r),
        _misses(r),
        *chain_criteria(r),
    ]


def _trend(r: Report) -> Criterion:
    tolerance = r.thresholds.trend_tolerance
    ok = r.slope is not None and r.slope <= tolerance
    if r.slope is None:
        value = "unknown (tool uses on fewer than 2 days)"
    else:
        word = "falling" if r.slope < -tolerance else "stable" if ok else "rising"
        value = f"{word}, {r.slope * 100:+.2f} points a day"
    return Criterion(
        "trend",
        "violations falling or stable",
        ok,
        value,
        f"<= {tolerance * 100:+.2f} points a day",
    )


def _intended(r: Report) -> Criterion:
    """Intended writes block READY: enforce would deny them in every session (see report)."""
    value = r.intended.path if r.intended else "none"
    return Criterion(
        "intended_writes",
        "intended orchestrator writes",
        r.intended is None,
        value,
        "none (allow or stop them)",
    )


def _misses(r: Report) -> Criterion:
    """A read_only rating the field shows wrong: enforce would let that write through (ADR 29).
    Misses of ``writes`` ratings and of calls that overlapped others are shown, not counted."""
    m = r.misses
    if not m.compared:
        value = "not measured (no field comparisons in the trail)"
    else:
        value = f"{plural(m.read_only, 'read_only call')} changed files, "
        value += f"of {plural(m.compared, 'call')} compared"
        others = [f"{n} writes" for n in [m.by_label["writes"]] if n]
        others += [f"{m.overlapped_misses} overlapped"] if m.overlapped_misses else []
        value += f" (also {', '.join(others)})" if others else ""
    return Criterion("analysis_misses", "analysis misses", m.read_only == 0, value, "0 read_only")


def notes(r: Report) -> list[str]:
    """Whole sentences that tell the team what the numbers mean and what to do."""
    out: list[str] = []
    if not r.invocations:
        out.append(
            "The trail holds no hook calls yet: the hooks have not run in this project, or "
            "Claude Code was started in another folder. Run: orchestrator-boundary doctor"
        )
    if r.invocations and r.hook_errors == r.invocations:
        out.append(
            f"Every one of the trail's {plural(r.invocations, 'hook call')} is a hook error "
            "(see the causes above): the hooks run but judged nothing, so enforce would block "
            "every call. Run: orchestrator-boundary doctor"
        )
    elif r.invocations and not r.tool_uses:
        out.append(
            f"The trail holds {plural(r.invocations, 'hook call')} but no PreToolUse call: the "
            "hook that judges and blocks tool calls does not run in this project (its entry is "
            "missing, or its matcher matches no tool), so enforce would block nothing. Run: "
            "orchestrator-boundary doctor"
        )
    if r.tool_uses and not r.subagent_calls:
        out.append(
            "No call carried an agent_id, so enforce cannot tell the subagents from the main "
            "agent and would block their writes too."
        )
    out += _intended_note(r)
    out += _misses_note(r)
    if r.allowed_by_config:
        n = r.allowed_by_config
        out.append(
            f"{plural(n, 'recorded violation')} {verb(n, 'is', 'are')} allowed by the current "
            f"write_allow in {r.config_file}, so {verb(n, 'it is', 'they are')} not counted."
        )
    if r.repeated_records:
        n = r.repeated_records
        out.append(
            f"{plural(n, 'record')} {verb(n, 'repeats', 'repeat')} a call that was already "
            "counted, as happens when the boundary is registered twice (in the settings and as "
            "a plugin); each call is counted once."
        )
    out += chain_notes(r)
    return out


def _intended_note(r: Report) -> list[str]:
    if r.intended is None:
        return []
    w = r.intended
    sentences = [
        f"The top violation, {w.path}, looks like a file the orchestrator changes on purpose: "
        f"the main agent wrote it {plural(w.writes, 'time')} in {plural(w.sessions, 'session')}.",
        "Enforce would deny each of these writes, so the verdict stays NOT READY until the "
        "team decides.",
        f"If the writes are intended, put the lines below into {r.config_file} (merge them "
        "into an [orchestrator] table that is already there) and run the report again: the "
        "recorded writes are then judged by the new list.",
        "If they are not, have a subagent make these changes, and judge only the trail from "
        "then on with --since.",
    ]
    return [" ".join(sentences)]


def _misses_note(r: Report) -> list[str]:
    m = r.misses
    if not m.examples:
        return []
    shown = "; ".join(
        f"{e['command'] or '(command not recorded)'} ({e['label']}) changed "
        f"{', '.join(e['missed'])}" + (" and more" if e["missed_count"] > len(e["missed"]) else "")
        for e in m.examples
    )
    return [
        f"The Bash analysis missed what {plural(sum(m.by_label.values()), 'call')} changed: "
        f"{shown}. Enforce would let a write rated read_only through. Report the command so "
        "the analysis learns it, or add its program to bash.deny_commands; once that is done, "
        "judge the trail from then on with --since."
    ]
