"""``ORCHESTRATOR_BOUNDARY_CONFIG`` naming a file that does not exist (ADR 0074).

A typo in that variable gave the defaults, phase warn, with no word: a project in enforce was
silently let through. A missing file named by the variable is now a broken config
(CONFIG_INVALID: writes blocked, the message names the file and the variable); without the
variable a project with no config still gets the defaults.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator_boundary import wire
from orchestrator_boundary.foreign import setup_for
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.shell import judge


def _code(root: Path, environ: dict[str, str]) -> str:
    payload = HookPayload(
        hook_event_name="PreToolUse",
        session_id="s",
        cwd=str(root),
        tool_name="Write",
        tool_input={"file_path": str(root / "src" / "a.py"), "content": "x"},
    )
    verdict = judge(payload, setup_for(payload, {"CLAUDE_PROJECT_DIR": str(root), **environ}))
    assert verdict.violation is not None
    return f"{verdict.violation.code.value} {verdict.decision.value}"


@pytest.mark.parametrize("named", [".claude/boundry.toml", "/nowhere/boundary.toml"])
def test_a_missing_config_named_by_the_variable_is_a_broken_config(
    tmp_path: Path, named: str
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    assert _code(tmp_path, {wire.CONFIG_ENV: named}) == "CONFIG_INVALID deny"


def test_a_config_named_by_the_variable_is_read(tmp_path: Path) -> None:
    (tmp_path / "ci.toml").write_text('phase = "enforce"\n')
    assert _code(tmp_path, {wire.CONFIG_ENV: "ci.toml"}) == "ORCHESTRATOR_WRITE deny"


def test_no_variable_and_no_config_is_the_default_warn(tmp_path: Path) -> None:
    assert _code(tmp_path, {}) == "ORCHESTRATOR_WRITE warn"
