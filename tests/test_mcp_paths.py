"""Issue 13 point 7: the path arguments of MCP and unknown tools are found at any depth, in
any key and any ``file:`` URI spelling; the MCP server is recorded in the audit line.

Through the hook shell (``shell.evaluate``) against a real project in tmp_path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from harden_support import Project, make_project, parse_answer

from orchestrator_boundary.tool_args import (
    MAX_DEPTH,
    MAX_NODES,
    MAX_PATHS,
    file_uri_paths,
    path_arguments,
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


SETTINGS = ".claude/settings.json"

# (tool input from the project root) -> every one rewrites the project settings
ATTACKS: dict[str, Callable[[Path], dict[str, Any]]] = {
    "relative_path": lambda r: {"relative_path": SETTINGS, "content": "{}"},
    "target_file": lambda r: {"target_file": str(r / SETTINGS), "content": "{}"},
    "output_path": lambda r: {"output_path": str(r / SETTINGS)},
    "camelCase savePath": lambda r: {"savePath": SETTINGS},
    "short key to": lambda r: {"from": "src/a.py", "to": SETTINGS},
    "nested edits[].path": lambda r: {"edits": [{"path": str(r / SETTINGS), "text": "x"}]},
    "deep nesting": lambda r: {"a": {"b": [{"c": {"d": [str(r / SETTINGS)]}}]}},
    "absolute under an odd key": lambda r: {"spec": {"where_to": "x", "x": str(r / SETTINGS)}},
    "list of paths": lambda r: {"targets": ["src/a.py", SETTINGS]},
    "file:///": lambda r: {"uri": f"file://{r}/{SETTINGS}"},
    "file://localhost/": lambda r: {"uri": f"file://localhost{r}/{SETTINGS}"},
    "FILE://LOCALHOST/": lambda r: {"resource": f"FILE://LOCALHOST{r}/{SETTINGS}"},
    "file:/ one slash": lambda r: {"uri": f"file:{r}/{SETTINGS}"},
    "percent-encoded": lambda r: {"uri": "file://" + quote(f"{r}/{SETTINGS}", safe="")},
    "percent-encoded dot": lambda r: {"uri": f"file://{r}/.claude/settings%2Ejson"},
    "URI with a fragment": lambda r: {"uri": f"file://{r}/{SETTINGS}#top"},
    "URI in a list": lambda r: {"uris": ["file:///tmp/x", f"file://{r}/{SETTINGS}"]},
    "padded with spaces": lambda r: {"args": {"p": f"  {r}/{SETTINGS} "}},
    "path as a dict key": lambda r: {"files": {str(r / SETTINGS): "{}"}},
    "user settings as ~/": lambda r: {"path": "~/.claude/settings.json"},
    "user settings as file:~/": lambda r: {"uri": "file:~/.claude/settings.json"},
}


@pytest.mark.parametrize("attack", list(ATTACKS), ids=list(ATTACKS))
@pytest.mark.parametrize("phase", ["warn", "enforce"])
def test_subagent_mcp_writes_to_protected_files_are_tamper(
    project: Project, attack: str, phase: str
) -> None:
    """Attack: a subagent rewrites the settings through an MCP write tool whose path argument
    has an unusual key, sits in a nested object, or is a file URI."""
    tool_input = ATTACKS[attack](project.root)
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": phase}
    for tool in ("mcp__fs__write_file", "mcp__serena__create_text_file"):
        decision, code, _ = project.judge(tool, tool_input, agent="coder", env=env)
        assert (decision, code) == ("deny", "TAMPER"), tool


@pytest.mark.parametrize("attack", list(ATTACKS), ids=list(ATTACKS))
def test_orchestrators_unknown_tool_with_protected_args_is_denied(
    project: Project, attack: str
) -> None:
    """The main agent's unknown tool is UNKNOWN_TOOL anyway; with a protected path it is
    TAMPER, which holds in warn too."""
    tool_input = ATTACKS[attack](project.root)
    for phase in ("warn", "enforce"):
        env = {"ORCHESTRATOR_BOUNDARY_PHASE": phase}
        assert project.judge("some_plugin_tool", tool_input, env=env)[:2] == ("deny", "TAMPER")


# Harmless inputs: the verdict is the one the tool would get without any path in it.
HARMLESS: dict[str, dict[str, Any]] = {
    "read a source file": {"relative_path": "src/app.py"},
    "nested ordinary paths": {"edits": [{"path": "src/a.py"}, {"path": "docs/x.md"}]},
    "ordinary file URI": {"uri": "file:///tmp/elsewhere/notes.md"},
    "a web URL": {"url": "https://example.com/.claude/settings.json"},
    "a path only mentioned in text": {"body": "see .claude/settings.json", "title": "x"},
    "an absolute path in a message": {"message": "/etc/claude-code/managed-settings.json"},
    "no path at all": {"query": "select 1", "limit": 10},
}


@pytest.mark.parametrize("case", list(HARMLESS), ids=list(HARMLESS))
def test_harmless_mcp_arguments_keep_their_verdict(project: Project, case: str) -> None:
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    tool_input = HARMLESS[case]
    assert project.judge("mcp__fs__read_file", tool_input, agent="coder", env=env)[:2] == (
        "none",
        None,
    )
    # another session: in this one the subagent's call above may be writing src/app.py (an
    # unknown tool may write), which the main agent would be told first (STALE_FILE, ADR 0059)
    assert project.judge("mcp__fs__read_file", tool_input, env=env, session_id="s2")[:2] == (
        "deny",
        "UNKNOWN_TOOL",
    )
    project.configure('[tools]\n"mcp__fs__read_*" = "read"\n')
    assert project.judge("mcp__fs__read_file", tool_input, env=env)[:2] == ("none", None)


def _too_many() -> dict[str, Any]:
    return {"paths": [f"src/f{n}.py" for n in range(MAX_PATHS + 5)] + [SETTINGS]}


def _too_deep() -> dict[str, Any]:
    nested: Any = SETTINGS
    for _ in range(MAX_DEPTH + 8):
        nested = {"path": nested}
    return nested


def _too_large() -> dict[str, Any]:
    # breadth first: the path sits below the rows' values, which use up the values visited
    return {"rows": [[n] for n in range(MAX_NODES)], "then": {"more": {"path": SETTINGS}}}


PAST_BOUNDS: dict[str, Callable[[], dict[str, Any]]] = {
    "more paths than are checked": _too_many,
    "deeper than is checked": _too_deep,
    "more values than are looked at": _too_large,
}
PHASES = {
    "warn": {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
    "enforce": {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    "warn + bypass": {"ORCHESTRATOR_BOUNDARY_PHASE": "warn", "AMPLIFIER_BYPASS_BOUNDARY": "1"},
}
# every scope covers everything: the subagent may write anywhere, the main agent may use the tool
WIDE_OPEN = """
[orchestrator]
write_allow = ["**", "/**"]
allow_tools = ["mcp__fs__*"]

[agents.coder]
write_scope = ["**", "/**"]
"""


@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("caller", ["main", "coder", "general-purpose"])
@pytest.mark.parametrize("shape", list(PAST_BOUNDS))
def test_an_input_past_the_scan_bounds_is_tamper_for_every_agent_in_every_phase(
    project: Project, shape: str, caller: str, phase: str
) -> None:
    """Attack: hide the protected path where the scan does not look (behind more paths than
    are checked, deeper than it goes, after more values than it visits), as an agent whose
    scope would let an ordinary write through, in warn or under the bypass."""
    project.configure(WIDE_OPEN)
    agent = None if caller == "main" else caller
    decision, code, answer = project.judge(
        "mcp__fs__write_many", PAST_BOUNDS[shape](), agent=agent, env=PHASES[phase]
    )
    assert (decision, code) == ("deny", "TAMPER")
    out = parse_answer(answer)
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "protected: an input too large to check" in reason
    assert "larger than is checked" in reason


def test_an_input_past_the_scan_bounds_is_only_recorded_when_off(project: Project) -> None:
    project.configure(WIDE_OPEN)
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "off"}
    decision, code, _ = project.judge("mcp__fs__write_many", _too_many(), agent="coder", env=env)
    assert (decision, code) == ("none", "TAMPER")


def test_inputs_within_the_bounds_are_judged_as_usual(project: Project) -> None:
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    few = {"paths": _too_many()["paths"][:3]}
    assert project.judge("mcp__fs__write_many", few, agent="coder", env=env)[:2] == ("none", None)
    nested: Any = "src/a.py"
    for _ in range(MAX_DEPTH - 2):
        nested = {"path": nested}
    assert project.judge("mcp__fs__write", nested, agent="coder", env=env)[:2] == ("none", None)


URIS = [
    ("file:///a/b", ["/a/b"]),
    ("file://localhost/a/b", ["/a/b"]),
    ("file://LocalHost/a/b", ["/a/b"]),
    ("file:/a/b", ["/a/b"]),
    ("file:///a/b%20c", ["/a/b c", "/a/b%20c"]),
    ("file:C:/x/y", ["C:/x/y"]),
    ("file:///C:/x/y", ["C:/x/y"]),
    ("file://localhost/C:/x", ["C:/x"]),
    ("file:///C|/x", ["C:/x"]),
    ("file:///c%3A/x", ["c:/x", "/c%3A/x"]),
    ("file://server/share/x", ["//server/share/x", "server/share/x"]),  # ADR 0071
    ("file:rel/x", ["rel/x"]),
    ("file:///a?b", ["/a?b", "/a"]),
    ("https://x/y", []),
    ("profile:x", []),
]


@pytest.mark.parametrize(("uri", "paths"), URIS, ids=[u for u, _ in URIS])
def test_file_uri_spellings(uri: str, paths: list[str]) -> None:
    assert file_uri_paths(uri) == paths


def test_path_arguments_keep_order_and_report_completeness() -> None:
    found, complete = path_arguments(
        {"content": "/not/a/target", "path": "a", "more": [{"dest": "b"}, "/c"], "n": 3}
    )
    assert (found, complete) == (["a", "/c", "b"], True)


MCP_SERVER = {"name": "fs", "source": "project"}


def test_mcp_server_is_recorded_in_the_audit_line(project: Project) -> None:
    data = project.payload(
        "mcp__fs__read_file", {"path": "src/app.py"}, agent="coder", mcp_server=MCP_SERVER
    )
    _, rec = project.call(data, env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"})
    assert rec["mcp_server"] == MCP_SERVER
    assert list(rec).index("mcp_server") == list(rec).index("tool_name") + 1


@pytest.mark.parametrize(
    "sent",
    [None, "fs", 3, {"other": 1}, ["fs"]],
    ids=["null", "string", "number", "no known field", "list"],
)
def test_odd_mcp_server_values_are_not_recorded_and_do_not_break_the_call(
    project: Project, sent: object
) -> None:
    data = project.payload("mcp__fs__read_file", {"path": "src/app.py"}, agent="coder")
    data["mcp_server"] = sent
    _, rec = project.call(data, env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"})
    assert "mcp_server" not in rec
    assert (rec["decision"], rec["error"]) == ("none", None)
