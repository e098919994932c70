"""Round twelve: an MCP path argument spelt with a variable, a ``~``, a ``file:`` URI reading
or placed outside the project, and a subagent's ``write_scope`` (ADR 0083).

Before: only a string given as it stands, with no ``$`` or ``%``, inside the project, met the
agent type's ``write_scope`` (ADR 0078). A coder held to ``src/**`` wrote ``docs/`` through
``${workspaceFolder}/docs/x.md``, ``$PWD/docs/x.md``, ``file://localhost/.../docs/x.md`` or
``file:/.../docs/x.md``, and anywhere outside the project, in every phase, where its Write of
the same place was refused. Now every reading is judged, known variables are put in, and an
unknown variable places the write nowhere: outside the scope.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)  # coder: ["src/**", "!src/secrets/**"]


# (id, path argument with {root}, {home}; decision in warn, code)
ROWS = [
    ("vscode-workspace-folder", "${workspaceFolder}/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("vscode-workspace-root", "${workspaceRoot}/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("project-dir-braced", "${CLAUDE_PROJECT_DIR}/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("pwd", "$PWD/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("pwd-excluded", "${PWD}/src/secrets/k.pem", "warn", "SCOPE_VIOLATION"),
    ("unknown-variable", "$OUT_DIR/src/a.py", "warn", "SCOPE_VIOLATION"),
    ("cmd-variable", "%TEMP%\\x.txt", "warn", "SCOPE_VIOLATION"),
    ("powershell-env", "$env:APPDATA/x.txt", "warn", "SCOPE_VIOLATION"),
    ("home-tilde", "~/notes.md", "warn", "SCOPE_VIOLATION"),
    ("uri-localhost", "file://localhost{root}/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("uri-one-slash", "file:{root}/docs/x.md", "warn", "SCOPE_VIOLATION"),
    ("outside-absolute", "/tmp/elsewhere/x", "warn", "SCOPE_VIOLATION"),
    ("outside-by-dots", "{root}/../other/x.py", "warn", "SCOPE_VIOLATION"),
    ("nul-byte", "{root}/docs/x.md\x00", "warn", "SCOPE_VIOLATION"),
    # what stays ordinary work: the same spellings inside the scope
    ("inside-workspace-folder", "${workspaceFolder}/src/x.py", "none", None),
    ("inside-pwd", "$PWD/src/x.py", "none", None),
    ("inside-project-dir", "$CLAUDE_PROJECT_DIR/src/x.py", "none", None),
    ("inside-uri-localhost", "file://localhost{root}/src/x.py", "none", None),
    ("inside-uri", "file://{root}/src/x.py", "none", None),
    ("inside-relative", "src/x.py", "none", None),
    ("a-percent-in-a-name", "src/100%.txt", "none", None),
]


@pytest.mark.parametrize(
    ("spelt", "decision", "code"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_a_scoped_subagents_mcp_path_meets_its_scope(
    project: Project, spelt: str, decision: str, code: str | None
) -> None:
    given = spelt.replace("{root}", str(project.root)).replace("{home}", str(project.home))
    got = project.judge(
        "mcp__fs__write_file", {"path": given, "content": "x"}, agent="coder", env=WARN
    )
    assert got[:2] == (decision, code)


def test_a_write_outside_the_project_is_judged_as_write_is(project: Project) -> None:
    through_write = project.judge(
        "Write", {"file_path": "/tmp/elsewhere/x", "content": "x"}, agent="coder", env=WARN
    )
    through_mcp = project.judge(
        "mcp__fs__write_file", {"path": "/tmp/elsewhere/x", "content": "x"}, agent="coder", env=WARN
    )
    assert through_write[:2] == through_mcp[:2] == ("warn", "SCOPE_VIOLATION")


def test_a_scope_that_holds_the_outside_place_lets_it_through(project: Project) -> None:
    project.configure('[agents.coder]\nwrite_scope = ["src/**", "/tmp/elsewhere/**"]\n')
    got = project.judge(
        "mcp__fs__write_file", {"path": "/tmp/elsewhere/x", "content": "x"}, agent="coder", env=WARN
    )
    assert got[:2] == ("none", None)


def test_the_message_says_why_a_variable_place_is_refused(project: Project) -> None:
    _, _, answer = project.judge(
        "mcp__fs__write_file",
        {"path": "$OUT_DIR/a.py", "content": "x"},
        agent="coder",
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    )
    assert "variable the guard cannot read" in answer.stdout
    assert "src/**" in answer.stdout


def test_read_tools_and_unscoped_agents_are_untouched(project: Project) -> None:
    read = project.judge("mcp__fs__read_file", {"path": "$OUT/x"}, agent="coder", env=WARN)
    unscoped = project.judge(
        "mcp__fs__write_file", {"path": "$OUT/x", "content": "x"}, agent="helper", env=WARN
    )
    assert read[:2] == unscoped[:2] == ("none", None)


def test_a_scope_written_with_backslashes_says_how_to_write_it(project: Project) -> None:
    """``src\\**`` names exactly what it says (ADR 0071): every write of the agent is refused,
    so the message says why and what to write instead, where before it said only "no
    pattern covers it"."""
    project.configure('[agents.coder]\nwrite_scope = ["src\\\\**"]\n')
    _, _, answer = project.judge(
        "Write",
        {"file_path": str(project.root / "src/app.py"), "content": "x"},
        agent="coder",
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    )
    assert "a backslash in a pattern is not a separator: write 'src/**'" in answer.stdout


# a map from file names to what is written there: its keys are the places
MAPS = [
    ("files-excluded", {"files": {"src/secrets/k.pem": "x"}}, "warn", "SCOPE_VIOLATION"),
    ("files-outside", {"files": {"docs/x.md": "x"}}, "warn", "SCOPE_VIOLATION"),
    ("changes-outside", {"changes": {"docs/x.md": {"content": "x"}}}, "warn", "SCOPE_VIOLATION"),
    ("contents-outside", {"contents": {"docs/x.md": "x"}}, "warn", "SCOPE_VIOLATION"),
    ("files-inside", {"files": {"src/a.py": "x", "src/b.py": "y"}}, "none", None),
    ("headers-are-no-paths", {"path": "src/a.py", "headers": {"Content-Type": "x"}}, "none", None),
]


@pytest.mark.parametrize(
    ("given", "decision", "code"), [m[1:] for m in MAPS], ids=[m[0] for m in MAPS]
)
def test_the_keys_of_a_map_of_files_meet_the_scope(
    project: Project, given: dict[str, object], decision: str, code: str | None
) -> None:
    got = project.judge("mcp__fs__write_files", given, agent="coder", env=WARN)
    assert got[:2] == (decision, code)
