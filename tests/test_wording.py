"""Issue 14 points 5 and 12: what the model and the person read, per phase, in sentences.

Every test goes through the hook shell against a real project in tmp_path and reads the JSON
Claude Code gets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project, parse_answer


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def _answer(project: Project, phase: str, tool: str, tool_input: dict[str, Any], **kw: Any):
    decision, code, answer = project.judge(
        tool, tool_input, env={"ORCHESTRATOR_BOUNDARY_PHASE": phase}, **kw
    )
    out = parse_answer(answer)
    assert out is not None
    return decision, code, out["hookSpecificOutput"]


# (id, tool, input builder, agent, code)
CALLS = [
    ("main-write", "Write", lambda p: {"file_path": str(p.root / "src/app.py")}, None,
     "ORCHESTRATOR_WRITE"),
    ("main-bash", "Bash", lambda p: {"command": "echo x > src/app.py"}, None, "BASH_WRITE"),
    ("subagent-scope", "Write", lambda p: {"file_path": str(p.root / "docs/a.md")}, "coder",
     "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.mark.parametrize(("tool", "make", "agent", "code"), [c[1:] for c in CALLS],
                         ids=[c[0] for c in CALLS])  # fmt: skip
def test_warn_says_the_call_went_through_and_never_asks_for_it_again(
    project: Project, tool: str, make: Any, agent: str | None, code: str
) -> None:
    decision, got, out = _answer(project, "warn", tool, make(project), agent=agent)
    assert (decision, got) == ("warn", code)
    text = out["additionalContext"]
    assert "permissionDecision" not in out
    assert "went through" in text and "In enforce it would be denied" in text
    assert "do not make it again" in text and "Next time" in text
    # nothing that asks for the change (again): no imperative hint, no ready-made Agent call
    for invitation in ("Instead:", "Agent({", "subagent_type", "boundary blocked", '"error"'):
        assert invitation not in text, invitation


@pytest.mark.parametrize(("tool", "make", "agent", "code"), [c[1:] for c in CALLS],
                         ids=[c[0] for c in CALLS])  # fmt: skip
def test_ask_is_a_short_question_without_json(
    project: Project, tool: str, make: Any, agent: str | None, code: str
) -> None:
    decision, got, out = _answer(project, "ask", tool, make(project), agent=agent)
    assert (decision, got) == ("ask", code)
    assert out["permissionDecision"] == "ask"
    text = out["permissionDecisionReason"]
    assert "\n" not in text and "{" not in text and len(text) < 400
    assert f"Allow this {tool} call anyway?" in text and code in text


@pytest.mark.parametrize(("tool", "make", "agent", "code"), [c[1:] for c in CALLS],
                         ids=[c[0] for c in CALLS])  # fmt: skip
def test_enforce_keeps_the_full_reason_and_the_json_line(
    project: Project, tool: str, make: Any, agent: str | None, code: str
) -> None:
    decision, got, out = _answer(project, "enforce", tool, make(project), agent=agent)
    assert (decision, got) == ("deny", code)
    text = out["permissionDecisionReason"]
    head, rule, instead, data = text.split("\n")
    assert head.startswith(f"orchestrator-boundary blocked {tool} ({code}): ")
    assert rule.startswith("Rule: ") and instead.startswith("Instead: ")
    assert json.loads(data)["error"] == code


# Point 12: the reason and the suggestion are sentences. (id, tool, input, agent, reason,
# suggestion); {root} and {home} stand for the project's folders.
REASONS = [
    ("bash-write", "Bash", {"command": "echo x >> NOTES.md"}, None,
     "the main agent may not change files itself: `echo x >> NOTES.md` writes NOTES.md, which "
     "is not in orchestrator.write_allow + bash.allow_write.",
     "Delegate the change to a subagent"),
    ("tool-write", "Write", {"file_path": "{root}/src/app.py"}, None,
     "the main agent may not change files itself: this Write changes src/app.py, which is not "
     "in orchestrator.write_allow.",
     "Delegate the change to a subagent"),
    ("agent-definition", "Write", {"file_path": "{root}/.claude/agents/helper.md"}, None,
     ".claude/agents/helper.md is in .claude/agents/, which guards the agents; no agent may "
     "change it.",
     "Ask the user to make this change themselves, outside Claude Code, in an editor or their "
     "own terminal."),
    ("settings", "Edit", {"file_path": "{root}/.claude/settings.json"}, "coder",
     ".claude/settings.json guards the agents; no agent may change it.",
     "Ask the user to make this change themselves, outside Claude Code, in an editor or their "
     "own terminal; `orchestrator-boundary install` and `uninstall` change the boundary's own "
     "hooks."),
    ("user-settings", "Write", {"file_path": "{home}/.claude/settings.json"}, None,
     "{home}/.claude/settings.json is ~/.claude/settings.json, which guards the agents; no "
     "agent may change it.",
     "Ask the user to make this change themselves, outside Claude Code, in an editor or their "
     "own terminal; `orchestrator-boundary install` and `uninstall` change the boundary's own "
     "hooks."),
    ("folder-holding", "Bash", {"command": "rm -rf .claude"}, None,
     ".claude is a folder holding .claude/settings.json, which guards the agents; no agent may "
     "change it.",
     "Ask the user to make this change themselves, outside Claude Code, in an editor or their "
     "own terminal; `orchestrator-boundary install` and `uninstall` change the boundary's own "
     "hooks."),
    ("config", "Write", {"file_path": "{root}/.claude/boundary.toml"}, None,
     ".claude/boundary.toml guards the agents; no agent may change it.",
     "Ask the user to make this change themselves, outside Claude Code, in an editor or their "
     "own terminal: `orchestrator-boundary phase PHASE` changes the phase, and any other "
     "setting is edited in .claude/boundary.toml."),
    ("audit", "Write", {"file_path": "{root}/.claude/boundary/audit.jsonl"}, "coder",
     ".claude/boundary/audit.jsonl is the audit trail; no agent may change it.",
     "Leave the audit trail to the hooks; to keep it elsewhere, ask the user to set "
     "`[audit] path` in .claude/boundary.toml."),
    ("scope-tool", "Write", {"file_path": "{root}/docs/x.md"}, "coder",
     "subagent coder ({agent_id}): this Write changes docs/x.md, which is outside its write "
     "scope (no pattern covers it).",
     "Write only inside your scope (src/**, !src/secrets/**). If the change belongs elsewhere, "
     "report back to the main agent so it can reassign the work."),
    ("scope-bash", "Bash", {"command": "echo > docs/x.md"}, "coder",
     "subagent coder ({agent_id}): `echo > docs/x.md` writes docs/x.md, which is outside its "
     "write scope (no pattern covers it).",
     "Write only inside your scope (src/**, !src/secrets/**). If the change belongs elsewhere, "
     "report back to the main agent so it can reassign the work."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "tool_input", "agent", "reason", "suggestion"),
    [c[1:] for c in REASONS],
    ids=[c[0] for c in REASONS],
)
def test_reasons_and_suggestions_are_sentences(
    project: Project,
    tool: str,
    tool_input: dict[str, str],
    agent: str | None,
    reason: str,
    suggestion: str,
) -> None:
    where = {"root": str(project.root), "home": str(project.home)}
    data = project.payload(tool, {k: v.format(**where) for k, v in tool_input.items()}, agent=agent)
    answer, _ = project.call(data, env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"})
    out = parse_answer(answer)
    assert out is not None
    told = json.loads(out["hookSpecificOutput"]["permissionDecisionReason"].splitlines()[-1])
    assert told["reason"] == reason.format(agent_id=data.get("agent_id"), **where)
    assert told["suggestion"].startswith(suggestion)
    for text in (told["reason"], told["suggestion"]):
        assert text.endswith(".") and "  " not in text
