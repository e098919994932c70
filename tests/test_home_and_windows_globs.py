"""Three readings the guard got wrong (issue 15's attack round, ADR 0051):

- Claude Code's file tools read ``~/x`` as the home folder's ``x``: a subagent's Write of
  ``~/.claude.json`` was judged as a relative path (SCOPE_VIOLATION, which warn and the bypass
  let through) instead of TAMPER. An MCP server may expand ``~`` too.
- On Windows, a glob or ``$HOME`` in a Bash target (``echo {} > .claude/settings.js*``) was
  not matched against the protected set: the folders were spelt with ``\\``, the set with ``/``.
- On Windows, ``write_outside_root = ["C:/Temp/**"]`` matched nothing.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from harden_support import make_project
from test_windows_paths import ROOT, _payload, run_simulated, verdict_of

# (id, tool, tool_input, agent or None for the main agent, code)
HOME_CASES = [
    ("write-claude-json", "Write", {"file_path": "~/.claude.json", "content": "{}"}, "coder",
     "TAMPER"),
    ("edit-user-settings", "Edit", {"file_path": "~/.claude/settings.json", "old_string": "{",
     "new_string": "{ "}, "coder", "TAMPER"),
    ("mcp-claude-json", "mcp__fs__write_file", {"path": "~/.claude.json", "content": "{}"},
     "coder", "TAMPER"),
    ("main-home-note", "Write", {"file_path": "~/notes.md", "content": "x"}, None,
     "ORCHESTRATOR_WRITE"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "tool_input", "agent", "code"),
    [row[1:] for row in HOME_CASES],
    ids=[row[0] for row in HOME_CASES],
)
def test_a_tilde_path_is_in_the_home_folder(
    tmp_path: Path, tool: str, tool_input: dict[str, Any], agent: str | None, code: str
) -> None:
    p = make_project(tmp_path)
    p.configure('phase = "warn"\n')
    _, rec = p.call(p.payload(tool, tool_input, agent=agent))
    assert rec["code"] == code, rec
    if code == "TAMPER":  # denied in warn too
        assert rec["decision"] == "deny", rec


CONFIG = textwrap.dedent(
    """
    phase = "enforce"

    [subagents]
    write_outside_root = ["C:/Temp/**", "D:\\\\Scratch\\\\**"]
    """
)
# (id, tool, tool_input, decision, code)
WINDOWS_CASES = [
    ("glob-star", "Bash", {"command": "echo {} > .claude/settings.js*"}, "deny", "TAMPER"),
    ("glob-question", "Bash", {"command": "cp x.json .claude/sett?ngs.json"}, "deny", "TAMPER"),
    ("dollar-home", "Bash", {"command": "echo {} > $HOME/.claude/settings.json"}, "deny",
     "TAMPER"),
    ("tilde-glob", "Bash", {"command": "echo {} > ~/.claude/sett*.json"}, "deny", "TAMPER"),
    ("outside-allowed-slashes", "Write", {"file_path": "C:\\Temp\\x.txt"}, "none", None),
    ("outside-allowed-backslashes", "Write", {"file_path": "D:\\Scratch\\y.txt"}, "none", None),
    ("outside-not-allowed", "Write", {"file_path": "C:\\Other\\x.txt"}, "deny",
     "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.fixture(scope="module")
def windows_judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("windows-globs")
    c, d = base / "C", base / "D"
    proj = c / "Users" / "dev" / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / ".claude" / "boundary.toml").write_text(CONFIG)
    (proj / ".claude" / "settings.json").write_text("{}\n")
    (c / "Users" / "dev" / ".claude").mkdir()
    (c / "Users" / "dev" / ".claude" / "settings.json").write_text("{}\n")
    (c / "Temp").mkdir()
    (c / "Other").mkdir()
    (d / "Scratch").mkdir(parents=True)
    env = {
        "CLAUDE_PROJECT_DIR": ROOT,
        "HOME": "C:\\Users\\dev",
        "USERPROFILE": "C:\\Users\\dev",
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
    }
    cases = [
        {"id": case_id, "env": env, "payload": _payload("general-purpose", ROOT, tool, given)}
        for case_id, tool, given, *_ in WINDOWS_CASES
    ]
    return run_simulated(base, cases, {"C:": str(c), "D:": str(d)})


@pytest.mark.parametrize(
    ("case_id", "decision", "code"),
    [(row[0], row[3], row[4]) for row in WINDOWS_CASES],
    ids=[row[0] for row in WINDOWS_CASES],
)
def test_windows_globs_and_drive_patterns(
    windows_judged: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    got = verdict_of(windows_judged, case_id)
    assert (got["decision"], got["code"]) == (decision, code), got
