"""A broken config must not weaken anything (ADR 0004)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

from orchestrator_boundary.config import (
    Config,
    ConfigProblem,
    config_notes,
    load_config,
    parse_config,
)

BROKEN = [
    ("bad-toml", "phase = \n", "", "not valid TOML"),
    ("unknown-key", 'phse = "warn"\n', "phse", "unknown key (did you mean 'phase'?)"),
    (
        "unknown-nested-key",
        "[orchestrator]\nwrite_alow = []\n",
        "orchestrator.write_alow",
        "unknown key (did you mean 'write_allow'?)",
    ),
    (
        "wrong-type",
        '[orchestrator]\nwrite_allow = "STATE.md"\n',
        "orchestrator.write_allow",
        "valid list",
    ),
    ("far-from-any-key", "[bash]\nzzz = 1\n", "bash.zzz", "unknown key"),
    ("bad-phase", 'phase = "block"\n', "phase", "Input should be"),
    ("bad-class", '[tools]\n"mcp__x" = "harmless"\n', "tools.mcp__x", "Input should be"),
    (
        "bad-pattern",
        '[agents.coder]\nwrite_scope = ["../x"]\n',
        "agents.coder.write_scope",
        "'..' segments",
    ),
    ("bool-as-string", '[protect]\nbypass_opens = "yes"\n', "protect.bypass_opens", "boolean"),
]


@pytest.mark.parametrize(
    ("text", "key", "problem"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_problem_names_file_key_and_problem(text: str, key: str, problem: str) -> None:
    result = parse_config(text, "/p/.claude/boundary.toml")
    assert isinstance(result, ConfigProblem)
    assert (result.file, result.key) == ("/p/.claude/boundary.toml", key)
    assert problem in result.problem


@pytest.mark.parametrize("phase", ["off", "warn"])
@pytest.mark.parametrize(
    ("text", "key", "problem"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_broken_config_blocks_orchestrator_writes_as_in_enforce(
    project: Path, make_payload: Any, text: str, key: str, problem: str, phase: str
) -> None:
    (project / ".claude/boundary.toml").write_text(text)
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    rc, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert rc == 0 and out is not None
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "boundary.toml" in out["systemMessage"] and key in out["systemMessage"]


def test_broken_config_blocks_subagent_writes_but_not_reads(
    project: Path, make_payload: Any
) -> None:
    (project / ".claude/boundary.toml").write_text('phse = "warn"\n')
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    _, out, _ = run_hook(
        make_payload("Write", {"file_path": str(project / "a.py")}, subagent=True), env
    )
    assert (
        out is not None
        and "CONFIG_INVALID" in out["hookSpecificOutput"]["permissionDecisionReason"]
    )
    _, out, _ = run_hook(make_payload("Read", {"file_path": str(project / "a.py")}), env)
    assert out is not None and "hookSpecificOutput" not in out and "phse" in out["systemMessage"]


def test_invalid_phase_in_environment_is_a_problem_not_a_loosening(
    project: Path, make_payload: Any
) -> None:
    env = {"CLAUDE_PROJECT_DIR": str(project), "ORCHESTRATOR_BOUNDARY_PHASE": "of"}
    _, out, _ = run_hook(make_payload("Write", {"file_path": str(project / "a.py")}), env)
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "ORCHESTRATOR_BOUNDARY_PHASE" in out["systemMessage"]


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(str(tmp_path / "none.toml")) == Config()


def test_home_patterns_expand(tmp_path: Path) -> None:
    cfg = parse_config('[bash]\nallow_write = ["~/.cache/**", "!~/.cache/x/**"]\n', "f", "/home/u")
    assert isinstance(cfg, Config)
    assert cfg.bash.allow_write == ["/home/u/.cache/**", "!/home/u/.cache/x/**"]


def test_example_config_is_valid() -> None:
    from conftest import REPO

    result = load_config(str(REPO / "examples" / "boundary.toml"))
    assert isinstance(result, Config), result
    assert set(result.agents) >= {"explorer", "planner", "coder", "reviewer"}
    assert result.agents["coder"].tools is not None and "Bash" not in result.agents["coder"].tools


def test_tool_names_no_tool_has_are_warnings_not_errors() -> None:
    text = """
[orchestrator]
allow_tools = ["mcp__db__query", "Bahs"]
[agents.planner]
tools = ["Read", "TodoWrite", "bash"]
[tools]
"Frobnicate" = "read"
"mcp__x__*" = "read"
"""
    loaded = parse_config(text, "boundary.toml")
    assert isinstance(loaded, Config)  # the config still loads: nothing is loosened by a note
    notes = config_notes(loaded)
    assert notes == [
        "orchestrator.allow_tools: no Claude Code tool or tool class is named 'Bahs'; did you "
        "mean 'Bash'?",
        "agents.planner.tools: no Claude Code tool or tool class is named 'bash'; did you mean "
        "'Bash'?",
        "agents.planner.tools: TodoWrite is a retired name; it covers TaskCreate, TaskGet, "
        "TaskList and TaskUpdate.",
        "tools: no Claude Code tool is named 'Frobnicate'.",
    ]
    assert config_notes(Config()) == []
