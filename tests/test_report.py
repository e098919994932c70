"""The readiness report over trails written by the real hook shell (see report_trails.py)."""

from __future__ import annotations

import io
import json
from datetime import date

import pytest
from report_trails import TODAY, TrailBuilder, build

from orchestrator_boundary import audit
from orchestrator_boundary.config import ReportConfig
from orchestrator_boundary.progress import Progress
from orchestrator_boundary.report import Thresholds, compute, load_trail, parse_since, slope
from orchestrator_boundary.report_words import plural


def report_of(b, **kw):
    trail = load_trail(audit.trail_files(str(b.audit)))
    return compute(
        trail.records, kw.pop("thresholds", Thresholds()), TODAY, malformed=trail.malformed, **kw
    )


def red(rep) -> set[str]:
    return {c.key for c in rep.criteria if not c.ok}


@pytest.fixture(scope="module")
def ready_trail(tmp_path_factory):
    return build(tmp_path_factory.mktemp("ready") / "proj")


def test_ready_trail_is_ready_with_the_numbers(ready_trail):
    rep = report_of(ready_trail)
    assert red(rep) == set()
    assert rep.ready and rep.verdict == "READY"
    assert rep.span_days == 20 and rep.distinct_days == 20
    assert rep.sessions == 20
    assert rep.invocations == ready_trail.calls  # one audit line per hook call
    # per session: 2 Read + Grep + Agent + subagent Edit (Pre) = 5, plus the main's writes
    assert rep.tool_uses == 20 * 5 + rep.violations
    assert rep.violations == sum(max(0, 3 - d // 4) for d in range(20))
    assert rep.subagent_calls == 20 and rep.calls_with_agent_id == 40  # Pre + Post
    assert rep.hook_errors == 0 and rep.bypassed_calls == 0
    assert dict(rep.by_tool) == {"Write": 16, "Edit": 8}
    assert dict(rep.by_agent) == {"main": 24}
    assert dict(rep.by_file) == {"src/hotfix.py": 16, "README.md": 8}
    assert dict(rep.by_rule) == {"ORCHESTRATOR_WRITE (orchestrator.write_allow)": 24}
    assert rep.slope is not None and rep.slope < 0
    assert rep.first_half_rate > rep.second_half_rate
    assert rep.violations_per_session == pytest.approx(24 / 20)


@pytest.mark.parametrize(
    ("name", "kwargs", "flag"),
    [
        ("too few days", {"days": 8, "sessions_per_day": 2, "writes": lambda d: 1}, "days"),
        ("too few uses", {"days": 16, "reads": 0, "writes": lambda d: 0}, "tool_uses"),
        ("no subagent calls", {"agent_id": False}, "subagents"),
        ("hook errors", {"bad_inputs": 2}, "hook_errors"),
        ("bypass", {"bypass_sessions": 2}, "bypass"),
        ("rising violations", {"writes": lambda d: d // 5}, "trend"),
    ],
)
def test_each_red_flag_alone_makes_it_not_ready(tmp_path, name, kwargs, flag):
    rep = report_of(build(tmp_path / "proj", **kwargs))
    assert red(rep) == {flag}, (name, [(c.key, c.value) for c in rep.criteria])
    assert not rep.ready and rep.verdict == "NOT READY"


def test_error_share_counts_every_invocation(tmp_path):
    rep = report_of(build(tmp_path / "proj", bad_inputs=2))
    assert rep.hook_errors == 2
    assert rep.hook_error_rate == pytest.approx(2 / rep.invocations)
    assert rep.hook_error_rate >= 0.01
    # error records judged nothing: they are not tool uses and open no session
    assert rep.sessions == 20


def test_bypass_share_is_per_session(tmp_path):
    rep = report_of(build(tmp_path / "proj", bypass_sessions=2))
    assert rep.sessions_with_bypass == 2
    assert rep.bypass_session_share == pytest.approx(0.10)
    assert rep.bypassed_calls == sum(max(0, 3 - d // 4) for d in range(2))
    # the bypassed violations still count as violations (they would be denied in enforce)
    assert rep.violations == 24
    lines = [json.loads(x) for x in ready_lines(tmp_path / "proj")]
    assert sum(1 for x in lines if x.get("bypassed")) == 2 * rep.bypassed_calls  # Pre + Post
    ok = report_of(build(tmp_path / "proj2", bypass_sessions=1))
    assert "bypass" not in red(ok)


def ready_lines(root):
    return (root / ".claude" / "boundary" / "audit.jsonl").read_text().splitlines()


def test_empty_trail_has_no_intended_writes_and_says_where_to_look():
    rep = compute([], Thresholds(), TODAY)
    assert rep.intended is None and rep.write_allow == []
    assert rep.notes == [
        "The trail holds no hook calls yet: the hooks have not run in this project, or Claude "
        "Code was started in another folder. Run: orchestrator-boundary doctor"
    ]


def test_no_agent_id_means_subagent_writes_look_like_the_main_agents(tmp_path):
    rep = report_of(build(tmp_path / "proj", agent_id=False))
    assert rep.subagent_calls == 0 and rep.calls_with_agent_id == 0
    assert rep.violations == 24 + 20  # every delegated edit now counts against the main agent


def test_rotated_files_are_all_read(tmp_path):
    b = build(tmp_path / "proj", config="[audit]\nmax_bytes = 6000\nkeep = 50\n")
    files = audit.trail_files(str(b.audit))
    assert len(files) > 3
    rep = report_of(b)
    assert rep.invocations == b.calls
    assert rep.ready


def test_malformed_lines_are_counted_not_fatal(ready_trail, tmp_path):
    b = build(tmp_path / "proj")
    b.garbage(["{truncated", "[1, 2]", '{"no": "ts"}', '{"ts": "yesterday"}', "", "  "])
    rep = report_of(b)
    assert rep.malformed == 4
    assert rep.invocations == b.calls and rep.ready


def test_since_drops_older_records(ready_trail):
    rep = report_of(ready_trail, since=date(2026, 3, 12))
    assert rep.first == date(2026, 3, 12) and rep.span_days == 10
    assert rep.skipped_before_since > 0
    assert red(rep) == {"days"}


def test_parse_since():
    assert parse_since("2026-01-02", TODAY) == date(2026, 1, 2)
    assert parse_since("10d", date(2026, 1, 11)) == date(2026, 1, 1)
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        parse_since("last week", TODAY)


def test_thresholds_come_from_config_and_flags_win():
    rc = ReportConfig(
        min_days=3, min_tool_uses=7, max_hook_error_rate=0.2, max_bypass_session_share=0.5
    )
    t = Thresholds.from_config(rc)
    assert (t.min_days, t.min_tool_uses, t.max_hook_error_rate, t.max_bypass_session_share) == (
        3,
        7,
        0.2,
        0.5,
    )
    t2 = Thresholds.from_config(rc, min_days=30, min_tool_uses=None, trend_tolerance=0.1)
    assert (t2.min_days, t2.min_tool_uses, t2.trend_tolerance) == (30, 7, 0.1)


def test_lower_thresholds_turn_a_short_trail_ready(tmp_path):
    b = build(tmp_path / "proj", days=8, sessions_per_day=2, writes=lambda d: 1)
    assert report_of(b, thresholds=Thresholds(min_days=7)).ready


def test_empty_trail_is_not_ready():
    rep = compute([], Thresholds(), TODAY)
    assert not rep.ready
    assert red(rep) == {"days", "tool_uses", "subagents", "trend"}
    assert "intended_writes" not in red(rep)
    assert rep.to_json()["verdict"] == "NOT READY"


def test_slope():
    assert slope([(0, 0.0), (1, 0.1), (2, 0.2)]) == pytest.approx(0.1)
    assert slope([(0, 0.3), (5, 0.3)]) == pytest.approx(0.0)
    assert slope([(1, 0.5)]) is None


def test_flat_trend_is_stable_and_small_noise_tolerated():
    def recs(rates):
        out = []
        for d, v in enumerate(rates):
            for k in range(10):
                out.append(
                    {
                        "ts": f"2026-01-{d + 1:02d}T10:00:00+00:00",
                        "event": "PreToolUse",
                        "session_id": f"s{d}",
                        "session_kind": "subagent" if k == 0 else "main",
                        "would_deny": k < v,
                        "error": None,
                    }
                )
        return out

    flat = compute(recs([2] * 14), Thresholds(), TODAY)
    assert flat.slope == pytest.approx(0.0) and "trend" not in red(flat)
    noisy = compute(recs([2, 3, 2, 2, 3, 2, 2, 3, 2, 3, 2, 2, 3, 2]), Thresholds(), TODAY)
    assert "trend" not in red(noisy)
    rising = compute(recs([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6]), Thresholds(), TODAY)
    assert "trend" in red(rising)


def test_json_has_every_number(ready_trail):
    data = report_of(ready_trail).to_json()
    json.dumps(data)  # serialisable
    for key in (
        "verdict",
        "ready",
        "span_days",
        "distinct_days",
        "tool_uses",
        "sessions",
        "violations",
        "violations_per_session",
        "violations_by_tool",
        "violations_by_file",
        "violations_by_agent",
        "violations_by_rule",
        "bypassed_calls",
        "bypass_session_share",
        "hook_errors",
        "hook_error_rate",
        "subagent_calls",
        "per_day",
        "trend",
        "criteria",
        "thresholds",
        "malformed_lines",
    ):
        assert key in data, key
    assert len(data["per_day"]) == 20
    assert [c["key"] for c in data["criteria"]] == [
        "days",
        "tool_uses",
        "subagents",
        "hook_errors",
        "bypass",
        "trend",
        "intended_writes",
        "analysis_misses",
    ]


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_and_is_quiet_when_piped(ready_trail):
    files = audit.trail_files(str(ready_trail.audit))
    tty = FakeTTY()
    load_trail(files, Progress("report: reading", stream=tty))
    assert "report: reading" in tty.getvalue()
    piped = io.StringIO()  # isatty() is False
    load_trail(files, Progress("report: reading", stream=piped))
    assert piped.getvalue() == ""
    forced = io.StringIO()
    load_trail(files, Progress("report: reading", stream=forced, enabled=True))
    assert forced.getvalue().startswith("\rreport: reading")
    assert all(len(chunk) <= 80 for chunk in forced.getvalue().split("\r"))


def test_streaming_gives_the_same_report(tmp_path):
    from orchestrator_boundary.report import iter_records

    b = build(tmp_path / "proj", bad_inputs=1)
    b.garbage(["{truncated", '{"ts": 3}'])
    files = audit.trail_files(str(b.audit))
    streamed = compute(iter_records(files), Thresholds(), TODAY)
    loaded = report_of(b)
    assert streamed.to_json() == loaded.to_json()
    assert streamed.malformed == 2


# ------------------------------------------------------------- one call counts once


def test_a_bypassed_call_counts_once(tmp_path):
    b = build(tmp_path / "proj", days=1, writes=lambda d: 0)
    for _ in range(3):
        b.pair(0, "s001", "Write", path="src/hot.py", bypass=True)  # PreToolUse + PostToolUse
    lines = [json.loads(x) for x in ready_lines(b.root)]
    assert [x["event"] for x in lines if x.get("bypassed")] == ["PreToolUse", "PostToolUse"] * 3
    rep = report_of(b)
    assert rep.bypassed_calls == 3
    assert rep.violations == 3 and rep.sessions_with_bypass == 1


def test_a_bypassed_call_without_tool_use_id_counts_once():
    def rec(event, **kw):
        return {
            "ts": "2026-01-01T10:00:00+00:00",
            "event": event,
            "session_id": "s",
            "session_kind": "main",
            "tool_name": "Write",
            "would_deny": True,
            "bypassed": True,
            "error": None,
            **kw,
        }

    calls = [rec("PreToolUse"), rec("PostToolUse")]  # one call, no id (older Claude Code)
    calls += [rec(e, tool_use_id="toolu_1") for e in ("PreToolUse", "PostToolUse")]
    calls += [rec("PostToolUse", tool_use_id="toolu_2")]  # its PreToolUse line is rotated away
    rep = compute(calls, Thresholds(), TODAY)
    assert rep.bypassed_calls == 3
    assert rep.tool_uses == 2 and rep.violations == 2


def test_a_call_judged_twice_counts_once(tmp_path):
    """The boundary registered twice (settings and plugin): two lines per event, one call."""
    b = build(tmp_path / "proj", days=1, writes=lambda d: 0)
    base = report_of(b)
    for event in ("PreToolUse", "PreToolUse", "PostToolUse", "PostToolUse"):
        b.call(0, "s001", "Write", path="src/hot.py", tool_use_id="toolu_twice", event=event)
    rep = report_of(b)
    assert rep.tool_uses == base.tool_uses + 1
    assert rep.violations == 1 and dict(rep.by_file) == {"src/hot.py": 1}
    assert rep.repeated_records == 1
    assert rep.invocations == base.invocations + 4  # every hook run is still an invocation
    assert rep.notes == [
        "1 record repeats a call that was already counted, as happens when the boundary is "
        "registered twice (in the settings and as a plugin); each call is counted once."
    ]


# ------------------------------------------------------------- words


@pytest.mark.parametrize(
    ("n", "noun", "many", "expected"),
    [
        (0, "day", None, "0 days"),
        (1, "day", None, "1 day"),
        (2, "day", None, "2 days"),
        (1, "tool use", None, "1 tool use"),
        (3, "more file", None, "3 more files"),
        (2, "entry", "entries", "2 entries"),
    ],
    ids=["zero", "one", "two", "two words", "more", "irregular"],
)
def test_plural(n, noun, many, expected):
    assert plural(n, noun, many) == expected


def test_one_of_everything_is_singular(tmp_path):
    b = build(tmp_path / "proj", days=1, bad_inputs=1, writes=lambda d: 1)
    rep = report_of(b)
    values = {c.key: c.value for c in rep.criteria}
    assert values["days"] == "1 day with records (over 1 day)"
    assert values["subagents"] == "1 call"
    assert values["hook_errors"].endswith("(1 error)")
    assert values["bypass"] == "0.0 % (0 sessions)"


def test_an_unknown_trend_says_why_and_what_it_needs_once():
    rep = compute([], Thresholds(), TODAY)
    [trend] = [c for c in rep.criteria if c.key == "trend"]
    assert (trend.value, trend.needed) == (
        "unknown (tool uses on fewer than 2 days)",
        "<= +0.50 points a day",
    )


def test_days_of_data_are_days_with_records_not_the_span(tmp_path):
    """Two busy days a fortnight apart are two days of data: the span said 15 and READY."""
    b = TrailBuilder(tmp_path / "proj", "")
    for n, day in enumerate((0, 14)):
        for k in range(15):
            b.session(day, f"s{n}{k:02d}", main_writes=0, reads=2)
    rep = report_of(b)
    assert rep.span_days == 15 and rep.distinct_days == 2
    assert "days" in red(rep)
    days = next(c for c in rep.criteria if c.key == "days")
    assert days.value == "2 days with records (over 15 days)"
