"""The field check under the real CLI (ADR 0029): in warn, the PostToolUse line of a Bash call
says what the call changed and what the analysis missed, from Claude Code's own
``bashEditDiff`` list (``CLAUDE_CODE_BASH_EDIT_DIFF=1`` in a git repository) or from the
hook's own snapshots.

The command writes while rated read_only: a project file ``json.py`` shadows the standard
module for ``python3 -c 'import json'`` (which the analysis itself rates opaque for that reason),
and the config wrongly declares ``python3`` read-only.
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
ENTRY = ROOT / "hooks" / "hook.py"  # the one entry script: hook.py EVENT
POST = python_command(ENTRY, "PostToolUse")
# PostToolUseFailure: what 2.1.330 sends instead of PostToolUse when a Bash command fails
HOOKS = Hooks.commands(
    pre=[python_command(ENTRY, "PreToolUse")],
    post=[POST],
    other={"PostToolUseFailure": [python_command(ENTRY, "PostToolUseFailure")]},
)
SHADOW = 'import pathlib\npathlib.Path("pwned.txt").write_text("x")\ndef dumps(o): return str(o)\n'
SHADOWED = "python3 -c 'import json; print(json.dumps(1))'"
FILES = {"json.py": SHADOW, "README.md": "hello\n"}
# python3 -c with an import is opaque (the working folder could shadow it); a team that declared
# python3 read-only makes this a read_only rating that writes: the miss to find
TOML = 'phase = "warn"\n[bash]\nread_only_commands = ["python3"]\n'


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
    project = harness.project(HOOKS, boundary_toml=TOML, files=FILES, git=True)
    _run(harness, project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    field = _bash_post_field(project)
    assert field["source"] == "bashEditDiff", field
    assert field["label"] == "read_only"
    assert "pwned.txt" in field["missed"], field
    assert not any(p.startswith(".claude/boundary") for p in field["changed"]), field
    assert (field["partial"], field["overlapped"]) == (False, False)
    assert field["command"] == SHADOWED


def test_without_the_list_the_hook_s_snapshots_carry_the_miss(harness: Harness) -> None:
    project = harness.project(HOOKS, boundary_toml=TOML, files=FILES)
    _run(harness, project, {})
    field = _bash_post_field(project)
    assert field["source"] == "scan", field
    assert "pwned.txt" in field["missed"], field
    assert (field["partial"], field["overlapped"]) == (False, False)


def test_a_command_that_fails_is_compared_at_post_tool_use_failure(harness: Harness) -> None:
    project = harness.project(HOOKS, boundary_toml=TOML, files=FILES)
    failing = "python3 -c 'import json; json.nope()'"
    _run(harness, project, {}, failing)
    field = _bash_post_field(project, "PostToolUseFailure")
    assert (field["source"], field["label"]) == ("scan", "read_only"), field
    assert "pwned.txt" in field["missed"], field
    assert field["command"] == failing
