"""The delegation contracts pick an agent type's profile as the write rules do (ADR 0074).

Round ten made a profile named with a wildcard (``[agents."*-writer"]``) judge the agent types
it matches (ADR 0071), and ADR 0053 lets ``[agents.Doc_Writer]`` judge ``doc-writer``; the
contract rules still looked profiles up by their exact name or ``*``, so an Agent call's
``Scope:`` line was held to no profile's ``write_scope`` at all: a doc writer delegated
``src/**`` was launched although its profile lets it write ``docs/**`` only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_hook

CONFIG = """\
phase = "enforce"
[agents.{name}]
write_scope = ["docs/**"]
"""


def _launch(project: Path, name: str, agent_type: str, prompt: str) -> str:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "boundary.toml").write_text(CONFIG.format(name=name))
    payload = {
        "session_id": "s1",
        "transcript_path": str(project / "sess.jsonl"),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Agent",
        "tool_input": {"description": "docs", "prompt": prompt, "subagent_type": agent_type},
        "tool_use_id": "t1",
    }
    env = {"CLAUDE_PROJECT_DIR": str(project), "HOME": str(project / "home")}
    out = run_hook(payload, env)[1]
    if out is None:
        return "-"
    return str(out["hookSpecificOutput"]["permissionDecision"])


@pytest.mark.parametrize("name", ['"*-writer"', "Doc_Writer", "doc-writer", '"*"'])
def test_a_scope_outside_the_profile_is_refused_however_the_profile_is_named(
    tmp_path: Path, name: str
) -> None:
    assert _launch(tmp_path, name, "doc-writer", "Fix it.\nScope: src/**") == "deny"


@pytest.mark.parametrize("name", ['"*-writer"', "Doc_Writer"])
def test_a_scope_inside_the_profile_goes_ahead(tmp_path: Path, name: str) -> None:
    assert _launch(tmp_path, name, "doc-writer", "Fix it.\nScope: docs/**") == "-"


def test_a_profile_for_another_type_does_not_hold_the_call(tmp_path: Path) -> None:
    assert _launch(tmp_path, '"*-writer"', "coder", "Fix it.\nScope: src/**") == "-"
