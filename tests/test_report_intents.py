"""The report's per-intent table (ADR 27, issue 17 point 7): delegations, writes, scope, stale
and lease denials per intent, in the text, JSON and HTML forms.

The main scenario is a real trail: every line is written by the hook shell
(``shell.evaluate``) for Agent calls, subagent writes and reads, with two intents, one scope
denial, one stale write and one leased file. Hand-written lines cover what a small scenario
cannot produce on purpose (reasons from other sessions, old lines, event orders).
"""

from __future__ import annotations

import json
import re
import textwrap
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cli import main
from orchestrator_boundary.report import Report, Thresholds, compute, load_trail
from orchestrator_boundary.report_html import render_html
from orchestrator_boundary.report_intents import (
    NO_RECORD,
    IntentRow,
    IntentTally,
    RowKind,
    unknown_cause,
)
from orchestrator_boundary.report_text import intents, render_text
from orchestrator_boundary.shell import evaluate

DAY = date(2026, 11, 2)
CLOCK = datetime(2026, 11, 2, 10, 0, tzinfo=UTC).timestamp()
CONFIG = textwrap.dedent(
    """\
    phase = "enforce"
    [intents."auth"]
    owned_scope = ["src/auth/**"]
    description = "login fix"
    [intents."billing"]
    owned_scope = ["src/billing/**"]
    description = "billing rounding"
    [delegation]
    leases = "enforce"
    """
)
NOT_FOUND = "no Agent call names it and its meta.json was not found"


class Scenario:
    """Hook calls as Claude Code makes them, judged and recorded by the real hook shell."""

    def __init__(self, root: Path) -> None:
        self.root = root
        for folder in (".claude", "src/auth", "src/billing", "docs"):
            (root / folder).mkdir(parents=True, exist_ok=True)
        (root / ".claude" / "boundary.toml").write_text(CONFIG)
        self.env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(root.parent / "home")}
        self.n = 0

    @property
    def audit(self) -> Path:
        return self.root / ".claude" / "boundary" / "audit.jsonl"

    def hook(self, event: str, tool: str, tool_input: dict[str, Any], **kw: Any) -> str:
        payload = {
            "session_id": "s1",
            "transcript_path": str(self.root.parent / "s1.jsonl"),
            "cwd": str(self.root),
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            **kw,
        }
        self.n += 1
        raw = json.dumps(payload).encode()
        return evaluate(raw, self.env, event=event, clock=lambda: CLOCK + self.n).stdout

    def launch(self, agent: str, prompt: str) -> None:
        agent_input = {"description": f"job {agent}", "prompt": prompt, "subagent_type": "coder"}
        call = f"agent-{agent}"
        assert self.hook("PreToolUse", "Agent", agent_input, tool_use_id=call) == ""
        launched = {"status": "async_launched", "agentId": agent}
        self.hook("PostToolUse", "Agent", agent_input, tool_use_id=call, tool_response=launched)

    def sub(self, agent: str, tool: str, rel: str, *, call: str = "") -> str:
        """A subagent's call on ``rel``: PreToolUse, and when it is not denied the tool runs
        (a Write changes the file) and PostToolUse follows."""
        path = self.root / rel
        tool_input: dict[str, Any] = {"file_path": str(path)}
        if tool == "Write":
            tool_input["content"] = f"by {agent}\n"
        if tool == "Bash":  # a write Claude Code itself does not check for staleness
            tool_input = {"command": f"echo by {agent} > {rel}"}
        who = {"agent_id": agent, "agent_type": "coder", "tool_use_id": call or f"c{self.n}"}
        out = self.hook("PreToolUse", tool, tool_input, **who)
        if '"deny"' in out:
            return out
        if tool == "Write":
            path.write_text(tool_input["content"])
        response = {"success": True, "file": {"filePath": str(path)}}
        self.hook("PostToolUse", tool, tool_input, tool_response=response, **who)
        return out


@pytest.fixture
def scenario(tmp_path: Path) -> Scenario:
    s = Scenario(tmp_path / "project")
    s.launch("a1", "Fix the login.\nIntent: auth")
    s.launch("a2", "Round the totals.\nIntent: billing")
    s.launch("a3", "Tidy the login form.\nIntent: auth")
    s.launch("a4", "Write the notes.\nScope: docs/**")
    assert s.sub("a1", "Write", "src/auth/login.py") == ""
    assert "DELEGATION_SCOPE" in s.sub("a1", "Write", "src/billing/pay.py")
    assert "FILE_LEASED" in s.sub("a3", "Write", "src/auth/login.py")  # a1 still runs
    (s.root / "src/billing/total.py").write_text("total = 1\n")
    s.sub("a2", "Read", "src/billing/total.py")
    (s.root / "src/billing/total.py").write_text("total = 2\n")  # a person edits it
    assert "STALE_FILE" in s.sub("a2", "Bash", "src/billing/total.py")
    assert s.sub("a2", "Write", "src/billing/round.py") == ""
    assert s.sub("a4", "Write", "docs/notes.md") == ""
    assert s.sub("zz", "Write", "src/auth/hint.py") == ""  # no Agent call launched zz
    return s


def _report(s: Scenario, statuses: dict[str, str] | None = None) -> Report:
    trail = load_trail([str(s.audit)])
    return compute(trail.records, Thresholds(), DAY, intents=statuses)


ZERO = {
    "tool_calls": 0,
    "writes": 0,
    "files_written": 0,
    "scope_denials": 0,
    "scope_denials_by_code": {},
    "stale_denials": 0,
    "lease_denials": 0,
    "lease_warnings": 0,
    "unknown_reasons": {},
}


def _row(kind: str, intent: str | None = None, status: str | None = None, **kw: Any) -> dict:
    calls = 1 if kind in ("intent", "no_intent") else None
    base = {"row": kind, "intent": intent, "status": status, "agent_calls": calls}
    return {**base, "agents": 1, **ZERO, **kw}


def test_a_real_trail_gives_each_intent_its_writes_and_denials(scenario: Scenario) -> None:
    rep = _report(scenario, {"auth": "active", "billing": "active"})
    assert [row.to_json() for row in rep.intents] == [
        _row(
            "intent", "auth", "active", agent_calls=2, agents=2, tool_calls=3, writes=1,
            files_written=1, scope_denials=1, scope_denials_by_code={"DELEGATION_SCOPE": 1},
            lease_denials=1,
        ),
        _row(
            "intent", "billing", "active", tool_calls=3, writes=1, files_written=1,
            stale_denials=1,
        ),
        _row("no_intent", tool_calls=1, writes=1, files_written=1),
        _row("unknown", tool_calls=1, writes=1, files_written=1, unknown_reasons={NOT_FOUND: 1}),
    ]  # fmt: skip


def test_the_status_comes_from_the_config_of_today(scenario: Scenario) -> None:
    rep = _report(scenario, {"auth": "done"})
    assert [(row.intent, row.status) for row in rep.intents[:2]] == [
        ("auth", "done"),
        ("billing", "not in config"),
    ]


def test_the_text_table_fits_80_columns_with_its_numbers(scenario: Scenario) -> None:
    text = render_text(_report(scenario, {"auth": "active", "billing": "done"}), "t", 1)
    table = text.split("Per intent")[1].split("\n\n")[0].splitlines()
    assert max(map(len, text.splitlines())) <= 80
    assert table[1:7] == [
        "  intent (status)                    calls agents writes files scope stale lease",
        "  auth (active)                          2      2      1     1     1     0     1",
        "  billing (done)                         1      1      1     1     0     1     0",
        "  (no intent named)                      1      1      1     1     0     0     0",
        "  (delegation unknown)                   -      1      1     1     0     0     0",
        f"    - {NOT_FOUND}: 1 call",
    ]


def test_the_cli_json_has_the_rows_under_intents(scenario: Scenario, capsys: Any) -> None:
    code = main(["report", "--project", str(scenario.root), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3
    assert [(r["row"], r["intent"], r["status"]) for r in data["intents"]] == [
        ("intent", "auth", "active"),
        ("intent", "billing", "active"),
        ("no_intent", None, None),
        ("unknown", None, None),
    ]


class Cells(HTMLParser):
    """The text of each cell of the table inside ``<div id="intents">``."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = self.cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div":
            self.inside = ("id", "intents") in attrs
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.rows[-1].append("")
            self.cell = True

    def handle_endtag(self, tag: str) -> None:
        self.cell = self.cell and tag not in ("td", "th")

    def handle_data(self, data: str) -> None:
        if self.inside and self.cell:
            self.rows[-1][-1] += data


def test_the_html_table_has_a_row_per_intent(scenario: Scenario) -> None:
    parser = Cells()
    parser.feed(render_html(_report(scenario, {"auth": "active", "billing": "active"})))
    assert parser.rows == [
        ["intent", "status", "Agent calls", "agents", "writes", "files", "scope", "stale",
         "lease"],
        ["auth", "active", "2", "2", "1", "1", "1", "0", "1"],
        ["billing", "active", "1", "1", "1", "1", "0", "1", "0"],
        ["(no intent named)", "", "1", "1", "1", "1", "0", "0", "0"],
        ["(delegation unknown)" + f"{NOT_FOUND}: 1 call", "", "-", "1", "1", "1", "0", "0",
         "0"],
    ]  # fmt: skip


# ------------------------------------------------------------------ hand-written lines


def line(event: str = "PreToolUse", **kw: Any) -> dict[str, Any]:
    rec = {"ts": "2026-11-02T10:00:00+00:00", "event": event, "session_id": "s", "error": None}
    rec.setdefault("would_deny", False)
    return {**rec, **kw}


def sub(agent: str, delegation: Any = None, **kw: Any) -> dict[str, Any]:
    extra = {} if delegation is None else {"delegation": delegation}
    return line(agent_id=agent, session_kind="subagent", **extra, **kw)


def known(call: str, intent: str | None) -> dict[str, Any]:
    return {"tool_use_id": call, "description": "d", "intent": intent, "scope": [], "depth": 1}


def trace(*paths: str) -> list[dict[str, str]]:
    return [{"path": p, "sha256": "0" * 64} for p in paths]


def rows(records: list[dict[str, Any]], statuses: dict[str, str] | None = None) -> list[dict]:
    tally = IntentTally()
    for rec in records:
        tally.add(rec)
    return [row.to_json() for row in tally.rows(statuses)]


EDGE = [
    # an intent the config does not hold; reasons that differ only by their ids group
    sub("x1", known("t1", "ghost"), tool_use_id="w1"),
    sub("u1", {"unknown": "its Agent call toolu_A was refused (it names intent 'x')"},
        tool_use_id="w2"),
    sub("u2", {"unknown": "its Agent call toolu_B was refused (unknown (nested) reason)"},
        tool_use_id="w3"),
    sub("u3", {"unknown": NOT_FOUND}, tool_use_id="w4", would_deny=True,
        code="DELEGATION_SCOPE"),
    sub("old", tool_use_id="w5"),  # a line from before delegation records
    # warn: a scope denial that went through is a denial, not a write (Post first: any order)
    sub("x1", known("t1", "ghost"), event="PostToolUse", tool_use_id="w6", would_deny=True,
        trace=trace("src/a.py")),
    sub("x1", known("t1", "ghost"), tool_use_id="w6", would_deny=True,
        code="SCOPE_VIOLATION"),
    # a stale write that went through in warn: its PostToolUse is not judged stale
    sub("x1", known("t1", "ghost"), tool_use_id="w7", would_deny=True, code="STALE_FILE"),
    sub("x1", known("t1", "ghost"), event="PostToolUse", tool_use_id="w7",
        trace=trace("src/b.py")),
    # leases = "warn": the write goes ahead, its line names the holder
    sub("x2", known("t2", "ghost"), tool_use_id="w8", leased_to={"src/a.py": "job (x1)"}),
    sub("x2", known("t2", "ghost"), event="PostToolUse", tool_use_id="w8",
        trace=trace("src/a.py")),
    sub("x2", known("t2", "ghost"), tool_use_id="w8"),  # a repeated record: counted once
    # a write without tool_use_id counts on its PostToolUse line
    sub("x2", known("t2", "ghost"), event="PostToolUse", trace=trace("src/c.py")),
    # the main agent: a stale denial; an error line and a lifecycle line are no calls
    line(session_kind="main", tool_use_id="m1", would_deny=True, code="STALE_FILE"),
    line(error="internal error (KeyError: 'x')", agent_id="x9"),
    sub("x1", known("t1", "ghost"), event="SubagentStop"),
]  # fmt: skip


def test_hand_written_edge_cases() -> None:
    assert rows(EDGE, {"auth": "active"}) == [
        {
            **_row("intent", "ghost", "not in config"),
            "agent_calls": 2, "agents": 2, "tool_calls": 4, "writes": 2, "files_written": 2,
            "scope_denials": 1, "scope_denials_by_code": {"SCOPE_VIOLATION": 1},
            "stale_denials": 1, "lease_warnings": 1,
        },
        {
            **_row("unknown"),
            "agents": 4, "tool_calls": 4, "scope_denials": 1,
            "scope_denials_by_code": {"DELEGATION_SCOPE": 1},
            "unknown_reasons": {"its Agent call was refused": 2, NOT_FOUND: 1, NO_RECORD: 1},
        },
        {**_row("main"), "agents": None, "tool_calls": 1, "stale_denials": 1},
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("records", "statuses", "shown"),
    [
        ([sub("a", known("t", None), tool_use_id="w")], None, False),
        ([sub("a", {"unknown": NOT_FOUND}, tool_use_id="w")], None, False),
        ([line(session_kind="main", code="STALE_FILE", would_deny=True)], {"a": "done"}, False),
        ([sub("a", known("t", None), tool_use_id="w")], {"auth": "active"}, True),
        ([sub("a", known("t", "auth"), tool_use_id="w")], None, True),
    ],
    ids=[
        "no-intents-anywhere",
        "unknown-without-intents",
        "intents-but-no-subagent",
        "intents-in-config-unused",
        "intent-named-without-config",
    ],
)
def test_the_table_shows_only_where_intents_are_in_use(
    records: list[dict[str, Any]], statuses: dict[str, str] | None, shown: bool
) -> None:
    assert bool(rows(records, statuses)) is shown


def test_no_table_in_any_form_without_intents() -> None:
    rep = compute([sub("a", known("t", None), tool_use_id="w")], Thresholds(), DAY)
    assert rep.intents == [] and rep.to_json()["intents"] == []
    assert "Per intent" not in render_text(rep, "t", 1)
    assert 'id="intents"' not in render_html(rep)


@pytest.mark.parametrize(
    ("reason", "cause"),
    [
        (NOT_FOUND, NOT_FOUND),
        ("its meta.json names no toolUseId", "its meta.json names no toolUseId"),
        (
            "the Agent call toolu_1 launched it, but its meta.json names toolu_2",
            "the Agent call launched it, but its meta.json names another",
        ),
        (
            "no PreToolUse of the Agent call toolu_1 was recorded",
            "no PreToolUse of the Agent call was recorded",
        ),
        (
            "its Agent call toolu_1 was refused (intent 'x' is done, not active)",
            "its Agent call was refused",
        ),
        (
            "the Agent call toolu_1 asked for coder, not reviewer",
            "the Agent call asked for coder, not reviewer",
        ),
        (
            "its meta.json names parent 'a1', the Agent call None",
            "its meta.json names parent another, the Agent call",
        ),
        ("the stored contract is damaged (bad JSON)", "the stored contract is damaged"),
        ("the state store is unavailable", "the state store is unavailable"),
        ("", "no reason recorded"),
        (None, "no reason recorded"),
    ],
    ids=[
        "not-found", "meta-no-id", "link-and-meta-disagree", "no-pretooluse", "refused",
        "other-type", "other-parent", "damaged", "store-unavailable", "empty", "not-a-string",
    ],
)  # fmt: skip
def test_unknown_causes_drop_ids_and_details(reason: object, cause: str) -> None:
    assert unknown_cause(reason) == cause


def _many(n: int, long_id: str) -> list[dict[str, Any]]:
    ids = [long_id, *(f"intent-{k:02d}" for k in range(n - 1))]
    return [
        sub(f"a{k}", known(f"t{k}", name), tool_use_id=f"w{k}", would_deny=True,
            code="FILE_LEASED")
        for k, name in enumerate(ids)
    ]  # fmt: skip


def test_many_long_intents_wrap_and_the_rest_are_summed() -> None:
    long_id = "a" + "b" * 63  # the longest id the config accepts
    rep = compute(_many(13, long_id), Thresholds(), DAY)
    out = intents(rep)
    assert max(map(len, out)) <= 80
    assert long_id in re.sub(r"\s+", "", "".join(out))  # wrapped, nothing cut
    more = [x for x in out if x.startswith("  and 3 more intents")]
    assert more == [
        "  and 3 more intents                     3      3      0     0     0     0     3"
    ]
    one = compute(_many(11, long_id), Thresholds(), DAY)
    assert any(x.startswith("  and 1 more intent ") for x in intents(one))


def test_reasons_say_call_or_calls() -> None:
    two = [sub(f"u{k}", {"unknown": NOT_FOUND}, tool_use_id=f"w{k}") for k in range(2)]
    rep = compute([*two, sub("a", known("t", "auth"), tool_use_id="x")], Thresholds(), DAY)
    assert f"    - {NOT_FOUND}: 2 calls" in intents(rep)


@pytest.mark.parametrize("kind", list(RowKind), ids=str)
def test_every_row_kind_has_its_own_label(kind: RowKind) -> None:
    row = IntentRow(kind, "auth" if kind is RowKind.INTENT else None, "done", 0, 0, 0, 0, 0, (),
                    0, 0, 0)  # fmt: skip
    labels = {"intent": "auth (done)", "no_intent": "(no intent named)",
              "unknown": "(delegation unknown)", "main": "(main agent)"}  # fmt: skip
    assert row.label == labels[kind.value]
    assert row.to_json()["row"] == kind.value
