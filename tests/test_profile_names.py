"""A profile judges the agent type Claude Code resolves for it (ADR 0053, issue 14).

Claude Code 2.1.330 matches a ``subagent_type`` to a definition ignoring case, whitespace,
dashes and underscores, and the hooks then see the definition's own name (``coder``,
``general-purpose``). A profile spelt otherwise (``[agents.Coder]``,
``[agents.general_purpose]``) used to match nothing, so the subagent got every tool and the
whole root: the team's limits silently gone. Through the hook shell against a real project,
and once through the real hook entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

from orchestrator_boundary.agent_names import agent_key
from orchestrator_boundary.profiles import profile
from orchestrator_boundary.testing import make_payload, run_hook

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
CONFIG = """
[agents.Coder]
tools = ["Read", "Write"]
write_scope = ["src/**"]

[agents.general_purpose]
tools = ["Read", "Bash"]
write_scope = ["docs/**"]

[agents."Code Reviewer"]
tools = ["Read"]
"""
EXACT = (
    CONFIG
    + """
[agents.coder]
tools = ["Read", "Write", "Bash"]
write_scope = ["src/**", "tests/**"]
"""
)

W = "Write"


def _w(rel: str) -> dict[str, Any]:
    return {"file_path": rel, "content": "x"}


# (id, config, agent type the hooks see, tool, input, decision, code, rule)
TABLE: list[tuple[str, str, str, str, dict[str, Any], str, str | None, str | None]] = [
    ("case-tool", CONFIG, "coder", "Bash", {"command": "ls"}, "deny", "TOOL_NOT_ALLOWED",
     "agents.Coder.tools"),
    ("case-scope-in", CONFIG, "coder", W, _w("src/a.py"), "none", None, None),
    ("case-scope-out", CONFIG, "coder", W, _w("docs/a.md"), "deny", "SCOPE_VIOLATION",
     "agents.Coder.write_scope"),
    ("underscore-for-dash", CONFIG, "general-purpose", W, _w("src/a.py"), "deny",
     "TOOL_NOT_ALLOWED", "agents.general_purpose.tools"),
    ("underscore-scope", CONFIG, "general-purpose", "Bash", {"command": "echo x > src/a.py"},
     "deny", "SCOPE_VIOLATION", "agents.general_purpose.write_scope"),
    ("space-for-dash", CONFIG, "code-reviewer", "Bash", {"command": "ls"}, "deny",
     "TOOL_NOT_ALLOWED", "agents.Code Reviewer.tools"),
    # the exact name wins over a look-alike
    ("exact-wins", EXACT, "coder", "Bash", {"command": "ls"}, "none", None, None),
    ("exact-wins-scope", EXACT, "coder", W, _w("tests/t.py"), "none", None, None),
    # a type no profile names in any spelling keeps the old answer (no profile: the root)
    ("other-type", CONFIG, "Explore", "Bash", {"command": "ls"}, "none", None, None),
]  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


@pytest.mark.parametrize(
    ("config", "agent", "tool", "tool_input", "decision", "code", "rule"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_a_profile_judges_the_type_claude_code_resolves(
    project: Project,
    config: str,
    agent: str,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
    rule: str | None,
) -> None:
    project.configure(config)
    if "file_path" in tool_input:
        tool_input = {**tool_input, "file_path": str(project.root / tool_input["file_path"])}
    _, rec = project.call(project.payload(tool, tool_input, agent=agent), env=ENFORCE)
    assert (rec["decision"], rec["code"], rec["rule"]) == (decision, code, rule)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Coder", "coder", True),
        ("general_purpose", "general-purpose", True),
        ("General Purpose", "general-purpose", True),
        ("general\u2013purpose", "generalpurpose", True),  # an en dash is a dash
        ("\uff23oder", "coder", True),  # fullwidth C: NFKC
        ("coder", "coders", False),
        ("code.r", "coder", False),
    ],
    ids=["case", "underscore", "space", "en-dash", "nfkc", "other", "dot"],
)
def test_agent_key_compares_as_claude_code_does(a: str, b: str, same: bool) -> None:
    assert (agent_key(a) == agent_key(b)) is same


def test_the_first_look_alike_in_config_order_judges() -> None:
    agents: dict[str, Any] = {"Coder": "first", "CODER": "second", "*": "any"}
    assert profile(agents, "coder") == ("Coder", "first")
    assert profile(agents, "reviewer") == ("*", "any")
    assert profile({}, "coder") is None


def test_through_the_real_hook_entry(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    payload = make_payload(
        "Bash", {"command": "ls"}, agent_type="coder", subagent=True, cwd=project
    )
    answer = run_hook(
        payload, project=project, config=CONFIG, phase="enforce", scratch=str(tmp_path)
    )
    assert (answer.exit_code, answer.decision, answer.code) == (0, "deny", "TOOL_NOT_ALLOWED")


@pytest.mark.parametrize(
    ("tool", "tool_input", "decision", "code"),
    [
        ("ToolSearch", {"query": "select:NotebookEdit"}, "none", None),
        ("NotebookEdit", {"notebook_path": "src/n.ipynb", "new_source": "x"}, "none", None),
        ("WebFetch", {"url": "https://example.com", "prompt": "x"}, "deny", "TOOL_NOT_ALLOWED"),
    ],
    ids=["toolsearch", "listed-deferred-tool", "unlisted-deferred-tool"],
)
def test_a_profile_can_load_the_deferred_tools_it_lists(
    project: Project, tool: str, tool_input: dict[str, Any], decision: str, code: str | None
) -> None:
    """2.1.330 offers a subagent NotebookEdit, WebFetch, SendMessage... as deferred tools that
    only ToolSearch makes callable: a profile listing NotebookEdit needs ToolSearch, which
    loads schemas and changes nothing, so every profile allows it."""
    project.configure('[agents.coder]\ntools = ["Read", "NotebookEdit"]\n')
    if "notebook_path" in tool_input:
        tool_input = {**tool_input, "notebook_path": str(project.root / "src/n.ipynb")}
    _, rec = project.call(project.payload(tool, tool_input, agent="coder"), env=ENFORCE)
    assert (rec["decision"], rec["code"]) == (decision, code)
