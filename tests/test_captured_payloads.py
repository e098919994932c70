"""Payloads captured from the real CLI 2.1.330 (tests/payloads/), replayed through the entry
points in process; the hook's JSON is compared with the hand-checked expected files in
tests/payloads/expected/ (that JSON is the contract with Claude Code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from orchestrator_boundary.shell import evaluate

PAYLOADS = REPO / "tests" / "payloads"
EXPECTED = PAYLOADS / "expected"
NEUTRAL_ROOT, NEUTRAL_HOME = "/home/user/project", "/home/user"
CONFIG = """\
phase = "enforce"
[orchestrator]
write_allow = ["STATE.md"]
[agents.scribe]
tools = ["Write", "Edit", "Read"]
write_scope = ["custom.txt"]
"""
NAMES = sorted(p.stem for p in PAYLOADS.glob("*.json"))


def captured(name: str, root: Path) -> bytes:
    path = PAYLOADS / f"{name}.json"
    if not path.is_file():
        pytest.fail(f"captured payload {path} is missing (re-capture: python tests/e2e/capture.py)")
    return path.read_text().replace(NEUTRAL_ROOT, str(root)).encode()


def expected(name: str, root: Path) -> Any:
    path = EXPECTED / f"{name}.json"
    if not path.is_file():
        pytest.fail(f"expected answer {path} is missing")
    return json.loads(path.read_text().replace(NEUTRAL_ROOT, str(root)))


def answer(name: str, root: Path) -> tuple[int, Any]:
    raw = captured(name, root)
    event = json.loads(raw)["hook_event_name"]
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(root.parent / "home")}
    rc, out, _err = evaluate(raw, env, event=event).encoded()
    return rc, (json.loads(out) if out else None)


def test_the_captures_cover_what_the_policy_tells_apart() -> None:
    assert len(NAMES) >= 30
    kinds = {
        json.loads((PAYLOADS / f"{n}.json").read_text()).get("agent_id") is not None for n in NAMES
    }
    assert kinds == {True, False}


@pytest.mark.parametrize("name", NAMES)
def test_captured_payload_gets_the_expected_answer(project: Path, name: str) -> None:
    (project / ".claude/boundary.toml").write_text(CONFIG)
    rc, out = answer(name, project)
    assert rc == 0
    assert out == expected(name, project)
