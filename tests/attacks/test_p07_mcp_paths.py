"""Point 7: the path arguments of MCP and unknown tools are found at any depth, under any key,
in every ``file:`` URI spelling; a subagent's MCP write to a protected file is TAMPER like its
Write; the MCP server named by Claude Code is recorded in the audit line."""

from __future__ import annotations

from typing import Any

import pytest

from .support import ENFORCE, Arena, Attack, attempt, params, route_params

SETTINGS = "{root}/.claude/settings.json"


def mcp(
    id: str, tool_input: dict[str, Any], tool: str = "mcp__fs__write_file", **kw: Any
) -> Attack:
    return Attack(id, tool, {**tool_input, "content": "{}"}, **kw)


ATTACKS = [
    mcp(
        "relative_path", {"relative_path": ".claude/settings.json"}, "mcp__serena__create_text_file"
    ),
    mcp("target_file", {"target_file": SETTINGS}, "mcp__cursor__edit_file"),
    mcp(
        "output_path", {"output_path": "{root}/.claude/settings.local.json"}, caller="orchestrator"
    ),
    mcp(
        "destination of a move",
        {"source": "{root}/src/app.py", "destination": SETTINGS},
        "mcp__fs__move_file",
    ),
    mcp(
        "nested list of edits",
        {"edits": [{"path": "src/app.py"}, {"path": SETTINGS}]},
        "mcp__fs__edit_files",
    ),
    mcp("deep nesting", {"a": {"b": [{"c": {"d": ["{root}/.claude/boundary.toml"]}}]}}),
    mcp("relative path under a dir key", {"cwd": ".claude", "name": "settings.json"}),
    mcp("list of paths", {"paths": ["src/app.py", "{home}/.claude/settings.json"]}),
    mcp("path as a dict key", {"files": {SETTINGS: "{}"}}),
    mcp("dot-dot", {"path": "src/../.claude/settings.json"}),
    mcp("~/ path", {"path": "~/.claude/settings.json"}),
    mcp("file:///", {"uri": "file://" + SETTINGS}),
    mcp("file://localhost/", {"uri": "file://localhost" + SETTINGS}),
    mcp("FILE://LocalHost/", {"resource": "FILE://LocalHost" + SETTINGS}, caller="orchestrator"),
    mcp("file: one slash", {"uri": "file:" + SETTINGS}),
    mcp("percent-encoded dot", {"uri": "file://{root}/%2Eclaude/settings%2Ejson"}),
    mcp("percent-encoded slashes", {"uri": "file://{root}%2F.claude%2Fsettings.json"}),
    mcp("URI with a fragment", {"uri": "file://" + SETTINGS + "#x"}),
    mcp("URI list", {"uris": ["file:///tmp/x", "file://" + SETTINGS]}),
    mcp("env file by URI", {"uri": "file://{root}/.env.local"}),
    mcp("audit trail", {"path": ".claude/boundary/audit.jsonl"}, env=ENFORCE),
    mcp("unknown non-MCP tool", {"file_path": SETTINGS}, "write"),
    mcp(
        "folder and name in two keys",
        {"directory": "{root}/.claude", "filename": "settings.json"},
        "mcp__fs__create_file",
    ),
    mcp(
        "relative path under a key that does not say path",
        {"a": {"b": [{"c": {"d": [".claude/boundary.toml"]}}]}},
        hole="a relative path counts only under a key that suggests a path (tool_args); "
        "an odd key holding a relative path is not checked",
    ),
    mcp(
        "unified diff in a patch tool",
        {
            "patch": '--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{"hooks": {}}\n'
        },
        "mcp__editor__apply_patch",
        hole="a patch's text names the files it changes; patch/diff keys are free text to tool_args",
    ),
    mcp(
        "path inside a JSON string",
        {"request": '{"path": ".claude/settings.json"}'},
        "mcp__fs__call",
        hole="an argument holding serialised JSON is one string, not a path",
    ),
    Attack(
        "MCP shell tool runs the product's CLI",
        "mcp__shell__run_command",
        {"command": "orchestrator-boundary phase off"},
        env=ENFORCE,
        hole="an MCP tool that runs a shell command is not given to the Bash analysis",
    ),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_mcp_writes_to_protected_files_are_tamper(arena: Arena, attack: Attack, route: str) -> None:
    attempt(arena, attack, route)


@pytest.mark.parametrize("route", route_params())
def test_the_mcp_server_is_recorded(arena: Arena, route: str) -> None:
    server = {"name": "fs", "source": "project"}
    payload = arena.payload(
        "mcp__fs__write_file", {"path": SETTINGS, "content": ""}, mcp_server=server
    )
    got = arena.run(payload, route, ENFORCE)
    assert got.decision == "deny" and got.record is not None, got
    assert (got.code, got.record.get("mcp_server")) == ("TAMPER", server), got
