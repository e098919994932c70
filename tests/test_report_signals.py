"""What the report reads out of the records: hook error causes and intended writes."""

from __future__ import annotations

import tomllib

import pytest
from report_trails import TODAY, build, keep_notes

from orchestrator_boundary import audit
from orchestrator_boundary.config import parse_config
from orchestrator_boundary.errors import PayloadError
from orchestrator_boundary.payload import MAX_PAYLOAD_BYTES, parse_payload
from orchestrator_boundary.report import Thresholds, compute, load_trail
from orchestrator_boundary.report_signals import (
    FileWrites,
    WriteAllow,
    error_cause,
    intended_write,
    write_allow_toml,
)

WRONG_TYPE = b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": "x"}'
NO_TOOL = b'{"hook_event_name": "PreToolUse", "tool_input": {}}'
AGENT_ID = b'{"hook_event_name": "PreToolUse", "tool_name": "W", "tool_input": {}, "agent_id": 5}'
BIG = b" " * (MAX_PAYLOAD_BYTES + 1)


@pytest.mark.parametrize(
    ("raw", "cause"),
    [
        (b"", "empty input"),
        (b"{not json", "input is not valid JSON"),
        (b"[1, 2]", "input is JSON list"),
        (b'"x"', "input is JSON str"),
        (WRONG_TYPE, "invalid hook payload (tool_input)"),
        (NO_TOOL, "invalid hook payload (tool_name)"),
        (AGENT_ID, "invalid hook payload (agent_id)"),
        (BIG, "payload too large"),
    ],
    ids=["empty", "not-json", "list", "string", "wrong-type", "no-tool", "agent-id", "too-large"],
)
def test_the_cause_of_what_the_payload_parser_says(raw, cause):
    with pytest.raises(PayloadError) as caught:
        parse_payload(raw)
    assert error_cause(str(caught.value)) == cause


@pytest.mark.parametrize(
    ("message", "cause"),
    [
        ("internal error (RuntimeError: simulated bug)", "internal error (RuntimeError)"),
        ("internal error (KeyError: 'tool_input')", "internal error (KeyError)"),
        ("payload too large (40000000 bytes > 33554432)", "payload too large"),
        ("payload too large (50000000 bytes > 33554432)", "payload too large"),
        ("no usable project root (CLAUDE_PROJECT_DIR or cwd): 'x'", "no usable project root"),
        ("something new", "something new"),
        (True, "unknown"),
        ("  ", "unknown"),
    ],
    ids=["internal", "internal-other", "large", "larger", "root", "new", "not-text", "blank"],
)
def test_a_cause_is_stable_across_details(message, cause):
    assert error_cause(message) == cause


def test_hook_errors_are_broken_down_by_cause(tmp_path):
    b = build(tmp_path / "proj")
    for raw in (b"{not json", b"{not json either", b"", WRONG_TYPE, WRONG_TYPE, WRONG_TYPE):
        b.call(3, "ignored", raw=raw)
    trail = load_trail(audit.trail_files(str(b.audit)))
    rep = compute(trail.records, Thresholds(), TODAY)
    assert rep.hook_errors == 6
    assert rep.by_cause == [
        ("invalid hook payload (tool_input)", 3),
        ("input is not valid JSON", 2),
        ("empty input", 1),
    ]
    assert rep.to_json()["hook_errors_by_cause"] == dict(rep.by_cause)


def report_of(b, **kw):
    trail = load_trail(audit.trail_files(str(b.audit)))
    return compute(trail.records, Thresholds(), TODAY, malformed=trail.malformed, **kw)


def red(rep) -> set[str]:
    return {c.key for c in rep.criteria if not c.ok}


def writes(n_sessions: int, n: int) -> FileWrites:
    fw = FileWrites()
    for k in range(n):
        fw.add(f"s{k % n_sessions}", TODAY)
    return fw


@pytest.mark.parametrize(
    ("path", "sessions", "others", "intended"),
    [
        ("STATE.md", 3, 0, True),
        ("STATE.md", 2, 0, False),  # not repeated across sessions
        ("STATE.md", 5, 1, False),  # another kind of violation on the same file
        ("docs/Plan.MD", 3, 0, True),
        ("src/app.py", 9, 0, False),  # code
        ("notes[1].md", 5, 0, False),  # as a pattern it would not name this file
        ("/tmp/STATE.md", 5, 0, False),  # outside the root: write_allow cannot name it
        ("C:/work/STATE.md", 5, 0, False),
        ("?", 5, 0, False),
    ],
    ids=["state", "2-sessions", "mixed", "plan", "code", "glob", "outside", "windows", "unknown"],
)
def test_intended_write_signal(path, sessions, others, intended):
    fw = writes(sessions, 10)
    found = intended_write([(path, 10 + others), ("README.md", 2)], {path: fw})
    assert (found is not None) == intended
    if intended:
        assert (found.path, found.writes, found.sessions, found.days) == (path, 10, sessions, 1)


def test_only_the_top_file_is_judged():
    fw = {"STATE.md": writes(5, 5), "src/app.py": writes(5, 9)}
    assert intended_write([("src/app.py", 9), ("STATE.md", 5)], fw) is None
    assert intended_write([], fw) is None


@pytest.mark.parametrize(
    "patterns",
    [
        ["STATE.md"],
        ["docs/**", "STATE.md"],
        [f"notes/{'very-long-name-' * 3}{k}.md" for k in range(4)],
    ],
    ids=["one", "kept", "long"],
)
def test_the_suggested_toml_is_valid_config_and_fits(patterns):
    text = write_allow_toml(patterns)
    assert tomllib.loads(text)["orchestrator"]["write_allow"] == patterns
    config = parse_config(text, "boundary.toml")
    assert config.orchestrator.write_allow == patterns  # type: ignore[union-attr]
    assert all(len(line) <= 76 for line in text.splitlines())


@pytest.mark.parametrize(
    ("allow", "code", "paths", "allowed"),
    [
        (WriteAllow(("STATE.md",)), "ORCHESTRATOR_WRITE", ["STATE.md"], True),
        (WriteAllow(("STATE.md",)), "BASH_WRITE", ["STATE.md"], True),
        (WriteAllow(("STATE.md",)), "BASH_WRITE", ["STATE.md", "src/a.py"], False),
        (WriteAllow(("STATE.md",)), "ORCHESTRATOR_WRITE", ["docs/STATE.md"], False),  # anchored
        (WriteAllow((), ("STATE.md",)), "BASH_WRITE", ["STATE.md"], True),
        (WriteAllow((), ("STATE.md",)), "ORCHESTRATOR_WRITE", ["STATE.md"], False),
        (WriteAllow(("**",)), "SCOPE_VIOLATION", ["STATE.md"], False),  # not an orchestrator write
        (WriteAllow(("**",)), "ORCHESTRATOR_WRITE", ["?"], False),
        (WriteAllow(("**", "!STATE.md")), "ORCHESTRATOR_WRITE", ["STATE.md"], False),
        (WriteAllow(), "ORCHESTRATOR_WRITE", ["STATE.md"], False),
    ],
    ids=[
        "edit",
        "bash",
        "bash-two-files",
        "anchored",
        "bash-list",
        "bash-list-not-edit",
        "subagent",
        "unknown-path",
        "exclusion",
        "empty",
    ],
)
def test_write_allow_rejudges_only_orchestrator_writes(allow, code, paths, allowed):
    assert allow.allows(code, paths) is allowed


# ------------------------------------------------------------- intended writes


@pytest.fixture(scope="module")
def notes_trail(tmp_path_factory):
    """A READY trail, except that the orchestrator edits STATE.md twice in every session."""
    b = build(tmp_path_factory.mktemp("notes") / "proj")
    keep_notes(b, range(20))
    return b


def test_intended_writes_block_ready_and_suggest_write_allow(notes_trail):
    rep = report_of(notes_trail)
    assert rep.by_file[0] == ("STATE.md", 40)
    assert red(rep) == {"intended_writes"}
    w = rep.intended
    assert (w.path, w.writes, w.sessions, w.days) == ("STATE.md", 40, 20, 20)
    assert rep.write_allow == ["STATE.md"]
    assert write_allow_toml(rep.write_allow) == '[orchestrator]\nwrite_allow = ["STATE.md"]'
    (note,) = rep.notes
    assert note.startswith(
        "The top violation, STATE.md, looks like a file the orchestrator changes on purpose: "
        "the main agent wrote it 40 times in 20 sessions. Enforce would deny each of these "
        "writes, so the verdict stays NOT READY until the team decides. If the writes are "
        "intended, put the lines below into .claude/boundary.toml "
    )
    data = rep.to_json()
    assert data["intended_write"] == {"path": "STATE.md", "writes": 40, "sessions": 20, "days": 20}
    assert data["write_allow_suggestion"] == {
        "file": ".claude/boundary.toml",
        "write_allow": ["STATE.md"],
        "toml": '[orchestrator]\nwrite_allow = ["STATE.md"]',
    }
    assert data["notes"] == rep.notes


def test_allowing_the_file_rejudges_the_trail_and_makes_it_ready(notes_trail):
    before = report_of(notes_trail)
    rep = report_of(notes_trail, allow=WriteAllow(("STATE.md",)))
    assert rep.ready and rep.intended is None and rep.write_allow == []
    assert rep.allowed_by_config == 40
    assert rep.violations == before.violations - 40
    assert "STATE.md" not in dict(rep.by_file)
    assert rep.notes == [
        "40 recorded violations are allowed by the current write_allow in "
        ".claude/boundary.toml, so they are not counted."
    ]
    assert rep.to_json()["violations_allowed_by_config"] == 40


def test_the_suggestion_keeps_the_current_patterns(notes_trail):
    rep = report_of(notes_trail, allow=WriteAllow(("docs/**",), config_file="team.toml"))
    assert rep.write_allow == ["docs/**", "STATE.md"]
    assert "put the lines below into team.toml" in rep.notes[0]


@pytest.mark.parametrize(
    ("kwargs", "intended"),
    [
        ({}, "STATE.md"),
        ({"tool": "Bash"}, "STATE.md"),  # echo >> STATE.md: BASH_WRITE
        ({"path": "docs/PLAN.md"}, "docs/PLAN.md"),
        ({"path": "notes.txt", "tool": "Write"}, "notes.txt"),
        ({"path": "src/state.py"}, None),  # a code file is what the boundary is there to stop
        ({"days": range(2), "per_session": 20}, None),  # written in two sessions only
        ({"days": range(10), "per_session": 1}, None),  # not the top violation
    ],
    ids=["edit", "bash-append", "plan-in-folder", "text", "code", "two-sessions", "not-top"],
)
def test_what_counts_as_an_intended_write(tmp_path, kwargs, intended):
    b = build(tmp_path / "proj")
    keep_notes(b, kwargs.pop("days", range(20)), **kwargs)
    rep = report_of(b)
    assert (rep.intended and rep.intended.path) == intended
    assert ("intended_writes" in red(rep)) == (intended is not None)


def test_bash_appends_are_rejudged_with_bash_allow_write_too(tmp_path):
    b = build(tmp_path / "proj")
    keep_notes(b, range(20), tool="Bash")
    bash_only = report_of(b, allow=WriteAllow((), ("STATE.md",)))
    assert bash_only.allowed_by_config == 40 and bash_only.ready
    keep_notes(b, range(20), per_session=1)  # Edit: bash.allow_write does not cover it
    edits = report_of(b, allow=WriteAllow((), ("STATE.md",)))
    assert edits.allowed_by_config == 40 and edits.by_file[0] == ("STATE.md", 20)
    assert edits.intended is not None and edits.intended.path == "STATE.md"
