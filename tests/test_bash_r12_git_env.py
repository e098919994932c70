"""Round twelve (ADR 0082): where git looks, changed by the command itself.

- ``GIT_ICASE_PATHSPECS=1`` (or ``--icase-pathspecs``) makes every pathspec ignore case:
  ``GIT_ICASE_PATHSPECS=1 git checkout -- .CLAUDE/SETTINGS.JSON`` restores
  ``.claude/settings.json`` on a case-sensitive disk, where the analysis named only the
  upper-case path and a wide subagent was let through.
- a file named ``.git`` tells git where the repository of its folder is: ``echo 'gitdir:
  ../r2/.git' > s/.git`` makes ``cd s && git status`` run r2's ``core.fsmonitor`` (observed),
  so writing it is writing the config git reads there; so is a bare repository's
  ``NAME.git/config``.
- a read-only git command after an in-command change of git's environment is opaque.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

from orchestrator_boundary.bash import Status, analyze
from orchestrator_boundary.protect_git import git_code

SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
WIDE = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'

ICASE = [
    ("prefix", "GIT_ICASE_PATHSPECS=1 git checkout -- .CLAUDE/SETTINGS.JSON"),
    ("export", "export GIT_ICASE_PATHSPECS=1; git checkout -- .CLAUDE/SETTINGS.JSON"),
    ("quoted-name", 'export GIT_ICASE_PATH"SPECS"=1; git restore .CLAUDE'),
    ("env", "env GIT_ICASE_PATHSPECS=1 git checkout -- .Claude"),
    ("option", "git --icase-pathspecs restore .CLAUDE"),
    ("bash-c", "bash -c 'export GIT_ICASE_PATHSPECS=1; git checkout -- .CLAUDE'"),
    ("built-name", "X=ICASE; export GIT_${X}_PATHSPECS=1; git checkout -- .CLAUDE"),
]


@pytest.mark.parametrize("command", [i[1] for i in ICASE], ids=[i[0] for i in ICASE])
def test_a_pathspec_without_case_reaching_the_settings_is_tamper(
    tmp_path: Path, command: str
) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


def test_without_it_an_upper_case_pathspec_is_its_own_file(tmp_path: Path) -> None:
    command = "git checkout -- .CLAUDE/SETTINGS.JSON"
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "-"


GITLINK = [
    ("redirect", "echo 'gitdir: ../r2/.git' > sub/.git"),
    ("printf", "printf 'gitdir: /tmp/x\\n' > sub/.git"),
    ("move", "mv r2.git sub/.git"),
    ("link", "ln -s ../r2/.git sub/.git"),
    ("copy-into", "cp -r ../o/.git sub/"),
    ("bare-config", "printf '[core]\\n\\tfsmonitor = ./x.sh\\n' > r2.git/config"),
    ("bare-hook", "cp x.sh r2.git/hooks/pre-commit"),
]


@pytest.mark.parametrize("command", [g[1] for g in GITLINK], ids=[g[0] for g in GITLINK])
def test_pointing_a_folder_at_another_repository_is_tamper(tmp_path: Path, command: str) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


ORDINARY = [
    ("vendor", "git clone https://example.com/x vendor/x && rm -rf vendor/x/.git"),
    ("init", "git init sub"),
    ("worktree", "git worktree add wt"),
    ("commit-mentions-key", "git commit -m 'document core.pager and core.editor'"),
    ("chmod", "chmod -R u+w .git"),
    ("config-in-a-folder", "echo x > src/agit/config"),
]


@pytest.mark.parametrize("command", [o[1] for o in ORDINARY], ids=[o[0] for o in ORDINARY])
def test_ordinary_git_work_is_not_tamper(tmp_path: Path, command: str) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "-"


def test_a_bare_repositorys_config_is_code_git_runs() -> None:
    assert git_code("/p/vendor/r.git/config", "/p", None, False)
    assert git_code("/p/r.git/hooks/post-checkout", "/p", None, False)
    assert not git_code("/p/src/config", "/p", None, False)


CHANGED = [
    "export GIT_DIR=x; git status",
    "GIT_DIR=x; export GIT_DIR; git status",
    "export GIT_CONFIG_GLOBAL=./c; git log",
    "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=./d; git diff",
    "export GIT_WORK_TREE=/tmp; git status",
    "declare -x GIT_DIR=x; git status",
    "git --git-dir=r2.git log",
]


@pytest.mark.parametrize("command", CHANGED)
def test_a_read_only_git_command_after_its_environment_changed_is_opaque(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.OPAQUE


SPELLED = [
    ("upper-case", "echo x > sub/.GIT", "bash"),
    ("windows-dot", "echo x > sub/.git.", "bash"),
    ("powershell", "Set-Content -Path sub/.git -Value 'gitdir: ../r2/.git'", "powershell"),
    ("powershell-redirect", "'gitdir: x' > sub\\.GIT", "powershell"),
]


@pytest.mark.parametrize(
    ("command", "shell"), [s[1:] for s in SPELLED], ids=[s[0] for s in SPELLED]
)
def test_a_git_file_however_spelt_is_the_config_git_reads(command: str, shell: str) -> None:
    cwd = "C:/p" if shell == "powershell" else "/p"
    result = analyze(command, cwd=cwd, home="/h", shell=shell)
    assert f"{cwd}/sub/.git/config" in {e.resolved for e in result.effects}, result
