from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

from orchestrator_boundary.tools import (
    BUILTIN,
    COMMAND_KEYS,
    LEGACY,
    PATH_KEYS,
    ToolClass,
    classify,
    expand_profile_names,
    says_it_changes,
    tool_list_notes,
    unknown_tool_names,
)

PROTOCOL_TOOLS = {
    "Write": "write",
    "Edit": "write",
    "MultiEdit": "write",
    "NotebookEdit": "write",
    "Read": "read",
    "Glob": "search",
    "Grep": "search",
    "LSP": "search",
    "Bash": "execute",
    "PowerShell": "execute",
    "Monitor": "execute",
    "REPL": "execute",
    "Eval": "execute",
    "Agent": "delegate",
    "Task": "delegate",
    "Workflow": "delegate",
    "RemoteTrigger": "delegate",
    "WebFetch": "network",
    "WebSearch": "network",
    "Artifact": "network",
    "Projects": "network",
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
    "EnterWorktree": "coordinate",
    "ExitWorktree": "coordinate",
    "SendMessage": "coordinate",
    "ListAgents": "coordinate",
    "Skill": "coordinate",
    "ToolSearch": "search",
    "LS": "read",
    "BashOutput": "read",
    "KillShell": "coordinate",
    "KillBash": "coordinate",
    "SlashCommand": "coordinate",
    "ReadMcpResourceDirTool": "read",
    "ReadMcpResourceDir": "read",
}

# The tools that run the session rather than change files (issue 14): the orchestrator's own
# work, never denied to it.
COORDINATION = [
    "SendMessage",
    "ListAgents",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskStop",
    "TaskOutput",
    "ScheduleWakeup",
    "CronCreate",
    "CronDelete",
    "CronList",
    "EnterWorktree",
    "ExitWorktree",
    "ToolSearch",
    "Skill",
    "AskUserQuestion",
    "EnterPlanMode",
    "ExitPlanMode",
    "PushNotification",
    "RemoteTrigger",
    "ReadMcpResourceDirTool",
    "ReadMcpResourceTool",
    "RefreshMcpTools",
    "ListMcpResourcesTool",
    "SendUserMessage",
    "SetGoal",
    "WaitForMcpServers",
    "ReportFindings",
    "Workflow",
    "Agent",
]


@pytest.mark.parametrize(("name", "cls"), sorted(PROTOCOL_TOOLS.items()))
def test_every_protocol_tool_has_its_class(name: str, cls: str) -> None:
    assert classify(name).tool_class.value == cls


@pytest.mark.parametrize("name", COORDINATION)
def test_coordination_tools_are_neither_unknown_nor_writes(name: str) -> None:
    assert classify(name) == classify(name, {})
    assert classify(name).source == "builtin"
    assert classify(name).tool_class not in (ToolClass.UNKNOWN, ToolClass.WRITE, ToolClass.EXECUTE)


# (tool, input): the coordination tools, and Monitor watching a log (an execute-class tool whose
# command is judged like Bash: reading is fine).
ORCHESTRATOR_CALLS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in COORDINATION),
    ("SendMessage", {"to": "coder", "message": "Also update the tests."}),
    ("Workflow", {"script": "export const meta = {name: 'x', description: 'y', phases: []}"}),
    ("ScheduleWakeup", {"delaySeconds": 60, "reason": "poll", "prompt": "/loop", "noop": True}),
    ("CronCreate", {"cron": "*/5 * * * *", "prompt": "check CI", "durable": True}),
    ("EnterWorktree", {"name": "feature-x"}),
    ("ExitWorktree", {"action": "keep"}),
    ("Monitor", {"description": "build log", "timeout_ms": 60000, "command": "tail -f build.log"}),
    ("Artifact", {"file_path": "@ROOT@/report.html"}),
]


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    ORCHESTRATOR_CALLS,
    ids=[f"{t}-{i}" for i, (t, _) in enumerate(ORCHESTRATOR_CALLS)],
)
def test_coordination_tools_are_never_denied_to_the_orchestrator_in_enforce(
    project: Path, make_payload: Any, tool: str, tool_input: dict[str, Any]
) -> None:
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    concrete = {
        k: v.replace("@ROOT@", str(project)) if isinstance(v, str) else v
        for k, v in tool_input.items()
    }
    payload = make_payload(tool, concrete)
    assert run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)}) == (0, None, "")


def test_monitor_command_that_writes_is_judged_like_bash(project: Path, make_payload: Any) -> None:
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    payload = make_payload(
        "Monitor", {"description": "x", "timeout_ms": 1000, "command": "echo hi > out.txt"}
    )
    _, out, _ = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)})
    assert out is not None
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "BASH_WRITE" in out["hookSpecificOutput"]["permissionDecisionReason"]


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


def test_write_tools_name_their_file_and_execute_tools_their_command() -> None:
    writes = {n for n, c in BUILTIN.items() if c is ToolClass.WRITE}
    executes = {n for n, c in BUILTIN.items() if c is ToolClass.EXECUTE}
    assert set(PATH_KEYS) == writes
    assert set(COMMAND_KEYS) == executes
    assert {language for _, language in COMMAND_KEYS.values()} == {"bash", "powershell", "code"}


def test_retired_names_keep_their_class_and_name_current_successors() -> None:
    for old, successors in LEGACY.items():
        assert old in BUILTIN, old
        for new in successors:
            assert new in BUILTIN and new not in LEGACY, (old, new)
            # a successor may only read or search where the old tool read
            same = BUILTIN[new] is BUILTIN[old]
            assert same or {BUILTIN[old], BUILTIN[new]} == {ToolClass.READ, ToolClass.SEARCH}


EXPANSIONS: list[tuple[str, list[str], set[str]]] = [
    (
        "todowrite-covers-the-task-list",
        ["Read", "TodoWrite"],
        {"Read", "TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate"},
    ),
    ("task-is-agent", ["Task"], {"Task", "Agent"}),
    (
        "killshell-and-killbash-are-taskstop",
        ["KillShell", "KillBash"],
        {"KillShell", "KillBash", "TaskStop"},
    ),
    ("bashoutput-is-taskoutput", ["BashOutput"], {"BashOutput", "TaskOutput"}),
    ("ls-is-glob", ["LS"], {"LS", "Glob"}),
    ("multiedit-is-edit", ["MultiEdit"], {"MultiEdit", "Edit"}),
    ("eval-is-repl", ["Eval"], {"Eval", "REPL"}),
    ("current-names-unchanged", ["Write", "Edit", "coordinate"], {"Write", "Edit", "coordinate"}),
    ("patterns-unchanged", ["Todo*", "mcp__db__*"], {"Todo*", "mcp__db__*"}),
    ("empty", [], set()),
]


@pytest.mark.parametrize(
    ("names", "expected"), [(n, e) for _, n, e in EXPANSIONS], ids=[i for i, _, _ in EXPANSIONS]
)
def test_expand_profile_names(names: list[str], expected: set[str]) -> None:
    assert expand_profile_names(names) == frozenset(expected)


def test_todowrite_does_not_grant_stopping_tasks() -> None:
    assert "TaskStop" not in expand_profile_names(["TodoWrite"])


UNKNOWN_NAMES: list[tuple[str, list[str], list[tuple[str, str | None]]]] = [
    ("all-known", ["Read", "TodoWrite", "coordinate", "write", "Monitor"], []),
    ("mcp-and-patterns-pass", ["mcp__github__create_issue", "Task*", "mcp__db__*"], []),
    ("case-matters", ["bash", "READ"], [("bash", "Bash"), ("READ", "Read")]),
    (
        "typo-of-a-tool",
        ["SendMesage", "TaskCreat"],
        [("SendMesage", "SendMessage"), ("TaskCreat", "TaskCreate")],
    ),
    ("typo-of-a-class", ["coordinat", "exec"], [("coordinat", "coordinate"), ("exec", "execute")]),
    ("no-suggestion", ["FrobnicateTheWidget"], [("FrobnicateTheWidget", None)]),
    ("each-once-in-order", ["Zzz", "bash", "Zzz"], [("Zzz", None), ("bash", "Bash")]),
]


@pytest.mark.parametrize(
    ("names", "expected"),
    [(n, e) for _, n, e in UNKNOWN_NAMES],
    ids=[i for i, _, _ in UNKNOWN_NAMES],
)
def test_unknown_tool_names_with_did_you_mean(
    names: list[str], expected: list[tuple[str, str | None]]
) -> None:
    assert unknown_tool_names(names) == expected


def test_every_known_name_and_class_is_not_unknown() -> None:
    assert unknown_tool_names([*BUILTIN, *(c.value for c in ToolClass)]) == []


def test_tool_list_notes_are_sentences_for_doctor() -> None:
    assert tool_list_notes("agents.coder.tools", ["Read", "TodoWrit", "Frobnicate", "Task"]) == [
        "agents.coder.tools: no Claude Code tool or tool class is named 'TodoWrit'; "
        "did you mean 'TodoWrite'?",
        "agents.coder.tools: no Claude Code tool or tool class is named 'Frobnicate'.",
        "agents.coder.tools: Task is a retired name; it covers Agent.",
    ]
    assert tool_list_notes("agents.x.tools", ["TodoWrite"]) == [
        "agents.x.tools: TodoWrite is a retired name; it covers TaskCreate, TaskGet, TaskList "
        "and TaskUpdate."
    ]
    assert tool_list_notes("orchestrator.allow_tools", ["mcp__db__*", "Read"]) == []


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("mcp__filesystem__write_file", True),
        ("mcp__filesystem__editFile", True),
        ("mcp__fs__move-file", True),
        ("mcp__db__runQuery", True),
        ("mcp__filesystem__read_text_file", False),
        ("mcp__filesystem__list_directory", False),
        ("mcp__x__get_settings", False),  # "settings" is no "set"
        ("mcp__x__reset_cache", True),  # no word that says it reads (ADR 0071)
    ],
    ids=lambda v: str(v),
)
def test_an_mcp_tools_name_says_whether_it_changes_files(name: str, changes: bool) -> None:
    """ADR 0066: a config pattern that calls such a tool ``read`` keeps its input guarded."""
    assert says_it_changes(name) is changes
