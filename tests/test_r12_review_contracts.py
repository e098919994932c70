"""Round twelve's contracts, as a review of the merged change found them (ADR 0085, 0086).

- A ``Run:`` line after a line break that is not a newline (``Build it.\\rRun: make test``: a
  terminal shows it alone on its line) was dropped, so the narrowed subagent ran anything; and
  a long prose line hid a key after such a break, as the colon shortcut came first.
- An MCP tool the config calls ``execute`` escaped the ``Run:`` rule that an unclassified one
  meets; ``Eval`` (REPL's older name) escaped it too.
- ``trace`` said a Write or Edit "does not say what it left" where it used to say nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_hook
from test_contracts_attack_r10 import SHARED, Team

from orchestrator_boundary.directives import parse_directives


def _team(project: Path, prompt: str, extra: str = "") -> Team:
    team = Team(project, "off")
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases="off") + extra)
    team.launch("a1", prompt)
    return team


@pytest.mark.parametrize("brk", ["\r", "\u2028", "\x0b", "\x0c", "\x85"])
def test_a_run_line_after_a_hidden_break_refuses_the_agent_call(brk: str) -> None:
    got = parse_directives(f"Billing.\nScope: src/billing/**\nBuild it.{brk}Run: make test")
    assert got.error is not None and got.error.key == "Run", got


def test_a_long_prose_line_does_not_hide_a_key_after_a_break() -> None:
    prose = "word " * 60  # no colon in its first 200 characters
    got = parse_directives(f"{prose}\u2028Scope: src/billing/**")
    assert got.error is not None and got.error.key == "Scope", got


def test_a_plain_run_line_and_prose_stay_accepted() -> None:
    got = parse_directives("Billing.\nScope: src/billing/**\nRun: make test\nBuild it.\rThen stop.")
    assert got.error is None and got.run == ("make test",), got


def test_the_hidden_run_line_is_refused_through_the_hook(project: Path) -> None:
    team = Team(project, "off")
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases="off"))
    prompt = "Billing.\nScope: src/billing/**\nBuild it.\rRun: make test"
    pre = team.payload("PreToolUse", "Agent", {"description": "w", "prompt": prompt}, None)
    out = run_hook(pre, team.env)[1]
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert json.loads(reason.rsplit("\n", 1)[-1])["error"] == "DELEGATION_INVALID"


@pytest.mark.parametrize("cls", ["execute", None])
@pytest.mark.parametrize("tool_input", [{}, {"sql": "DROP TABLE x"}])
def test_an_mcp_tool_called_execute_meets_the_run_line(
    project: Path, cls: str | None, tool_input: dict[str, str]
) -> None:
    extra = f'\n[tools]\n"mcp__db__migrate" = "{cls}"\n' if cls else ""
    team = _team(project, "Billing.\nScope: src/billing/**\nRun: make test", extra)
    assert team.call("a1", "mcp__db__migrate", tool_input) == "DELEGATION_SCOPE"


def test_a_run_line_that_names_the_execute_tool_lets_it_through(project: Path) -> None:
    extra = '\n[tools]\n"mcp__db__migrate" = "execute"\n'
    team = _team(
        project, "Billing.\nScope: src/billing/**\nRun: make test, mcp__db__migrate", extra
    )
    assert team.call("a1", "mcp__db__migrate", {}) == "-"


@pytest.mark.parametrize("tool_input", [{"code": "await Bash({command: 'make install'})"}, {}])
def test_eval_is_held_as_repl_is(project: Path, tool_input: dict[str, str]) -> None:
    team = _team(project, "Billing.\nScope: src/billing/**\nRun: make test")
    assert team.call("a1", "Eval", tool_input) == "DELEGATION_SCOPE"
    assert team.call("a1", "REPL", tool_input) == "DELEGATION_SCOPE"


@pytest.mark.parametrize("tool", ["Write", "Edit"])
def test_trace_of_a_write_without_the_tools_hash_says_no_change_beside(tool: str) -> None:
    from orchestrator_boundary.cmd_trace import _beside

    rec = {"tool_name": tool, "trace": [{"path": "a.py", "sha256": "x"}]}
    assert _beside(rec, rec["trace"][0]) is False
    mcp = {**rec, "tool_name": "mcp__fs__write_file"}
    assert _beside(mcp, mcp["trace"][0]) is None
