"""``orchestrator-boundary trace PATH`` (ADR 0027): who changed a file, through which
delegation and intent; content no recorded write explains is flagged."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cli import main
from orchestrator_boundary.cmd_trace import changes, finding


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _post(path: str, sha: str | None, **extra: Any) -> dict[str, Any]:
    return {
        "ts": extra.pop("ts", "2026-11-23T10:00:00.000000+00:00"),
        "event": "PostToolUse",
        "session_id": "s1",
        "tool_name": "Write",
        "tool_use_id": "toolu_w",
        "trace": [{"path": path, "sha256": sha}],
        **extra,
    }


SUB = {
    "session_kind": "subagent",
    "agent_id": "a1",
    "agent_type": "coder",
    "delegation": {"tool_use_id": "toolu_agent", "description": "fix login", "intent": "login"},
}


def _trail(project: Path, records: list[dict[str, Any]]) -> None:
    trail = project / ".claude" / "boundary" / "audit.jsonl"
    trail.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r) for r in records]
    trail.write_text("\n".join([*lines, "not json", '{"event": "PreToolUse"}']) + "\n")


def test_changes_pick_the_paths_post_tool_use_entries() -> None:
    records = [
        _post("src/a.py", "x", **SUB),
        _post("src/b.py", "y"),
        {**_post("src/a.py", "z"), "event": "PreToolUse"},
        _post("src/a.py", "w", session_kind="main"),
    ]
    found = changes(records, {"src/a.py"})
    assert [(c["sha256"], c["who"], c["intent"], c["description"]) for c in found] == [
        ("x", "subagent coder (a1)", "login", "fix login"),
        ("w", "main agent", None, None),
    ]


@pytest.mark.parametrize(
    ("shas", "current", "exists", "explained", "fragment"),
    [
        (["a", "b"], "b", True, True, "last recorded write"),
        (["a", "b"], "a", True, True, "later ones were undone"),
        (["a", "b"], "c", True, False, "changed outside any agent"),
        ([], "c", True, False, "no agent's write"),
        (["a"], None, False, False, "does not exist (it was written before)"),
        ([], None, False, True, "does not exist"),
        (["a"], None, True, False, "cannot be read"),
    ],
    ids=["last", "earlier", "outside", "never", "gone", "never-existed", "unreadable"],
)
def test_finding(
    shas: list[str], current: str | None, exists: bool, explained: bool, fragment: str
) -> None:
    found = [{"sha256": s, "ts": "t", "who": "w"} for s in shas]
    got = finding(found, current, exists)
    assert got[0] is explained and fragment in got[1]


def test_trace_command_lists_changes_and_flags_outside_edits(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    target = project / "src" / "a.py"
    target.write_text("v1\n")
    _trail(project, [_post("src/a.py", _sha("v1\n"), **SUB)])
    assert main(["trace", "src/a.py"]) == 0
    out = capsys.readouterr().out
    assert "subagent coder (a1)" in out and "'fix login' (Agent call toolu_agent)" in out
    assert "intent login" in out and "last recorded write" in out
    target.write_text("edited by hand\n")
    assert main(["trace", "src/a.py", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["explained"] is False and "outside any agent" in data["finding"]
    assert data["current_sha256"] == _sha("edited by hand\n")
    assert [c["sha256"] for c in data["changes"]] == [_sha("v1\n")]


def test_trace_without_a_trail_is_an_error(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    assert main(["trace", "src/a.py"]) == 2
    assert "no audit trail" in capsys.readouterr().err


def test_an_mcp_write_is_traced_to_its_subagent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A subagent's MCP tool wrote the file: its PostToolUse line records the content, so
    ``trace`` names the subagent instead of "outside any agent"."""
    from orchestrator_boundary.testing import make_payload, run_hook

    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "boundary.toml").write_text('phase = "warn"\n')
    target = project / "src" / "m.txt"
    target.parent.mkdir()
    target.write_text("written by the server\n")
    given = {"path": str(target), "content": "written by the server\n", "note": "a b"}
    post = make_payload(
        "mcp__fs__write_file", given, event="PostToolUse", cwd=project, subagent=True,
        agent_type="coder", tool_response="ok",
    )  # fmt: skip
    run_hook(post, project=project, env={"HOME": str(tmp_path / "home")})
    monkeypatch.chdir(project)
    assert main(["trace", "src/m.txt", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["explained"] is True, data
    assert [c["sha256"] for c in data["changes"]] == [_sha("written by the server\n")]
