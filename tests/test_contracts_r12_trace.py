"""What `trace` says of a NotebookEdit and of an MCP tool's write (ADR 0085): a NotebookEdit's
PostToolUse carries the notebook it left (`updated_file`, 2.1.330's NotebookEditOutput), so a
formatter's change beside it is marked as a Write's is; an MCP tool does not say what it left,
and trace says that a change beside it cannot be told, rather than listing the content as the
tool's own without a word."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook
from test_contracts_attack_r10 import SHARED, Team


def _team(project: Path) -> Team:
    team = Team(project, "off")
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases="off"))
    team.launch("a1", "Fix.\nIntent: shared")
    return team


def _run(team: Team, tool: str, tool_input: dict[str, Any], response: Any, left: str) -> None:
    """The call; ``left``: the file's content when our PostToolUse hashes it (a formatter
    hook of the project's may have run first)."""
    pre = team.payload("PreToolUse", tool, tool_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    Path(team.project / "src/auth/nb.ipynb").write_text(left)
    post = {**pre, "hook_event_name": "PostToolUse", "tool_response": response}
    run_hook(post, team.env, "PostToolUse")


def _trace(project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[str, Any]:
    from orchestrator_boundary.cli import main

    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    main(["trace", "src/auth/nb.ipynb"])
    out = capsys.readouterr().out
    main(["trace", "src/auth/nb.ipynb", "--json"])
    return out, json.loads(capsys.readouterr().out)


NOTEBOOK = '{"cells": [{"cell_type": "code", "source": ["x = 1"]}]}\n'
FORMATTED = '{\n  "cells": [{"cell_type": "code", "source": ["x = 1"]}]\n}\n'


@pytest.mark.parametrize(
    ("left", "marked"), [(FORMATTED, True), (NOTEBOOK, False)], ids=["fmt", "as-is"]
)
def test_trace_marks_a_notebook_edit_a_formatter_changed(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, left: str, marked: bool
) -> None:
    """A NotebookEdit whose notebook a formatter hook rewrote before our hash: listed as the
    subagent's content, with nothing to say so."""
    team = _team(project)
    path = str(project / "src/auth/nb.ipynb")
    edit = {"notebook_path": path, "new_source": "x = 1", "cell_id": "c1"}
    response = {"new_source": "x = 1", "cell_type": "code", "language": "python",
                "edit_mode": "replace", "notebook_path": path, "original_file": "{}",
                "updated_file": NOTEBOOK}  # fmt: skip
    _run(team, "NotebookEdit", edit, response, left)
    out, data = _trace(project, monkeypatch, capsys)
    assert data["changes"][-1]["beside"] is marked
    assert ("changed beside the write" in out) is marked


def test_trace_says_an_mcp_tools_write_cannot_be_told_apart(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    team = _team(project)
    tool_input = {"path": str(project / "src/auth/nb.ipynb"), "content": NOTEBOOK}
    _run(team, "mcp__fs__write_file", tool_input, [{"type": "text", "text": "ok"}], FORMATTED)
    out, data = _trace(project, monkeypatch, capsys)
    assert data["changes"][-1]["tool"] == "mcp__fs__write_file"
    assert data["changes"][-1]["beside"] is None
    assert "a change beside it cannot be told" in out
    assert "note: The hook hashes a file beside" in out


def test_a_commands_write_is_listed_as_before(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Control: a Bash write is not marked (its content is never known; the note covers it
    when its content matches no write)."""
    team = _team(project)
    assert team.bash("a1", f"printf x > {project}/src/auth/nb.ipynb") == "-"
    out, data = _trace(project, monkeypatch, capsys)
    assert data["changes"][-1]["beside"] is False
    assert "cannot be told" not in out


def test_trace_finds_a_write_by_a_command_that_exited_non_zero(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """`sed -i ... pay.py && false` changed pay.py and exited 1 (PostToolUseFailure): trace
    said no agent's write of the file is in the trail."""
    from orchestrator_boundary.cli import main

    team = _team(project)
    command = "sed -i s/v1/v2/ src/billing/pay.py && false"
    pre = team.payload("PreToolUse", "Bash", {"command": command}, "a1")
    assert run_hook(pre, team.env)[1] is None
    (project / "src/billing/pay.py").write_text("v2\n")  # what sed did
    failed = {**pre, "hook_event_name": "PostToolUseFailure", "error": "Exit code 1"}
    run_hook(failed, team.env, "PostToolUseFailure")
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert main(["trace", "src/billing/pay.py", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["who"], c["tool"]) for c in data["changes"]] == [
        ("subagent general-purpose (a1)", "Bash")
    ]
    assert data["explained"] is True


def test_trace_does_not_list_an_mcp_read_as_a_change(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """a1 read the notebook with `mcp__fs__read_file`: its audit line hashes the paths an
    MCP tool names (the hook shell's `trace`), and `trace` listed the read as a1's change."""
    team = _team(project)
    Path(project / "src/auth/nb.ipynb").write_text(NOTEBOOK)
    assert (
        team.call("a1", "mcp__fs__read_file", {"path": str(project / "src/auth/nb.ipynb")}) == "-"
    )
    _, data = _trace(project, monkeypatch, capsys)
    assert data["changes"] == []
    tool_input = {"path": str(project / "src/auth/nb.ipynb"), "content": NOTEBOOK}
    _run(team, "mcp__fs__write_file", tool_input, [{"type": "text", "text": "ok"}], NOTEBOOK)
    _, data = _trace(project, monkeypatch, capsys)
    assert [c["tool"] for c in data["changes"]] == ["mcp__fs__write_file"]  # control
