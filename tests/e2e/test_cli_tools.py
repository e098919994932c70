"""The pinned CLI's tools: every name it offers is classified, and its coordination tools pass.

Claude Code keeps adding tools. A name the boundary does not know is ``unknown``, which the
orchestrator may not use in enforce, so a new coordination tool would be denied to the very
agent it was made for (issue 14: SendMessage, ListAgents, Workflow... all were). These tests
read what the pinned CLI really offers, from the Messages API requests it makes: the ``tools``
array, and the deferred tools it names in a system message (loaded later with ToolSearch), for
the main agent and for a subagent. They fail when a newer pinned CLI brings a name that
``tools.BUILTIN`` does not classify: give it a class there, deliberately.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Recorded, Text, marker
from harness import Harness, Hooks, Run, python_command

from orchestrator_boundary.tools import BUILTIN, LEGACY

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "hooks" / "hook.py"

# "The following deferred tools are now available via ToolSearch. ... before calling them:\n"
# then one name a line, up to an empty line.
DEFERRED = re.compile(
    r"deferred tools are now available via ToolSearch\..*?:\n((?:[^\n]+\n)+)", re.S
)
TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

CURRENT = sorted(name for name in BUILTIN if name not in LEGACY)


def _texts(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    system = body.get("system")
    if isinstance(system, str):
        out.append(system)
    elif isinstance(system, list):
        out += [str(b.get("text", "")) for b in system if isinstance(b, dict)]
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out += [str(b.get("text", "")) for b in content if isinstance(b, dict)]
    return out


def offered(request: Recorded) -> tuple[set[str], set[str]]:
    """(the names in the request's tools array, the deferred tools it names)."""
    body = request.body if isinstance(request.body, dict) else {}
    tools = {str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict)}
    deferred: set[str] = set()
    for text in _texts(body):
        for block in DEFERRED.findall(text):
            deferred |= {line.strip() for line in block.splitlines() if line.strip()}
    return tools, deferred


def offered_to(run: Run, script: str) -> tuple[set[str], set[str]]:
    requests = run.api.scripted_requests(script)
    assert requests, run.explain(f"no request played script {script!r}")
    tools: set[str] = set()
    deferred: set[str] = set()
    for request in requests:
        t, d = offered(request)
        tools |= t
        deferred |= d
    return tools, deferred


def unclassified(names: set[str]) -> list[str]:
    return sorted(n for n in names if n not in BUILTIN)


def _delegating_run(harness: Harness, tools: list[str] | None) -> Run:
    project = harness.project()
    sub = {
        "description": "Look around",
        "prompt": f"Look. {marker('sub')}",
        "subagent_type": "general-purpose",
        "run_in_background": False,
    }
    return harness.run(
        project, {"main": [Call("Agent", sub), Text()], "sub": [Text()]}, tools=tools
    )


def _assert_classified(run: Run, script: str, expected: set[str]) -> set[str]:
    tools, deferred = offered_to(run, script)
    names = tools | deferred
    assert all(TOOL_NAME.match(n) for n in names), sorted(names)
    # The capture itself works: the names every session has, in the array and deferred.
    assert expected <= names, (script, sorted(expected - names), sorted(names))
    assert deferred, f"{script}: no deferred tools found; has the system message changed?"
    missing = unclassified(names)
    assert not missing, (
        f"the pinned CLI offers tools that tools.BUILTIN does not classify: {missing}. Give "
        "each a class in src/orchestrator_boundary/tools.py (an unknown tool is denied to the "
        "orchestrator in enforce)."
    )
    return names


def test_default_tools_of_main_agent_and_subagent_are_classified(harness: Harness) -> None:
    run = _delegating_run(harness, None)
    main = _assert_classified(
        run, "main", {"Agent", "Bash", "Read", "Write", "Edit", "ToolSearch", "SendMessage"}
    )
    sub = _assert_classified(run, "sub", {"Bash", "Read", "Write", "Edit", "SendMessage"})
    # On 2.1.330 the orchestrator alone gets Workflow and ScheduleWakeup.
    assert {"Workflow", "ListAgents", "Monitor", "CronCreate"} <= main, sorted(main)
    assert sub <= main | sub


def test_every_tool_the_cli_enables_by_name_is_classified(harness: Harness) -> None:
    """``--tools`` with every current name BUILTIN knows: what this CLI turns on from it (and
    whatever it adds beside) is classified too."""
    run = _delegating_run(harness, CURRENT)
    main = _assert_classified(
        run, "main", {"Agent", "Glob", "Grep", "TaskCreate", "TaskList", "TaskUpdate"}
    )
    _assert_classified(run, "sub", {"Read", "Glob", "Grep"})
    assert "TodoWrite" not in main  # retired on 2.1.330: its successors above replace it


RECORD = textwrap.dedent(
    """\
    import json, sys
    payload = json.load(sys.stdin)
    with open(sys.argv[1], "a", encoding="utf-8") as out:
        out.write(payload.get("tool_name", "") + "\\n")
    """
)


def test_orchestrator_coordinates_in_enforce_and_monitor_commands_are_judged(
    harness: Harness, tmp_path: Path
) -> None:
    """The product's hooks in enforce: the orchestrator lists agents, loads deferred tools,
    keeps its task list, messages agents and watches a command; a Monitor command that writes
    is denied like the same Bash command."""
    recorder = tmp_path / "record.py"
    recorder.write_text(RECORD, encoding="utf-8")
    fired = tmp_path / "fired.txt"
    hooks = Hooks.commands(
        pre=[python_command(ENTRY, "PreToolUse"), python_command(recorder, str(fired))],
        post=[python_command(ENTRY, "PostToolUse")],
    )
    project = harness.project(hooks, boundary_toml='phase = "enforce"\n')
    out = project.path("out.txt")
    steps = [
        Call("ListAgents", {}),
        Call("ToolSearch", {"query": "select:SendMessage,Monitor,CronList"}),
        Call("TaskCreate", {"subject": "Plan", "description": "Split the work"}),
        Call("CronList", {}),
        Call("Monitor", {"description": "echo", "timeout_ms": 5000, "command": "echo done"}),
        Call("SendMessage", {"to": "nobody", "message": "Also update the tests."}),
        Call("Monitor", {"description": "w", "timeout_ms": 5000, "command": f"echo hi > {out}"}),
        Text(),
    ]
    run = harness.run(project, {"main": steps}, tools=CURRENT)
    called = [c.name for c in steps if isinstance(c, Call)]
    # every call reached PreToolUse (none was refused before the hooks)
    assert fired.read_text(encoding="utf-8").split() == called, run.explain("hooks fired")
    for step, name in enumerate(called[:-1]):
        result = run.result_for("main", step)
        assert "hook error" not in result.text, run.explain(f"{name} was denied")
    denied = run.result_for("main", len(called) - 1)
    assert denied.is_error, run.explain("Monitor writing a file")
    assert denied.text.startswith("PreToolUse:Monitor hook error: "), denied.text
    assert "orchestrator-boundary" in denied.text and "BASH_WRITE" in denied.text, denied.text
    assert not out.exists()
