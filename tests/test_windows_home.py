"""On Windows, Claude Code (Node's ``os.homedir()``) reads ``~\\.claude`` from ``USERPROFILE``;
a ``HOME`` set for Git Bash (often a network drive) is not that folder. The protected set, the
user-scope settings path and the per-user folder follow ``USERPROFILE`` there (under the
simulation of tests/windows_sim.py), and ``HOME`` everywhere else."""

from __future__ import annotations

from typing import Any

import pytest
from test_windows_paths import CODER, MAIN, assert_decided, judge_on_c, table_on_c

USER = "C:\\Users\\dev"
ELSEWHERE = {"HOME": "H:\\"}  # a Git Bash HOME on a network drive

CASES: list[tuple[str, str, str, dict[str, Any], str, str | None]] = [
    ("coder-user-settings", CODER, "Write", {"file_path": f"{USER}\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("main-user-agents", MAIN, "Write", {"file_path": f"{USER}\\.claude\\agents\\x.md"}, "deny", "TAMPER"),
    ("coder-claude-json", CODER, "Edit", {"file_path": f"{USER}\\.claude.json"}, "deny", "TAMPER"),
    ("coder-tilde", CODER, "Write", {"file_path": "~\\.claude\\settings.json"}, "deny", "TAMPER"),
]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return judge_on_c(tmp_path_factory.mktemp("windows-home"), CASES, env=ELSEWHERE)


@table_on_c(CASES)
def test_the_users_claude_folder_is_the_profiles_on_windows(
    judged: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    assert_decided(judged, case_id, decision, code)


@pytest.mark.parametrize(
    ("name", "home", "want"),
    [("nt", "USERPROFILE", "C:\\Users\\dev"), ("posix", "HOME", "/home/dev")],
)
def test_the_home_claude_code_reads(
    monkeypatch: pytest.MonkeyPatch, name: str, home: str, want: str
) -> None:
    import types

    from orchestrator_boundary import wire

    monkeypatch.setattr(wire, "os", types.SimpleNamespace(name=name))
    environ = {"HOME": "/home/dev" if name == "posix" else "H:\\", "USERPROFILE": "C:\\Users\\dev"}
    assert wire.user_home(environ) == want
    del environ[home]
    assert wire.user_home(environ) == ("H:\\" if name == "nt" else "C:\\Users\\dev")
