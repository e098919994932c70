"""Shared by the atheris targets: a throw-away project and the answer contract."""

from __future__ import annotations

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

PHASES = ("off", "warn", "ask", "enforce")


def make_project() -> str:
    base = tempfile.mkdtemp(prefix="ob-fuzz-")
    root = os.path.join(base, "proj")
    for d in (".claude/agents", "src/secrets", "docs"):
        os.makedirs(os.path.join(root, d))
    with open(os.path.join(root, ".claude", "boundary.toml"), "w") as fh:
        fh.write(
            '[orchestrator]\nwrite_allow = ["STATE.md", "docs/**"]\n'
            '[agents.coder]\nwrite_scope = ["src/**", "!src/secrets/**"]\n'
            "[audit]\nmax_bytes = 1000000\nkeep = 2\n"
        )
    return os.path.realpath(root)


def check(answer: object, phase: str) -> None:
    """Raise AssertionError when the hook's answer breaks the protocol contract."""
    rc, out, err = answer.exit_code, answer.stdout, answer.stderr  # type: ignore[attr-defined]
    assert rc in (0, 2), rc
    assert "Traceback" not in out
    if out:
        obj = json.loads(out)
        assert isinstance(obj, dict) and obj
        spec = obj.get("hookSpecificOutput", {})
        assert spec.get("permissionDecision", "deny") in ("deny", "ask")
        if "decision" in obj:
            assert obj["decision"] == "block"
        if phase == "off":
            assert "permissionDecision" not in spec and "decision" not in obj
    if rc == 2:
        assert out == "" and err.count("\n") == 1
