"""Issue 12, point 9: a command the analysis runs out of budget on is ``opaque``, never
``read_only``, and the hook still judges it safely.

The main agent's call is judged as text the analysis could not read (``bash.unparseable``,
"deny" by default): with ``bash.opaque = "allow"``, the default, padding a write until the
budget runs out would otherwise let it through. A subagent's call is checked word by word
against the protected files, as unparseable text is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

from orchestrator_boundary.bash import Status, analyze

NESTED = "echo " + "$(echo " * 120 + "x" + ")" * 120  # deeper than the walker's nesting cap
MAIN: dict[str, Any] = {}
SUB: dict[str, Any] = {"subagent": True, "agent_type": "general-purpose"}


def test_exhausted_analysis_is_opaque_with_its_reason() -> None:
    for command in (f"{NESTED}; rm -rf src", f"{NESTED}; ls"):
        result = analyze(command, cwd="/w/p")
        assert result.status is Status.OPAQUE and result.exhausted
        assert result.error.startswith("budget exhausted (nesting too deep)")
    small = analyze("ls; " * 100, cwd="/w/p", budget=40)
    assert small.status is Status.OPAQUE and small.exhausted
    assert not analyze("ls; " * 100, cwd="/w/p").exhausted


@pytest.mark.parametrize(
    ("who", "command", "config", "code"),
    [
        (MAIN, f"{NESTED}; rm -rf src", "", "BASH_UNPARSEABLE"),
        (MAIN, f"{NESTED}; rm -rf src", 'opaque = "allow"', "BASH_UNPARSEABLE"),
        (MAIN, f"{NESTED}; ls", 'unparseable = "allow"', None),
        (SUB, f"{NESTED}; echo x > .claude/settings.json", "", "TAMPER"),
        (SUB, f"{NESTED}; echo x > src/a.py", "", None),
    ],
    ids=["main-denied", "main-opaque-allow", "main-allowed-by-config", "sub-tamper", "sub-ok"],
)
def test_hook_judges_an_exhausted_command(
    project: Path, make_payload: Any, who: dict[str, Any], command: str, config: str, code: str
) -> None:
    (project / ".claude/boundary.toml").write_text(f'phase = "enforce"\n[bash]\n{config}\n')
    payload = make_payload("Bash", {"command": command, "description": "x"}, **who)
    rc, out, _ = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(project)})
    assert rc == 0
    if code is None:
        assert out is None
        return
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(reason.rsplit("\n", 1)[1])["error"] == code
    if code == "BASH_UNPARSEABLE":
        assert "budget exhausted" in reason
