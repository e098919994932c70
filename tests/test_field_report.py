"""Analysis misses in the readiness report (ADR 0029): a read_only rating the field shows
wrong keeps the verdict NOT READY; the count and examples are in the text and the JSON."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from orchestrator_boundary.report import Thresholds, compute
from orchestrator_boundary.report_text import render_text

TODAY = date(2026, 11, 23)
TS = "2026-11-23T10:00:00.000000+00:00"


def _post(call: str, label: str, missed: list[str], **field: Any) -> dict[str, Any]:
    value = {
        "source": "scan",
        "label": label,
        "changed": missed,
        "changed_count": len(missed),
        "missed": missed,
        "missed_count": len(missed),
        "partial": False,
        "overlapped": False,
        **field,
    }
    return {
        "ts": TS,
        "event": "PostToolUse",
        "session_id": "s1",
        "tool_name": "Bash",
        "tool_use_id": call,
        "field": value,
    }


def _pre(call: str) -> dict[str, Any]:
    return {
        "ts": TS,
        "event": "PreToolUse",
        "session_id": "s1",
        "tool_name": "Bash",
        "tool_use_id": call,
    }


def _report(*posts: dict[str, Any]) -> Any:
    records = [r for p in posts for r in (_pre(p["tool_use_id"]), p)]
    return compute(records, Thresholds(min_days=0, min_tool_uses=0), TODAY)


def _criterion(r: Any) -> Any:
    return next(c for c in r.criteria if c.key == "analysis_misses")


CMD = "python3 -c 'import json; print(json.dumps(1))'"


@pytest.mark.parametrize(
    ("posts", "ok", "value"),
    [
        ([], True, "not measured (no field comparisons in the trail)"),
        (
            [_post("t1", "read_only", [])],
            True,
            "0 read_only calls changed files, of 1 call compared",
        ),
        (
            [_post("t1", "read_only", ["pwned.txt"], command=CMD)],
            False,
            "1 read_only call changed files, of 1 call compared",
        ),
        (
            [_post("t1", "writes", ["other.txt"]), _post("t2", "read_only", [])],
            True,
            "0 read_only calls changed files, of 2 calls compared (also 1 writes)",
        ),
        (
            [_post("t1", "read_only", ["x"], overlapped=True)],
            True,
            "0 read_only calls changed files, of 1 call compared (also 1 overlapped)",
        ),
        (
            [_post("t1", "opaque", [], opaque=["made.txt"], opaque_count=1)],
            True,
            "0 read_only calls changed files, of 1 call compared",
        ),
    ],
    ids=["not-measured", "clean", "read-only-miss", "writes-miss", "overlapped", "opaque"],
)
def test_the_criterion(posts: list[dict[str, Any]], ok: bool, value: str) -> None:
    c = _criterion(_report(*posts))
    assert (c.ok, c.value, c.needed) == (ok, value, "0 read_only")


def test_a_read_only_miss_keeps_the_verdict_not_ready() -> None:
    clean = _report(_post("t1", "read_only", []))
    assert _criterion(clean).ok
    missed = _report(_post("t1", "read_only", ["pwned.txt"], command=CMD))
    assert missed.verdict == "NOT READY" and not _criterion(missed).ok


def test_json_has_the_count_and_examples() -> None:
    r = _report(
        _post("t1", "read_only", ["pwned.txt"], command=CMD),
        _post("t2", "writes", ["b.txt"], command="echo > a.txt"),
        _post("t3", "read_only", [], partial=True),
    )
    got = r.to_json()["analysis_misses"]
    assert got == {
        "compared": 3,
        "partial": 1,
        "overlapped": 0,
        "misses_by_label": {"read_only": 1, "writes": 1},
        "overlapped_misses": 0,
        "examples": [
            {
                "label": "read_only",
                "command": CMD,
                "missed": ["pwned.txt"],
                "missed_count": 1,
                "ts": TS,
                "session_id": "s1",
            },
            {
                "label": "writes",
                "command": "echo > a.txt",
                "missed": ["b.txt"],
                "missed_count": 1,
                "ts": TS,
                "session_id": "s1",
            },
        ],
    }


def test_a_failed_command_s_comparison_counts() -> None:
    post = {**_post("t1", "read_only", ["pwned.txt"]), "event": "PostToolUseFailure"}
    r = _report(post)
    assert (r.misses.compared, r.misses.read_only) == (1, 1)


def test_a_call_recorded_twice_is_compared_once() -> None:
    post = _post("t1", "read_only", ["pwned.txt"])
    r = compute([_pre("t1"), post, post], Thresholds(), TODAY)
    assert (r.misses.compared, r.misses.read_only) == (1, 1)


def test_the_text_shows_the_count_and_an_example() -> None:
    text = render_text(_report(_post("t1", "read_only", ["pwned.txt"], command=CMD)), "t", 1)
    assert "Bash calls compared with the field" in text
    assert "[FAIL] analysis misses" in text
    flat = " ".join(text.split())
    assert f"{CMD} (read_only) changed pwned.txt" in flat


def test_the_text_is_unchanged_where_the_check_never_ran() -> None:
    text = render_text(_report(), "t", 1)
    assert "compared with the field" not in text and "missed what" not in text
