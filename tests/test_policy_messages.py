"""What the model reads when the main agent's unknown tool is denied (issue 14 point 12).

Like every other deny of the main agent, it says what to do instead as a concrete Agent call
naming an agent type that exists (here the project's ``coder``), and only then the user's
ways to reclassify or allow the tool.
"""

from __future__ import annotations

from pathlib import Path

from harden_support import make_project, parse_answer

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}


def test_an_unknown_tool_deny_shows_the_agent_call(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    project.configure('[agents.coder]\nwrite_scope = ["src/**"]\n')
    answer, rec = project.call(project.payload("mcp__db__migrate", {"name": "x"}), env=ENFORCE)
    assert (rec["decision"], rec["code"]) == ("deny", "UNKNOWN_TOOL")
    reason = (parse_answer(answer) or {})["hookSpecificOutput"]["permissionDecisionReason"]
    assert (
        "Instead: Delegate the change to a subagent with the Agent tool instead of using "
        'mcp__db__migrate yourself, e.g. Agent({"subagent_type": "coder", '
    ) in reason
    assert (
        "If mcp__db__migrate only reads, ask the user to classify it in .claude/boundary.toml "
        '([tools] "mcp__db__migrate" = "read") or to allow it ([orchestrator] allow_tools).'
    ) in reason
