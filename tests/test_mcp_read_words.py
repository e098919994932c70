"""A language server's or a code navigator's questions (``mcp__pyright__hover``,
``mcp__language-server__references``) asked by a subagent whose ``write_scope`` does not hold
the file were SCOPE_VIOLATION since ADR 0078 made an MCP path argument meet the write scope:
their names had no reading word. Tools whose names say they change files still meet it
(ADR 0081)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_contracts_attack_r10 import Team

SCOPED = 'phase = "enforce"\n\n[agents.general_purpose]\nwrite_scope = ["src/auth/**"]\n'
QUESTIONS = [
    "mcp__pyright__hover",
    "mcp__language-server__definition",
    "mcp__language-server__references",
    "mcp__language-server__diagnostics",
    "mcp__serena__get_symbols_overview",
    "mcp__lsp__documentSymbols",
    "mcp__mypy__check_file",
]
CHANGES = ["mcp__serena__replace_symbol_body", "mcp__lsp__rename_symbol", "mcp__fs__write_file"]


@pytest.mark.parametrize("tool", QUESTIONS)
def test_a_question_about_a_file_outside_the_scope_is_asked(project: Path, tool: str) -> None:
    team = Team(project)
    (project / ".claude" / "boundary.toml").write_text(SCOPED)
    assert team.call("a1", tool, {"relative_path": "src/billing/pay.py", "line": 1}) == "-"


@pytest.mark.parametrize("tool", CHANGES)
def test_a_change_outside_the_scope_is_refused(project: Path, tool: str) -> None:
    team = Team(project)
    (project / ".claude" / "boundary.toml").write_text(SCOPED)
    code = team.call("a1", tool, {"relative_path": "src/billing/pay.py", "body": "x"})
    assert code == "SCOPE_VIOLATION"
