from __future__ import annotations

import pytest

from orchestrator_boundary.tools import BUILTIN, ToolClass, classify

PROTOCOL_TOOLS = {
    "Write": "write",
    "Edit": "write",
    "MultiEdit": "write",
    "NotebookEdit": "write",
    "Read": "read",
    "Glob": "search",
    "Grep": "search",
    "Bash": "execute",
    "PowerShell": "execute",
    "Agent": "delegate",
    "Task": "delegate",
    "WebFetch": "network",
    "WebSearch": "network",
    "TodoWrite": "coordinate",
    "TaskCreate": "coordinate",
    "TaskUpdate": "coordinate",
    "TaskGet": "coordinate",
    "TaskList": "coordinate",
    "TaskOutput": "read",
    "TaskStop": "coordinate",
    "AskUserQuestion": "coordinate",
    "ExitPlanMode": "coordinate",
    "EnterPlanMode": "coordinate",
    "Skill": "coordinate",
    "ToolSearch": "search",
    "LS": "read",
    "BashOutput": "read",
    "KillShell": "coordinate",
    "KillBash": "coordinate",
    "SlashCommand": "coordinate",
}


@pytest.mark.parametrize(("name", "cls"), sorted(PROTOCOL_TOOLS.items()))
def test_every_protocol_tool_has_its_class(name: str, cls: str) -> None:
    assert classify(name).tool_class.value == cls


@pytest.mark.parametrize(
    "name", ["mcp__github__create_issue", "mcp__x__read", "NewTool", "write", "bash", ""]
)
def test_unknown_and_mcp_tools_are_unknown(name: str) -> None:
    assert classify(name).tool_class is ToolClass.UNKNOWN


def test_config_overrides_exact_beats_pattern_and_longest_pattern_wins() -> None:
    overrides = {
        "mcp__gh__*": ToolClass.READ,
        "mcp__gh__create_*": ToolClass.WRITE,
        "mcp__gh__create_label": ToolClass.COORDINATE,
        "Read": ToolClass.UNKNOWN,
    }
    assert classify("mcp__gh__list", overrides).tool_class is ToolClass.READ
    assert classify("mcp__gh__create_issue", overrides).tool_class is ToolClass.WRITE
    assert classify("mcp__gh__create_label", overrides).tool_class is ToolClass.COORDINATE
    assert classify("Read", overrides).tool_class is ToolClass.UNKNOWN
    assert (
        classify("mcp__gh__create_label", overrides).source == "config: tools.mcp__gh__create_label"
    )


def test_every_class_has_a_builtin_member_but_unknown() -> None:
    assert set(BUILTIN.values()) == set(ToolClass) - {ToolClass.UNKNOWN}
