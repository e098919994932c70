"""Issue 15, point 5: ``replay`` judges a payload with the root the live hook had, the folder
the session started in (``CLAUDE_PROJECT_DIR``), read from the session transcript when it can
be read here; else the payload's ``cwd``, which moves with a ``cd``.

The project's config says ``enforce`` and the payloads were recorded after a ``cd sub``, a
folder with a config of its own that says ``warn``: judged from the start folder the main
agent's write is denied; from ``sub`` it is ``warn``. (Without a config in ``sub``, the hook
would take the project's from above it, ADR 0054, and both would say ``deny``.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cli import main
from orchestrator_boundary.cmd_replay import START_BYTES, start_folder

SNAPSHOT = {"type": "queue-operation", "operation": "enqueue", "sessionId": "s1"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    (root / "sub" / ".claude").mkdir(parents=True)
    (root / "sub" / ".claude" / "boundary.toml").write_text('phase = "warn"\n')
    return root.resolve()


def _transcript(path: Path, *lines: Any) -> str:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return str(path)


def _replay(capsys: Any, tmp_path: Path, project: Path, transcript: str, *argv: str) -> list:
    payload = {
        "session_id": "s1",
        "transcript_path": transcript,
        "cwd": str(project / "sub"),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(project / "src" / "app.py"), "content": "x"},
        "tool_use_id": "t1",
    }
    lines = tmp_path / "payloads.jsonl"
    lines.write_text(json.dumps(payload) + "\n" + json.dumps({**payload, "tool_use_id": "t2"}))
    main(["replay", str(lines), "--json", *argv])
    return [json.loads(x)["decision"] for x in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize(
    ("lines", "decision"),
    [
        ([SNAPSHOT, {"type": "user", "cwd": "{root}"}], "deny"),
        ([{"type": "user", "cwd": "{root}"}, {"type": "user", "cwd": "/elsewhere"}], "deny"),
        (None, "warn"),
        ([SNAPSHOT, "not json", {"type": "user"}], "warn"),
        ([{"type": "user", "cwd": "relative/folder"}], "warn"),
        ([{"type": "user", "cwd": ["{root}"]}], "warn"),
    ],
    ids=[
        "start-folder-after-a-line-without-cwd",
        "the-first-cwd-wins",
        "no-transcript-here",
        "no-cwd-in-the-transcript",
        "relative-cwd-ignored",
        "cwd-not-a-string",
    ],
)
def test_the_root_is_the_sessions_start_folder_when_the_transcript_says(
    capsys: Any, tmp_path: Path, project: Path, lines: list | None, decision: str
) -> None:
    path = tmp_path / "s1.jsonl"
    if lines is not None:
        filled = [json.loads(json.dumps(x).replace("{root}", str(project))) for x in lines]
        _transcript(path, *filled)
    assert _replay(capsys, tmp_path, project, str(path)) == [decision, decision]


def test_project_wins_over_the_transcript(capsys: Any, tmp_path: Path, project: Path) -> None:
    transcript = _transcript(tmp_path / "s1.jsonl", {"type": "user", "cwd": str(project)})
    decisions = _replay(capsys, tmp_path, project, transcript, "--project", str(project / "sub"))
    assert decisions == ["warn", "warn"]


def test_a_huge_first_line_is_not_read_past_the_bound(tmp_path: Path) -> None:
    big = {"type": "attachment", "content": "x" * START_BYTES, "cwd": "/late"}
    assert start_folder(_transcript(tmp_path / "t.jsonl", big)) is None
    small = {"type": "attachment", "content": "x" * 1000, "cwd": "/early"}
    assert start_folder(_transcript(tmp_path / "u.jsonl", small)) == "/early"


@pytest.mark.parametrize(
    "transcript",
    ["", "relative.jsonl", "C:\\Users\\u\\s1.jsonl"],
    ids=["empty", "relative", "windows"],
)
def test_a_transcript_path_not_of_this_machine_is_not_opened(
    tmp_path: Path, transcript: str
) -> None:
    (tmp_path / "relative.jsonl").write_text(json.dumps({"cwd": "/x"}) + "\n")  # in the cwd
    assert start_folder(transcript) is None
