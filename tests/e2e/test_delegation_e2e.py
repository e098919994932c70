"""Delegation contracts under the real CLI (ADR 0027): intents and scopes on Agent calls,
writes outside a delegation, nested delegations, stale writes, two background subagents on
one file, and a coder that stops without writing.

The hooks are registered in settings.json as the installer will (PreToolUse, PostToolUse,
SubagentStop, Stop, SessionEnd), each running this checkout's entry script.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text, marker
from harness import Agent, Harness, Hooks, Project, Run, python_command

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "hooks" / "hook.py"
HOOKS = Hooks.commands(
    pre=[python_command(ENTRY, "PreToolUse")],
    post=[python_command(ENTRY, "PostToolUse")],
    other={e: [python_command(ENTRY, e)] for e in ("SubagentStop", "Stop", "SessionEnd")},
)
BRAND = "orchestrator-boundary"
CONFIG = textwrap.dedent(
    """\
    phase = "enforce"

    [intents."login-fix"]
    owned_scope = ["src/auth/**"]
    description = "Fix the login bug"

    [intents."billing"]
    owned_scope = ["src/billing/**"]
    status = "done"

    [delegation]
    leases = "enforce"

    [agents.coder]
    write_scope = ["src/**"]
    requires = ["write"]
    """
)
CODER = Agent("coder", "Writes code.", tools=["Read", "Write", "Edit", "Bash", "Agent"])


def _project(harness: Harness, files: dict[str, str] | None = None) -> Project:
    return harness.project(HOOKS, agents=[CODER], boundary_toml=CONFIG, files=files)


def agent_call(
    script: str, prompt: str, agent_type: str = "coder", background: bool | None = None
) -> Call:
    args: dict[str, Any] = {
        "description": f"work {script}",
        "subagent_type": agent_type,
        "prompt": f"{prompt}\n{marker(script)}",
    }
    if background is not None:
        args["run_in_background"] = background
    return Call("Agent", args)


def write(path: Path, content: str = "new\n") -> Call:
    return Call("Write", {"file_path": str(path), "content": content})


def bash(command: str) -> Call:
    return Call("Bash", {"command": command, "description": "Run a command"})


def audit(project: Project) -> list[dict[str, Any]]:
    trail = project.path(".claude/boundary/audit.jsonl")
    return [json.loads(x) for x in trail.read_text(encoding="utf-8").splitlines() if x]


def denied(run: Run, script: str, step: int, code: str) -> str:
    got = run.result_for(script, step)
    assert got.is_error and BRAND in got.text and code in got.text, run.explain(
        f"{script}[{step}] was not denied with {code}: {got.text!r}"
    )
    return got.text


def allowed(run: Run, script: str, step: int) -> None:
    got = run.result_for(script, step)
    assert BRAND not in got.text and not got.is_error, run.explain(
        f"{script}[{step}] was refused: {got.text!r}"
    )


@pytest.mark.parametrize("background", [False, True], ids=["foreground", "background"])
def test_a_delegation_under_an_intent_writes_only_inside_it(
    harness: Harness, background: bool
) -> None:
    project = _project(harness)
    inside, outside = project.path("src/auth/login.py"), project.path("src/billing/pay.py")
    run = harness.run(
        project,
        {
            "main": [
                agent_call("sub", "Fix it.\nIntent: login-fix", background=background),
                Text(),
            ],
            "sub": [write(inside), write(outside), Text()],
        },
    )
    allowed(run, "main", 0)
    allowed(run, "sub", 0)
    reason = denied(run, "sub", 1, "DELEGATION_SCOPE")
    assert "login-fix" in reason and "src/auth/**" in reason and "report back" in reason
    assert inside.exists() and not outside.exists()
    [agent_use] = [a.tool_use_id for a in run.calls("main") if a.step == 0]
    sub_lines = [r for r in audit(project) if r.get("agent_id") and r.get("tool_name") == "Write"]
    assert sub_lines and all(
        r["delegation"]["tool_use_id"] == agent_use and r["delegation"]["intent"] == "login-fix"
        for r in sub_lines
    ), sub_lines
    posts = [r for r in sub_lines if r["event"] == "PostToolUse"]
    assert posts and posts[0]["trace"][0]["path"] == "src/auth/login.py"


@pytest.mark.parametrize(
    ("prompt", "fragment"),
    [
        ("Intent: nope", "intent 'nope', which is not in [intents]"),
        ("Intent: billing", "intent 'billing' is done"),
        ("Scope: `src/**`", "write patterns bare"),
        ("Scope: docs/**", "lies outside agents.coder.write_scope"),
    ],
    ids=["unknown-intent", "inactive-intent", "bad-scope-line", "outside-profile"],
)
def test_an_agent_call_with_a_bad_contract_is_refused(
    harness: Harness, prompt: str, fragment: str
) -> None:
    project = _project(harness)
    run = harness.run(
        project,
        {
            "main": [agent_call("sub", prompt), Text()],
            "sub": [write(project.path("src/x.py")), Text()],
        },
    )
    reason = denied(run, "main", 0, "DELEGATION_INVALID")
    assert fragment in reason
    assert "Active intents: login-fix (Fix the login bug: src/auth/**)" in reason
    assert "Intent: login-fix" in reason  # the example that would be accepted
    assert not project.path("src/x.py").exists()
    assert run.result.get("subagent_stats", {}).get("spawned", 0) == 0


def test_a_nested_delegation_lies_inside_its_parent(harness: Harness) -> None:
    project = _project(harness)
    deep = project.path("src/auth/deep.py")
    run = harness.run(
        project,
        {
            "main": [agent_call("outer", "Intent: login-fix", background=False), Text()],
            "outer": [
                agent_call("wide", "Scope: src/billing/**", "general-purpose", background=False),
                agent_call("inner", "Scope: src/auth/deep.py", "general-purpose", background=False),
                Text(),
            ],
            "inner": [write(deep), write(project.path("src/auth/other.py")), Text()],
            "wide": [Text()],
        },
    )
    allowed(run, "main", 0)
    reason = denied(run, "outer", 0, "DELEGATION_INVALID")
    assert 'lies outside intents."login-fix".owned_scope' in reason
    allowed(run, "outer", 1)
    allowed(run, "inner", 0)
    denied(run, "inner", 1, "DELEGATION_SCOPE")
    assert deep.exists() and not project.path("src/auth/other.py").exists()
    inner = [r for r in audit(project) if r.get("tool_name") == "Write" and r.get("delegation")]
    assert any(r["delegation"].get("depth") == 2 and r["delegation"].get("parent") for r in inner)


def test_a_stale_write_after_another_agents_edit(harness: Harness) -> None:
    project = _project(harness, files={"src/auth/shared.py": "v1\n"})
    shared = project.path("src/auth/shared.py")
    run = harness.run(
        project,
        {
            "main": [agent_call("first", "Intent: login-fix", background=False), Text()],
            "first": [
                Call("Read", {"file_path": str(shared)}),
                agent_call("second", "Intent: login-fix", background=False),
                bash(f"echo first > {shared}"),
                Text(),
            ],
            "second": [
                Call("Read", {"file_path": str(shared)}),
                Call("Edit", {"file_path": str(shared), "old_string": "v1", "new_string": "v2"}),
                Text(),
            ],
        },
    )
    allowed(run, "second", 1)
    reason = denied(run, "first", 2, "STALE_FILE")
    assert "read it again" in reason.lower()
    assert shared.read_text(encoding="utf-8") == "v2\n"


# the main agent starts subagents "one" and "two" under one intent, both in the background
TWO_IN_THE_BACKGROUND = [
    [
        agent_call("one", "Intent: login-fix", background=True),
        agent_call("two", "Intent: login-fix", background=True),
    ],
    Text(),
]


def test_two_background_subagents_on_the_same_file(harness: Harness) -> None:
    project = _project(harness)
    target = project.path("src/auth/both.py")
    run = harness.run(
        project,
        {
            "main": TWO_IN_THE_BACKGROUND,
            "one": [write(target, "one\n"), bash("sleep 4"), Text()],
            "two": [bash("sleep 2"), bash(f"echo two > {target}"), Text()],
        },
    )
    reason = denied(run, "two", 1, "FILE_LEASED")
    assert "work one" in reason
    assert target.read_text(encoding="utf-8") == "one\n"


def test_with_leases_off_the_second_subagent_is_told_it_never_read_the_file(
    harness: Harness,
) -> None:
    """ADR 0050: leases off (the default), the second subagent's blind Bash overwrite of a
    file the first one wrote is STALE_FILE; after a Read it may write."""
    config = CONFIG.replace('leases = "enforce"', 'leases = "off"')
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=config)
    target = project.path("src/auth/both.py")
    run = harness.run(
        project,
        {
            "main": TWO_IN_THE_BACKGROUND,
            "one": [write(target, "one\n"), Text()],
            "two": [
                bash("sleep 3"),
                bash(f"echo two > {target}"),
                Call("Read", {"file_path": str(target)}),
                bash(f"echo two >> {target}"),
                Text(),
            ],
        },
    )
    reason = denied(run, "two", 1, "STALE_FILE")
    assert "has not read it since" in reason
    allowed(run, "two", 3)
    assert target.read_text(encoding="utf-8") == "one\ntwo\n"


def test_a_coder_that_stops_without_writing_is_sent_back_once(harness: Harness) -> None:
    project = _project(harness)
    run = harness.run(
        project,
        {
            "main": [agent_call("lazy", "Intent: login-fix", background=False), Text()],
            "lazy": [Text()],
        },
    )
    lazy = [r for r in run.api.scripted_requests("lazy")]
    feedback = [m for r in lazy for m in r.messages if "Stop hook feedback" in json.dumps(m)]
    assert feedback, run.explain("the coder was not sent back")
    assert "1 file change" in json.dumps(feedback[0])
    stops = [r for r in audit(project) if r.get("event") == "SubagentStop"]
    assert [s.get("deliverables", {}).get("blocked") for s in stops] == [True, False], stops


def test_the_session_summary_when_the_main_agent_stops(harness: Harness) -> None:
    config = CONFIG + "\n[report]\nstop_summary = true\n"
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=config)
    run = harness.run(
        project,
        {
            "main": [agent_call("sub", "Intent: login-fix", background=False), Text()],
            "sub": [write(project.path("src/auth/a.py")), write(project.path("src/b.py")), Text()],
        },
    )
    allowed(run, "sub", 0)
    stops = [r for r in audit(project) if r.get("event") == "Stop"]
    assert stops and stops[-1].get("summary") is True, run.explain(f"no summary: {stops}")
    transcript = next(project.home.rglob(f"{run.result['session_id']}.jsonl"))
    text = transcript.read_text(encoding="utf-8")
    assert "work sub [intent login-fix]: 1 file(s) written (src/auth/a.py), 1 denied" in text
