"""Round eleven (ADR 0077): a link made earlier in the same command, in a folder. ``ln -s
../.claude/settings.json src/`` (or ``src`` a folder, or ``-t src``) makes
``src/settings.json``, whose relative text is read from ``src``: the analysis read it from
the folder above, placed the link's target outside the project, and a subagent's later
``echo {} > src/settings.json`` wrote the settings unseen. ``ln -sr`` reads its text where
ln runs. Each row is also observed in ``tests/reality_cases_attack_g.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
WIDE = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'

THROUGH = [
    ("into-folder-slash", "ln -s ../.claude/settings.json src/ && echo {} > src/settings.json"),
    ("into-folder", "ln -s ../.claude/settings.json src && echo {} > src/settings.json"),
    ("t-folder", "ln -s -t src ../.claude/settings.json && echo {} > src/settings.json"),
    ("relative-r", "ln -sr .mcp.json src/x && echo {} > src/x"),
    ("relative-r-long", "ln --symbolic --relative .claude/settings.json src/x && tee src/x"),
    ("named", "ln -s ../.claude/settings.json src/x && echo {} > src/x"),
    # a glob read before the link exists (ADR 0076's check lists the folder then)
    ("glob-redirect", "ln -s ../.claude/settings.json src/x && echo {} > src/*"),
    ("glob-tee", "ln -s ../.claude/settings.json src/x && echo {} | tee src/?"),
    ("glob-after-cd", "ln -s ../.claude/settings.json src/x && cd src && echo {} > *"),
    ("glob-through-folder", "ln -s ../.claude src/d && echo {} > src/*/settings.json"),
    ("glob-in-linked-folder", "ln -s ../.claude src/d && echo {} | tee src/d/*"),
    ("glob-two-levels", "ln -s ../.claude src/d && echo {} | tee src/*/*.json"),
]


@pytest.mark.parametrize("command", [t[1] for t in THROUGH], ids=[t[0] for t in THROUGH])
def test_a_write_through_a_link_made_in_a_folder_is_tamper(tmp_path: Path, command: str) -> None:
    (tmp_path / ".mcp.json").write_text("{}")
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


CONTROLS = [
    ("other-file", "ln -s ../.claude/settings.json src/x && echo {} > src/y"),
    ("link-to-a-source", "ln -s ../a.py src/ && echo x > src/a.py"),
    ("glob-not-matching", "ln -s ../.claude/settings.json src/x && echo {} | tee src/*.py"),
    ("glob-link-to-a-source", "ln -s ../a.py src/x && echo {} > src/*"),
]


@pytest.mark.parametrize("command", [c[1] for c in CONTROLS], ids=[c[0] for c in CONTROLS])
def test_other_writes_beside_a_link_pass(tmp_path: Path, command: str) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "-"


DEV_FD = [
    ("redirect", "echo {} > /dev/fd/../cwd/.claude/settings.json"),
    ("cp", "cp f /dev/fd/../cwd/.claude/settings.json"),
]


@pytest.mark.parametrize("command", [d[1] for d in DEV_FD], ids=[d[0] for d in DEV_FD])
def test_dev_fd_dotdot_is_the_process_folder(tmp_path: Path, command: str) -> None:
    """/dev/fd is /proc/self/fd on Linux: ``/dev/fd/../cwd`` is the folder the command runs in
    (observed); it was read as a folder /dev/cwd, outside the project."""
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


MOVED = [
    ("function", "f() { cd .claude; }; f; echo {} > settings.json"),
    ("function-keyword", "function g { cd .claude; }; g; cp x settings.json"),
    ("function-and", "f() { cd .claude; }; f && tee settings.json"),
    ("zsh-pipeline-last", "true | cd .claude; tee settings.json"),
]


@pytest.mark.parametrize("command", [m[1] for m in MOVED], ids=[m[0] for m in MOVED])
def test_a_function_or_zsh_pipeline_that_moves_the_shell(tmp_path: Path, command: str) -> None:
    """A function with a ``cd`` moves the shell that calls it, and zsh runs a pipeline's last
    part in the shell itself (observed, ``tests/reality_cases_attack_g.py``); the analysis
    kept the folder it started in, so ``settings.json`` was the root's."""
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


@pytest.mark.parametrize(
    "command",
    ["f() { cd src; }; echo {} > src/a.py", "f() { ls; }; f; echo {} > src/a.py", "ls | wc -l"],
)
def test_a_function_not_called_or_without_cd_keeps_the_folder(tmp_path: Path, command: str) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "-"


def test_a_sourced_script_that_moves_the_shell(tmp_path: Path) -> None:
    """``source`` runs its file in the shell itself: a ``cd`` there sticks (the analysis kept
    the folder it started in); a script with no ``cd``, as a venv's activate, keeps it."""
    (tmp_path / "x.sh").write_text("cd .claude\n")
    (tmp_path / "plain.sh").write_text("export A=1\n")
    for command in (". ./x.sh; echo {} > settings.json", "source x.sh; tee settings.json"):
        assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) != "-", command
    plain = "source plain.sh && echo {} > src/a.py"
    assert bash_violation(tmp_path, WIDE, plain, **SUBAGENT) == "-"


INDIRECT = [
    ("alias-next-line", "alias go='cd .claude'\ngo; tee settings.json"),
    ("function-calls-function", "g() { f; }; f() { cd .claude; }; g; tee settings.json"),
    ("function-eval", "f() { eval cd .claude; }; f; tee settings.json"),
    ("function-pushd", "f() { pushd .claude; }; f; tee settings.json"),
    ("function-named-cd", "cd() { builtin cd .claude; }; cd src; tee settings.json"),
]


@pytest.mark.parametrize("command", [i[1] for i in INDIRECT], ids=[i[0] for i in INDIRECT])
def test_an_alias_or_a_function_chain_that_moves_the_shell(tmp_path: Path, command: str) -> None:
    """Each writes .claude/settings.json (the alias with expand_aliases, as Claude Code's shell
    snapshot sets it): refused, where it was let through."""
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) != "-"


@pytest.mark.parametrize(
    "command",
    ["alias ll='ls -l'\nll; echo {} > src/a.py", "g() { g; }; g; echo {} > src/a.py"],
)
def test_aliases_and_functions_that_do_not_move_keep_the_folder(
    tmp_path: Path, command: str
) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "-"
