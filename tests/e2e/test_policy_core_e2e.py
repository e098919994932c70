"""The policy core's round-six findings, under the real CLI 2.1.330 (ADR 0053, #14).

- A Skill call's ``!`...``` lines run with the call's args pasted in, and no hook sees them:
  the boundary judges the Skill call by them, so an injected write never happens in enforce.
- The main agent writes its auto-memory, as the CLI's system prompt tells it to ("write to it
  directly with the Write tool"): enforce lets it through.

The hooks are registered by ``orchestrator-boundary install`` itself (project scope).
"""

from __future__ import annotations

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness
from test_words_e2e import BRAND, installed

pytestmark = pytest.mark.e2e

SKILL = "---\nname: log\ndescription: recent commits\n---\nRecent: !`echo log $ARGUMENTS`\n"


def test_a_skill_call_that_injects_a_write_is_denied(harness: Harness) -> None:
    project = installed(harness, "enforce")
    skill = project.path(".claude/skills/log/SKILL.md")
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, encoding="utf-8")
    injected = project.path("INJECTED")
    call = Call("Skill", {"skill": "log", "args": f"x; touch {injected}"})
    run = harness.run(
        project, {"main": [call, Text()]}, extra_args=["--allowedTools", "Skill,Bash"]
    )
    got = run.result_for("main", 0)
    assert got.is_error and BRAND in got.text, run.explain(f"not denied: {got.text!r}")
    assert "BASH_WRITE" in got.text and "the skill 'log' runs" in got.text, got.text
    assert not injected.exists(), run.explain("the injected command ran")


def test_the_main_agent_writes_its_auto_memory_in_enforce(harness: Harness) -> None:
    project = installed(harness, "enforce")
    folder = str(project.root).replace("/", "-").replace(".", "-").replace("_", "-")
    memory = project.home / ".claude" / "projects" / folder / "memory" / "MEMORY.md"
    run = harness.run(
        project,
        {"main": [Call("Write", {"file_path": str(memory), "content": "- x\n"}), Text()]},
    )
    got = run.result_for("main", 0)
    assert not got.is_error, run.explain(f"the memory write was refused: {got.text!r}")
    assert memory.read_text(encoding="utf-8") == "- x\n"
    # and an ordinary file is still denied
    run = harness.run(
        project,
        {"main": [Call("Write", {"file_path": str(project.path("src/a.py")), "content": ""}),
                  Text()]},
    )  # fmt: skip
    assert BRAND in run.result_for("main", 0).text
