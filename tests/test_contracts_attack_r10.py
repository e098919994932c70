"""Delegation contracts attacked a fifth time (ADR 0073), through the hook shell in process
with a real state store: a subagent's write at a place its command's text does not fix, a
write of a folder that holds another subagent's file, and what a refused call had claimed.
The Bash rows that say where a command writes are run for real (``reality``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import reality
from conftest import run_hook

CONFIG = """\
phase = "enforce"

[intents."auth"]
owned_scope = ["src/auth/**", "tests/auth/**"]
description = "login fix"

[intents."billing"]
owned_scope = ["src/billing/**"]

[delegation]
leases = "{leases}"
"""

_ids = itertools.count()


class Team:
    """One session in a project: the main agent's Agent calls, its subagents' calls."""

    def __init__(self, project: Path, leases: str = "off") -> None:
        self.project = project
        (project / ".claude" / "boundary.toml").write_text(CONFIG.format(leases=leases))
        self.env = {"CLAUDE_PROJECT_DIR": str(project), "HOME": str(project.parent / "home")}
        for rel in ("src/auth/login.py", "src/auth/forms.py", "src/billing/pay.py"):
            (project / rel).parent.mkdir(parents=True, exist_ok=True)
            (project / rel).write_text("v1\n")

    def payload(self, event: str, tool: str, tool_input: Any, agent: str | None) -> dict:
        data: dict[str, Any] = {
            "session_id": "s1",
            "transcript_path": str(self.project.parent / "sess.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": f"t{next(_ids)}",
        }
        if agent:
            data.update(agent_id=agent, agent_type="general-purpose")
        return data

    def launch(self, agent: str, prompt: str) -> None:
        """A background Agent call: its PostToolUse names the subagent at once."""
        agent_input = {"description": f"work {agent}", "prompt": prompt}
        pre = self.payload("PreToolUse", "Agent", agent_input, None)
        assert run_hook(pre, self.env)[1] is None
        resp = {"status": "async_launched", "agentId": agent}
        post = {**pre, "hook_event_name": "PostToolUse", "tool_response": resp}
        run_hook(post, self.env, "PostToolUse")

    def call(self, agent: str | None, tool: str, tool_input: dict[str, Any]) -> str:
        """The call's code ("-": let through); a call let through runs (its PostToolUse)."""
        pre = self.payload("PreToolUse", tool, tool_input, agent)
        out = run_hook(pre, self.env)[1]
        if out is None:
            run_hook({**pre, "hook_event_name": "PostToolUse", "tool_response": {}}, self.env,
                     "PostToolUse")  # fmt: skip
            return "-"
        return str(json.loads(out["hookSpecificOutput"]["permissionDecisionReason"]
                              .rsplit("\n", 1)[-1])["error"])  # fmt: skip

    def bash(self, agent: str | None, command: str) -> str:
        return self.call(agent, "Bash", {"command": command})

    def write(self, agent: str | None, rel: str) -> str:
        return self.call(agent, "Write", {"file_path": str(self.project / rel), "content": "x"})

    def read(self, agent: str, rel: str) -> None:
        read = self.payload("PostToolUse", "Read", {"file_path": str(self.project / rel)}, agent)
        run_hook({**read, "tool_response": {}}, self.env, "PostToolUse")


# ---- 1. a write the command's text does not place ------------------------------------------

UNPLACED = [
    "patch -p0 < fix.diff",
    "patch -p1 -i fix.diff",
    'cp src/auth/login.py "src/billing/$NAME"',
    "cp src/auth/login.py src/billing/*",
    "sed -i s/v1/v2/ src/*/*.py",
]


@pytest.mark.parametrize("command", UNPLACED)
def test_a_write_the_text_does_not_place_is_outside_a_delegation(
    project: Path, command: str
) -> None:
    """The Bash analysis knows these write, not where: the write rules leave such a target
    to a subagent's profile, and the contract rules skipped it, so a subagent delegated
    `src/auth/**` could rewrite src/billing (or anything a diff names) with them."""
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


@pytest.mark.parametrize("command", UNPLACED)
def test_a_subagent_no_delegation_narrows_keeps_its_verdict(project: Path, command: str) -> None:
    """Control: a subagent started without an intent or a Scope: line is not narrowed."""
    team = Team(project)
    team.launch("a1", "Look around and fix what is broken.")
    assert team.bash("a1", command) == "-"


@pytest.mark.parametrize(
    "command",
    [
        "sed -i s/v1/v2/ src/auth/login.py src/auth/forms.py",
        "cp src/auth/login.py src/auth/login_old.py",
        "patch src/auth/login.py fix.diff",
        "python -m pytest -q tests/auth",
    ],
)
def test_named_writes_inside_the_scope_go_through(project: Path, command: str) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "-"


def test_the_refusal_says_to_name_the_files(project: Path) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth\nScope: src/auth/**")
    pre = team.payload("PreToolUse", "Bash", {"command": "sed -i s/a/b/ src/auth/*.py"}, "a1")
    reason = run_hook(pre, team.env)[1]["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
    assert "Name each file the command changes" in reason
    assert "the target cannot be determined from the command text" in reason


DIFF = "--- src/billing/pay.py\n+++ src/billing/pay.py\n@@ -1 +1 @@\n-v1\n+v2\n"
PROJECT_FILES = (("src/auth/login.py", "v1\n"), ("src/billing/pay.py", "v1\n"), ("fix.diff", DIFF))


@pytest.mark.parametrize(
    ("command", "changed"),
    [
        ("patch -p0 < fix.diff", "src/billing/pay.py"),
        ("patch -p0 -i fix.diff", "src/billing/pay.py"),
        ('NAME=pay.py; cp src/auth/login.py "src/billing/$NAME"', "src/billing/pay.py"),
        ("cp src/auth/login.py src/billing/*", "src/billing/pay.py"),
        ("cp -r src/auth/. src/billing", "src/billing/login.py"),
        ("mkdir t && tar -cf t.tar -C src/auth . && tar -C src/billing -xf t.tar",
         "src/billing/login.py"),
    ],
)  # fmt: skip
def test_the_rows_write_where_they_are_said_to(command: str, changed: str) -> None:
    """Reality: the command changes a file its text does not name (or names only by its
    folder), in a throwaway folder."""
    outcome = reality.run(command, reality.Seed(files=PROJECT_FILES))
    assert not outcome.timed_out, outcome.describe()
    assert changed in outcome.paths, outcome.describe()
