"""Round eleven's attack on the tools that are not Bash (ADR 0078).

Each row runs the real decision (``shell.evaluate``) on a payload against a real project in
tmp_path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
CONFIG = """
[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[tools]
"mcp__gh__get_file" = "read"

[agents.coder]
write_scope = ["src/**", "!src/secrets/**"]
"""


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    (p.root / "src" / "a.py").write_text("1\n")
    p.configure(CONFIG)
    return p


# ---- an MCP tool's path argument and the agent type's write_scope ----
# Before: an unknown tool's (an MCP server's) path arguments met the protected set and a
# delegation's scope (ADR 0050), not the agent type's write_scope: a coder held to src/**
# wrote docs/ and the excluded src/secrets/ through mcp__fs__write_file in every phase.
# (id, who, tool, input, decision in warn, code)
MCP: list[tuple[str, str | None, str, dict[str, Any], str, str | None]] = [
    ("outside-absolute", "coder", "mcp__fs__write_file", {"path": "{root}/docs/x.md", "content": "x"}, "warn", "SCOPE_VIOLATION"),
    ("outside-relative", "coder", "mcp__fs__write_file", {"path": "docs/x.md", "content": "x"}, "warn", "SCOPE_VIOLATION"),
    ("excluded", "coder", "mcp__fs__write_file", {"path": "src/secrets/k.pem", "content": "x"}, "warn", "SCOPE_VIOLATION"),
    ("outside-the-project", "coder", "mcp__fs__write_file", {"path": "/tmp/x.txt", "content": "x"}, "warn", "SCOPE_VIOLATION"),  # ADR 0083
    ("says-it-reads", "coder", "mcp__fs__read_file", {"path": "docs/x.md"}, "none", None),
    ("no-reading-word", "coder", "mcp__fs__frob", {"target": "docs/x.md"}, "warn", "SCOPE_VIOLATION"),
    ("file-uri", "coder", "mcp__fs__write_file", {"uri": "file://{root}/docs/x.md", "content": "x"}, "warn", "SCOPE_VIOLATION"),
    ("nested-key", "coder", "mcp__fs__edit", {"edits": [{"file_path": "{root}/docs/x.md"}]}, "warn", "SCOPE_VIOLATION"),
    # what stays: inside the scope, a tool the config calls read, text that is no path argument,
    # an agent type with no write_scope, the main agent (UNKNOWN_TOOL as before)
    ("inside", "coder", "mcp__fs__write_file", {"path": "src/a.py", "content": "x"}, "none", None),
    ("inside-absolute", "coder", "mcp__fs__write_file", {"path": "{root}/src/b.py", "content": "x"}, "none", None),
    ("read-tool", "coder", "mcp__gh__get_file", {"path": "docs/x.md"}, "none", None),
    ("loose-text", "coder", "mcp__slack__post", {"text": "see docs/x.md please"}, "none", None),
    ("no-scope", "helper", "mcp__fs__write_file", {"path": "docs/x.md", "content": "x"}, "none", None),
    ("main", None, "mcp__fs__write_file", {"path": "src/a.py", "content": "x"}, "warn", "UNKNOWN_TOOL"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in MCP],
    ids=[row[0] for row in MCP],
)
def test_an_mcp_path_argument_meets_the_write_scope(
    project: Project,
    who: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    def filled(v: Any) -> Any:
        if isinstance(v, str):
            return v.replace("{root}", str(project.root))
        if isinstance(v, list):
            return [filled(x) for x in v]
        if isinstance(v, dict):
            return {k: filled(x) for k, x in v.items()}
        return v

    given = filled(tool_input)
    assert project.judge(tool, given, agent=who, env=WARN)[:2] == (decision, code)


def test_the_message_names_the_scope(project: Project) -> None:
    given = {"path": "docs/x.md", "content": "x"}
    enforce = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    _, _, answer = project.judge("mcp__fs__write_file", given, agent="coder", env=enforce)
    text = answer.stdout
    assert "docs/x.md" in text
    assert "src/**" in text


# ---- a config typo's hint ----
# Before: `[protect] path = [...]` (for `paths`) was refused with "did you mean 'path'?": the
# hint named the key as written, since `[audit]` has a `path`; a team fixing it saw no fix.
def test_a_typo_is_hinted_with_another_key() -> None:
    from orchestrator_boundary.config import ConfigProblem, parse_config

    problem = parse_config('[protect]\npath = ["infra/**"]\n', "boundary.toml")
    assert isinstance(problem, ConfigProblem)
    assert problem.key == "protect.path"
    assert "'paths'" in problem.problem
