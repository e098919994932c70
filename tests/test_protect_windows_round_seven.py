"""ADR 0060 on (simulated) Windows: the places Claude Code runs from without a hook
(``session-env``, ``shell-snapshots``, ``hooks``, ``daemon.json`` of ``%USERPROFILE%\\.claude``,
the project's ``.claude\\hooks``) in Windows spellings, and an MCP tool's program and argument
list, judged as in tests/test_windows_paths.py with the project on ``C:``."""

from __future__ import annotations

from typing import Any

import pytest
from test_windows_paths import CODER, MAIN, ROOT, assert_decided, judge_on_c, table_on_c

USER = "C:\\Users\\dev"
WRITE = "mcp__fs__write_file"

# (id, who, tool, tool_input, decision, code)
CASES: list[tuple[str, str, str, dict[str, Any], str, str | None]] = [
    ("coder-session-env", CODER, "Write", {"file_path": f"{USER}\\.claude\\session-env\\s1\\hook-0.sh"}, "deny", "TAMPER"),
    ("coder-snapshot-case", CODER, "Write", {"file_path": "c:/users/DEV/.Claude/Shell-Snapshots/s.sh"}, "deny", "TAMPER"),
    ("main-user-hooks", MAIN, "Write", {"file_path": f"{USER}\\.claude\\hooks\\guard.ps1"}, "deny", "TAMPER"),
    ("coder-daemon-json-stream", CODER, "Write", {"file_path": f"{USER}\\.claude\\daemon.json::$DATA"}, "deny", "TAMPER"),
    ("coder-project-hooks", CODER, WRITE, {"relative_path": ".claude\\hooks\\pre.ps1"}, "deny", "TAMPER"),
    ("coder-mcp-program-args", CODER, WRITE, {"program": "orchestrator-boundary.exe", "args": ["phase", "off"]}, "deny", "TAMPER"),
    ("coder-hooks-of-the-code", CODER, "Write", {"file_path": f"{ROOT}\\src\\hooks\\useThing.ts"}, "none", None),
]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return judge_on_c(tmp_path_factory.mktemp("round-seven-windows"), CASES)


@table_on_c(CASES)
def test_round_seven_on_windows(
    judged: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    assert_decided(judged, case_id, decision, code)
