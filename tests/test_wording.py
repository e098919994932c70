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
