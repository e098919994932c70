"""A narrowed subagent's tool whose writes the guard cannot see (ADR 0085): Code Mode (REPL,
JavaScript) and an unknown (MCP) tool whose input names no file and no command. It is an
opaque command by another name: under `require = true` or a `Run:` line, refused unless the
line names the tool.

The rule, ``contract_rules.tool_contract``, is registered in ``policy.RULES`` after
``target_contract``, for the unknown and execute classes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_contracts_attack_r10 import SHARED, Team

REQUIRE = SHARED + "require = true\n"
READ_DOCS = '\n[tools]\n"mcp__docs__*" = "read"\n'


def _team(project: Path, config: str) -> Team:
    team = Team(project, "off")
    (project / ".claude" / "boundary.toml").write_text(config.format(leases="off"))
    return team


UNSEEN = [
    ("REPL", {"code": "await fs.writeFile('src/auth/login.py', 'x')"}),
    ("JavaScript", {"code": "1"}),
    ("mcp__db__migrate", {}),
    ("mcp__db__migrate", {"steps": 3, "dry_run": False}),
    ("mcp__shell__exec_script", {"name": "regen"}),
]


@pytest.mark.parametrize(("tool", "tool_input"), UNSEEN, ids=[f"{t}-{len(i)}" for t, i in UNSEEN])
@pytest.mark.parametrize(
    ("config", "run"),
    [(REQUIRE, ""), (SHARED, "\nRun: pytest"), (SHARED, "\nRun: none")],
    ids=["require", "run-line", "run-none"],
)
def test_a_tool_whose_writes_cannot_be_seen_needs_the_run_line(
    project: Path, tool: str, tool_input: dict[str, Any], config: str, run: str
) -> None:
    """A subagent held to `src/billing/**` (with a Run: line or under require) ran
    `mcp__db__migrate {}` or a REPL call: let through, though either may change any file."""
    team = _team(project, config)
    team.launch("a1", f"Fix the payment rounding.\nIntent: shared\nScope: src/billing/**{run}")
    assert team.call("a1", tool, tool_input) == "DELEGATION_SCOPE"


@pytest.mark.parametrize(("tool", "tool_input"), UNSEEN, ids=[f"{t}-{len(i)}" for t, i in UNSEEN])
def test_the_run_line_may_name_the_tool(
    project: Path, tool: str, tool_input: dict[str, Any]
) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", f"Migrate.\nIntent: shared\nScope: src/billing/**\nRun: pytest, {tool}")
    assert team.call("a1", tool, tool_input) == "-"


@pytest.mark.parametrize(
    ("config", "prompt", "tool", "tool_input"),
    [
        (SHARED, "Intent: shared", "mcp__db__migrate", {}),  # no require, no Run: line
        (REQUIRE + READ_DOCS, "Intent: shared", "mcp__docs__lookup", {"q": "react"}),  # read
        (REQUIRE, "Intent: shared", "mcp__context7__get_library_docs", {"id": "/vercel/next"}),
        (REQUIRE, "Intent: shared", "mcp__pyright__hover", {"line": 3}),  # its name reads
        (REQUIRE, "Intent: shared", "TaskCreate", {"subject": "x"}),  # coordination
        (REQUIRE, "Intent: shared", "Bash", {"command": "ls"}),
        (REQUIRE, "Intent: shared\nRun: pytest", "Bash", {"command": "pytest -q"}),
    ],
    ids=[
        "no-require",
        "classified-read",
        "name-reads",
        "name-reads-2",
        "coordinate",
        "bash-read",
        "bash-listed",
    ],
)
def test_what_the_rule_leaves_alone(
    project: Path, config: str, prompt: str, tool: str, tool_input: dict[str, Any]
) -> None:
    """Controls: README's delegation without require or a Run: line is judged as before
    (no first-week false alarm for a docs MCP server); a tool the config calls read, Claude
    Code's coordination tools and Bash are not this rule's."""
    team = _team(project, config)
    team.launch("a1", f"Fix the payment rounding.\n{prompt}")
    assert team.call("a1", tool, tool_input) == "-"


def test_the_main_agent_and_an_unnarrowed_subagent_are_not_held(project: Path) -> None:
    team = _team(project, "phase = 'enforce'\n[delegation]\nleases = '{leases}'\n")
    team.launch("a1", "Look around.\nRun: none")
    assert team.call("a1", "mcp__db__migrate", {}) == "-"


def test_a_delegating_subagent_hands_on_only_the_tools_it_may_run(project: Path) -> None:
    """a1 may run `mcp__db__migrate`; the subagent it starts with `Run: REPL` may not run
    REPL (a delegation hands on only part of its own Run: line, ADR 0080)."""
    team = _team(project, REQUIRE)
    team.launch("a1", "Migrate.\nIntent: shared\nRun: mcp__db__migrate")
    pre = team.payload(
        "PreToolUse",
        "Agent",
        {"description": "w", "prompt": "x\nIntent: shared\nRun: REPL, mcp__db__migrate"},
        "a1",
    )
    from conftest import run_hook

    assert run_hook(pre, team.env)[1] is None
    post = {
        **pre,
        "hook_event_name": "PostToolUse",
        "tool_response": {"status": "async_launched", "agentId": "a9"},
    }
    run_hook(post, team.env, "PostToolUse")
    assert team.call("a9", "REPL", {"code": "1"}) == "DELEGATION_SCOPE"
    assert team.call("a9", "mcp__db__migrate", {}) == "-"


def test_the_refusal_tells_the_main_agent_how(project: Path) -> None:
    from conftest import run_hook

    team = _team(project, REQUIRE)
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    out = run_hook(team.payload("PreToolUse", "mcp__db__migrate", {}, "a1"), team.env)[1]
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "mcp__db__migrate may change files the guard cannot see" in reason
    assert "`Run: mcp__db__migrate`" in reason
    assert '[tools] "mcp__db__migrate" = "read" (or "network")' in reason


def test_a_tool_the_config_calls_network_is_left_alone(project: Path) -> None:
    """Control: what the refusal suggests for a tool that changes no file works."""
    team = _team(project, REQUIRE + '\n[tools]\n"mcp__github__*" = "network"\n')
    team.launch("a1", "File the issue.\nIntent: shared")
    assert team.call("a1", "mcp__github__create_issue", {"title": "x"}) == "-"


def test_the_policy_registers_the_rule(project: Path) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    assert team.call("a1", "mcp__db__migrate", {}) == "DELEGATION_SCOPE"
