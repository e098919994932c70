"""Shared fixtures. The guard fixture keeps the developer's own environment out of every test."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest_windows import windows_sim  # noqa: F401 - the fixture (tests/windows_sim.py)
from corpus_commands import corpus_dir  # one place finds ../shared/corpus
from hypothesis import settings

# CI runs the same examples every time (a failure there is reproducible, not a dice roll);
# developers get fresh random examples. HYPOTHESIS_PROFILE=dev/ci overrides.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

__all__ = ["REPO", "corpus_dir", "run_hook"]

REPO = Path(__file__).resolve().parents[1]
GUARDED_PREFIXES = ("CLAUDE", "ORCHESTRATOR_BOUNDARY", "AMPLIFIER_BYPASS")


@pytest.fixture(autouse=True)
def _guard_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for key in list(os.environ):
        if key.startswith(GUARDED_PREFIXES):
            monkeypatch.delenv(key)
    # subprocesses judge in process: no resident evaluator outlives a test (test_daemon.py and
    # the end-to-end harness set up their own, short-lived ones)
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_NO_DAEMON", "1")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    yield


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / "src").mkdir()
    return root.resolve()


@pytest.fixture
def make_payload(project: Path) -> Callable[..., dict[str, Any]]:
    """A payload shaped like the real CLI's (see tests/payloads/)."""

    def make(
        tool: str = "Write",
        tool_input: dict[str, Any] | None = None,
        *,
        event: str = "PreToolUse",
        agent_type: str | None = None,
        subagent: bool = False,
        cwd: Path | str | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "session_id": "6d1c5b2e-0000-4000-8000-000000000001",
            "transcript_path": "/home/user/.claude/projects/x/6d1c5b2e.jsonl",
            "cwd": str(cwd or project),
            "permission_mode": "acceptEdits",
        }
        if subagent:
            data["agent_id"] = "a1b2c3d4e5f607182"
        if agent_type is not None:
            data["agent_type"] = agent_type
        data.update(
            {
                "hook_event_name": event,
                "tool_name": tool,
                "tool_input": tool_input if tool_input is not None else {},
                "tool_use_id": "toolu_01TEST",
            }
        )
        if event == "PostToolUse":
            data["tool_response"] = {"success": True}
        data.update(extra)
        return data

    return make


def run_hook(
    payload: dict[str, Any] | bytes, env: dict[str, str], event: str = "PreToolUse"
) -> tuple[int, dict[str, Any] | None, str]:
    """Run the hook shell in process; returns (exit code, parsed stdout or None, stderr)."""
    from orchestrator_boundary.shell import evaluate

    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    answer = evaluate(raw, env, event=event)
    return answer.exit_code, (json.loads(answer.stdout) if answer.stdout else None), answer.stderr
