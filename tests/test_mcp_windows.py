"""Issue 13 points 7 and 8 on (simulated) Windows: MCP path arguments in Windows spellings
(``file:///C:/``, ``file:C:/``, ``file://localhost/C:/``, backslashes, nested) and the
protected set's Windows entries (managed settings, ``.env.*``), judged as in
tests/test_windows_paths.py: one interpreter under the Windows simulation, the project on ``C:``.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_windows_paths import CODER, MAIN, ROOT, assert_decided, judge_on_c, table_on_c

URI_ROOT = "C:/Users/dev/proj"
WRITE = "mcp__fs__write_file"

# (id, who, tool, tool_input, decision, code)
CASES: list[tuple[str, str, str, dict[str, Any], str, str | None]] = [
    ("coder-mcp-relative-backslashes", CODER, WRITE, {"relative_path": ".claude\\settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-target-file-case", CODER, WRITE, {"target_file": "c:\\users\\dev\\PROJ\\.claude\\Settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-nested-edits", CODER, WRITE, {"edits": [{"path": f"{ROOT}\\src\\a.py"}, {"path": f"{ROOT}\\.claude\\settings.json"}]}, "deny", "TAMPER"),
    ("coder-mcp-uri-three-slashes", CODER, WRITE, {"uri": f"file:///{URI_ROOT}/.claude/settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-uri-localhost", CODER, WRITE, {"uri": f"file://localhost/{URI_ROOT}/.claude/settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-uri-no-slash", CODER, WRITE, {"uri": f"file:{URI_ROOT}/.claude/settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-uri-pipe-drive", CODER, WRITE, {"uri": "file:///C|/Users/dev/proj/.claude/settings.json"}, "deny", "TAMPER"),
    ("coder-mcp-uri-percent-colon", CODER, WRITE, {"uri": "file:///C%3A/Users/dev/proj/.claude/settings%2Ejson"}, "deny", "TAMPER"),
    ("coder-mcp-ordinary", CODER, WRITE, {"relative_path": "src\\a.py", "uri": f"file:///{URI_ROOT}/src/a.py"}, "none", None),
    ("main-mcp-uri", MAIN, "some_plugin_tool", {"uri": f"file:///{URI_ROOT}/.claude/settings.local.json"}, "deny", "TAMPER"),
    ("coder-write-managed", CODER, "Write", {"file_path": "C:\\Program Files\\ClaudeCode\\managed-settings.json"}, "deny", "TAMPER"),
    ("main-write-managed-case", MAIN, "Write", {"file_path": "c:/program files/claudecode/managed-settings.json"}, "deny", "TAMPER"),
    ("coder-write-env-local", CODER, "Write", {"file_path": f"{ROOT}\\.env.local"}, "deny", "TAMPER"),
    ("main-write-env-production-case", MAIN, "Write", {"file_path": f"{ROOT}\\.ENV.Production"}, "deny", "TAMPER"),
    ("coder-write-env-example", CODER, "Write", {"file_path": f"{ROOT}\\src\\.env.example"}, "none", None),
]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("mcp-windows")
    return judge_on_c(base, CASES)


@table_on_c(CASES)
def test_mcp_paths_and_protected_set_on_windows(
    judged: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    assert_decided(judged, case_id, decision, code)
