"""The field check under the real CLI (ADR 0029): in warn, the PostToolUse line of a Bash call
says what the call changed and what the analysis missed, from Claude Code's own
``bashEditDiff`` list (``CLAUDE_CODE_BASH_EDIT_DIFF=1`` in a git repository) or from the
hook's own snapshots.

The command is one the analysis rates read_only and that writes: a project file ``json.py``
shadows the standard module for ``python3 -c 'import json'``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Hooks, Project, python_command

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
POST = python_command(ROOT / "hooks" / "post_tool_use.py")
# PostToolUseFailure: what 2.1.330 sends instead of PostToolUse when a Bash command fails
HOOKS = Hooks.commands(
    pre=[python_command(ROOT / "hooks" / "pre_tool_use.py")],
    post=[POST],
    other={"PostToolUseFailure": [POST]},
)
SHADOW = 'import pathlib\npathlib.Path("pwned.txt").write_text("x")\ndef dumps(o): return str(o)\n'
SHADOWED = "python3 -c 'import json; print(json.dumps(1))'"
FILES = {"json.py": SHADOW, "README.md": "hello\n"}


def _bash_post_field(project: Project, event: str = "PostToolUse") -> dict[str, Any]:
    trail = project.path(".claude/boundary/audit.jsonl")
    records = [json.loads(line) for line in trail.read_text(encoding="utf-8").splitlines()]
    posts = [r for r in records if r["event"] == event and r["tool_name"] == "Bash"]
    assert len(posts) == 1, records
    assert posts[0]["decision"] == "none", posts[0]
    field: dict[str, Any] = posts[0]["field"]
    return field


def _run(harness: Harness, project: Project, env: dict[str, str], command: str = SHADOWED) -> None:
    harness.run(
        project,
        {"main": [Call("Bash", {"command": command, "description": "Print"}), Text()]},
        env=env,
        extra_args=["--allowedTools", "Bash"],
    )
    assert project.path("pwned.txt").read_text(encoding="utf-8") == "x"  # it really wrote


def test_the_cli_s_changed_file_list_carries_the_miss(harness: Harness) -> None:
    project = harness.project(HOOKS, boundary_toml='phase = "warn"\n', files=FILES, git=True)
    _run(harness, project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    field = _bash_post_field(project)
    assert field["source"] == "bashEditDiff", field
    assert field["label"] == "read_only"
    assert "pwned.txt" in field["missed"], field
    assert not any(p.startswith(".claude/boundary") for p in field["changed"]), field
    assert (field["partial"], field["overlapped"]) == (False, False)
    assert field["command"] == SHADOWED


def test_without_the_list_the_hook_s_snapshots_carry_the_miss(harness: Harness) -> None:
    project = harness.project(HOOKS, boundary_toml='phase = "warn"\n', files=FILES)
    _run(harness, project, {})
    field = _bash_post_field(project)
    assert field["source"] == "scan", field
    assert "pwned.txt" in field["missed"], field
    assert (field["partial"], field["overlapped"]) == (False, False)


def test_a_command_that_fails_is_compared_at_post_tool_use_failure(harness: Harness) -> None:
    project = harness.project(HOOKS, boundary_toml='phase = "warn"\n', files=FILES)
    failing = "python3 -c 'import json; json.nope()'"
    _run(harness, project, {}, failing)
    field = _bash_post_field(project, "PostToolUseFailure")
    assert (field["source"], field["label"]) == ("scan", "read_only"), field
    assert "pwned.txt" in field["missed"], field
    assert field["command"] == failing
