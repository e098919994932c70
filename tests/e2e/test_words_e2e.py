"""What the model and the person read, under the real CLI (#14 points 4 and 5).

- A deny's suggestion names only an agent type that exists: a built-in, or one defined in
  ``.claude/agents/*.md``. A profile in the config without a definition is never named, and
  the Agent call the suggestion shows is one the CLI runs.
- warn: the call goes through, and the model is told that it went through and not to make the
  change again (no "Instead:", no example call, no JSON line).
- ask in ``claude -p`` (no person to ask): the CLI refuses the call; what it shows is our short
  question, in words, without the JSON line of enforce's reason.

The hooks are registered by ``orchestrator-boundary install`` itself (project scope).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text, marker
from harness import Agent, Harness, Project, Run

pytestmark = pytest.mark.e2e

BRAND = "orchestrator-boundary"
CODER = Agent("coder", "Writes code.", tools=["Read", "Write", "Edit", "Bash"])
# Two writing profiles; docs-writer comes first and has no definition anywhere.
PROFILES = textwrap.dedent(
    """\
    [agents.docs-writer]
    write_scope = ["src/**", "docs/**"]

    [agents.coder]
    write_scope = ["src/**"]
    """
)
SUGGESTED = re.compile(r"Agent\((\{.*?\})\)\.")


def installed(harness: Harness, phase: str, agents: tuple[Agent, ...] = ()) -> Project:
    """A project whose hooks ``orchestrator-boundary install`` registered."""
    config = f'phase = "{phase}"\n\n{PROFILES}'
    project = harness.project(agents=agents, boundary_toml=config)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env["HOME"] = str(project.home)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator_boundary.cli",
            "install",
            "--project",
            str(project.root),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return project


def write_call(project: Project, name: str = "src/app.py") -> Call:
    return Call("Write", {"file_path": str(project.path(name)), "content": "x = 1\n"})


def suggestion(run: Run) -> dict[str, Any]:
    """The example Agent call of the deny the main agent's Write got."""
    got = run.result_for("main", 0)
    assert got.is_error and BRAND in got.text, run.explain(f"not denied: {got.text!r}")
    found = SUGGESTED.search(got.text)
    assert found, got.text
    call: dict[str, Any] = json.loads(found.group(1))
    return call


@pytest.mark.parametrize(
    ("agents", "expected"),
    [((), "general-purpose"), ((CODER,), "coder")],
    ids=["no definitions: a built-in", "coder defined: coder"],
)
def test_a_deny_names_an_agent_type_the_cli_runs(
    harness: Harness, agents: tuple[Agent, ...], expected: str
) -> None:
    project = installed(harness, "enforce", agents)
    run = harness.run(project, {"main": [write_call(project), Text()]})
    call = suggestion(run)
    assert call["subagent_type"] == expected  # never docs-writer: it has no definition
    assert not project.path("src/app.py").exists()
    # the model follows the suggestion as given: the CLI knows the type and runs the subagent
    follow = {**call, "prompt": f"{call['prompt']}\n{marker('sub')}"}
    run = harness.run(
        project,
        {"main": [Call("Agent", follow), Text()], "sub": [write_call(project), Text("done")]},
    )
    assert "not found" not in run.result_for("main", 0).text, run.explain("unknown agent type")
    assert not run.result_for("sub", 0).is_error, run.explain("the subagent's write was refused")
    assert project.path("src/app.py").read_text(encoding="utf-8") == "x = 1\n"


def test_warn_says_the_call_went_through_and_asks_for_nothing_again(harness: Harness) -> None:
    project = installed(harness, "warn")
    run = harness.run(project, {"main": [write_call(project), Text()]})
    got = run.result_for("main", 0)
    assert not got.is_error, run.explain(f"warn blocked the call: {got.text!r}")
    assert project.path("src/app.py").read_text(encoding="utf-8") == "x = 1\n"
    context = run.context_after("main", 0)
    assert "this Write call went through" in context, context
    assert "The boundary did not stop it; do not make it again." in context
    for asking in ("Instead:", "Agent(", '{"error"', "blocked Write"):
        assert asking not in context, context
    assert run.permission_denials == []


def test_ask_shows_a_short_question_without_json(harness: Harness) -> None:
    project = installed(harness, "ask")
    run = harness.run(project, {"main": [write_call(project), Text()]})
    got = run.result_for("main", 0)
    # claude -p has no person to ask: the CLI refuses the call (observed on 2.1.330)
    assert got.is_error, run.explain(f"ask let the call through: {got.text!r}")
    assert not project.path("src/app.py").exists()
    assert "Allow this Write call anyway? (enforce would deny it: ORCHESTRATOR_WRITE" in got.text
    assert not any(line.lstrip().startswith("{") for line in got.text.splitlines()), got.text
    assert "Instead:" not in got.text and '"error"' not in got.text
    assert len(got.text) < 600, got.text
    assert [d["tool_name"] for d in run.permission_denials] == ["Write"]
