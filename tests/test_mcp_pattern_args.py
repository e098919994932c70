"""An MCP tool that changes files and takes the files as a ``pattern``
(``mcp__fs__bulk_replace {"pattern": ".claude/*.json", ...}``): ``pattern`` was read as free
text (a search pattern), so the settings were rewritten by any subagent and a narrowed one wrote
outside its delegation (ADR 0081). A tool that only reads keeps ``pattern`` as text, and a
``pattern`` that does not look like files (``TODO``, ``\\bfoo\\b``) stays text."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_contracts_attack_r10 import Team

SCOPED = """\
phase = "enforce"

[agents.general_purpose]
write_scope = ["src/**"]
"""

PROTECTED = [".claude/settings.json", ".claude/*.json", ".claude\\settings.json", ".env"]


@pytest.mark.parametrize("pattern", PROTECTED)
def test_a_changing_tools_pattern_meets_the_protected_set(project: Path, pattern: str) -> None:
    team = Team(project)
    assert team.call("a1", "mcp__fs__bulk_replace", {"pattern": pattern, "replacement": "x"}) == (
        "TAMPER"
    )


@pytest.mark.parametrize("tool", ["mcp__fs__search_files", "mcp__fs__grep"])
def test_a_reading_tools_pattern_stays_text(project: Path, tool: str) -> None:
    team = Team(project)
    assert team.call("a1", tool, {"pattern": ".claude/settings.json"}) == "-"


@pytest.mark.parametrize("pattern", ["TODO", "\\bfoo\\b", "v1\\.\\d+", "foo.*bar"])
def test_a_pattern_that_is_text_stays_text(project: Path, pattern: str) -> None:
    team = Team(project)
    (project / ".claude" / "boundary.toml").write_text(SCOPED)
    assert team.call("a1", "mcp__fs__bulk_replace", {"pattern": pattern, "replacement": "x"}) == (
        "-"
    )


@pytest.mark.parametrize(("pattern", "code"), [("docs/*.md", "SCOPE_VIOLATION"), ("src/*.py", "-")])
def test_a_changing_tools_pattern_meets_the_write_scope(
    project: Path, pattern: str, code: str
) -> None:
    team = Team(project)
    (project / ".claude" / "boundary.toml").write_text(SCOPED)
    assert team.call("a1", "mcp__fs__bulk_replace", {"pattern": pattern, "replacement": "x"}) == (
        code
    )


@pytest.mark.parametrize(("pattern", "code"), [("src/billing/*.py", "DELEGATION_SCOPE"),
                                               ("src/billing/pay.py", "DELEGATION_SCOPE"),
                                               ("src/auth/*.py", "-")])  # fmt: skip
def test_a_changing_tools_pattern_meets_the_delegation(
    project: Path, pattern: str, code: str
) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth\nScope: src/auth/**")
    assert team.call("a1", "mcp__fs__bulk_replace", {"pattern": pattern, "content": "x"}) == code
