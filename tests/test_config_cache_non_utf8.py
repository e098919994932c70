"""A project folder whose name is not UTF-8 (Linux allows any bytes) gets a verdict, not an
internal error: the compiled-config cache wrote its entry as UTF-8 and raised on the
surrogate-escaped bytes of the path. Claude Code 2.1.330 refuses to start in such a folder,
but `orchestrator-boundary check` and other clients reach it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import orchestrator_boundary

LAUNCHER = Path(orchestrator_boundary.__file__).parent / "launcher.py"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="any bytes in a name: Linux")


def test_a_non_utf8_project_folder_is_judged(tmp_path: Path) -> None:
    root = os.path.join(str(tmp_path), os.fsdecode(b"odd-\xff"))
    os.makedirs(os.path.join(root, ".claude"))
    Path(root, ".claude", "boundary.toml").write_text('phase = "enforce"\n')
    payload = {
        "session_id": "s",
        "transcript_path": "/tmp/t",
        "cwd": root,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": root + "/a.py", "content": ""},
    }
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "CLAUDE_PROJECT_DIR": root,
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert b"internal error" not in done.stderr.lower(), done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
