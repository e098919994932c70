"""Round eleven: the code git runs, ``.git/hooks/`` and a git config's commands (ADR 0078).

Before: a subagent (any scope that held ``.git``, or none) wrote ``.git/hooks/pre-commit`` or
``core.fsmonitor`` into ``.git/config`` with any tool, in every phase; the next ``git commit``
or ``git status``, by any agent or the person, ran that code with no hook asked, and it could
rewrite the settings. ``test_the_chain_is_real`` shows both routes do so.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
CONFIG = """
[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[agents.coder]
write_scope = ["**"]
"""


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    (p.root / ".git" / "hooks").mkdir(parents=True)
    (p.root / ".git" / "config").write_text("[core]\n")
    p.configure(CONFIG)
    return p


# (id, who, tool, input, decision in warn, code)
ROWS: list[tuple[str, str | None, str, dict[str, Any], str, str | None]] = [
    ("write-hook", "coder", "Write", {"file_path": "{root}/.git/hooks/pre-commit", "content": "x"}, "deny", "TAMPER"),
    ("write-config", "coder", "Write", {"file_path": "{root}/.git/config", "content": "x"}, "deny", "TAMPER"),
    ("edit-config-main", None, "Edit", {"file_path": "{root}/.git/config", "old_string": "a", "new_string": "b"}, "deny", "TAMPER"),
    ("submodule-hook", "coder", "Write", {"file_path": "{root}/.git/modules/lib/hooks/post-checkout", "content": "x"}, "deny", "TAMPER"),
    ("nested-repo-config", "coder", "Write", {"file_path": "{root}/vendor/x/.git/config", "content": "x"}, "deny", "TAMPER"),
    ("worktree-config", "coder", "Write", {"file_path": "{root}/.git/worktrees/w/config.worktree", "content": "x"}, "deny", "TAMPER"),
    ("mcp-hook", "coder", "mcp__fs__write_file", {"path": ".git/hooks/pre-push", "content": "x"}, "deny", "TAMPER"),
    ("user-gitconfig", "coder", "Write", {"file_path": "{home}/.gitconfig", "content": "x"}, "deny", "TAMPER"),
    ("bash-append-config", "coder", "Bash", {"command": "printf '[core]\\n\\tfsmonitor = x\\n' >> .git/config"}, "deny", "TAMPER"),
    ("bash-copy-hook", "coder", "Bash", {"command": "cp evil.sh .git/hooks/pre-commit"}, "deny", "TAMPER"),
    ("bash-move-hooks-folder", "coder", "Bash", {"command": "mv evil .git/hooks"}, "deny", "TAMPER"),
    ("git-config-fsmonitor", "coder", "Bash", {"command": "git config core.fsmonitor 'sh -c x'"}, "deny", "TAMPER"),
    ("git-config-hookspath", "coder", "Bash", {"command": "git config core.hooksPath scripts/hooks"}, "deny", "TAMPER"),
    ("git-config-alias", "coder", "Bash", {"command": "git config alias.st '!sh -c x'"}, "deny", "TAMPER"),
    # what stays: git's daily work, and names that only look alike
    ("git-commit", "coder", "Bash", {"command": "git commit -m x"}, "none", None),
    ("git-config-user", "coder", "Bash", {"command": "git config user.name x"}, "none", None),
    ("git-remote-add", "coder", "Bash", {"command": "git remote add origin https://example.com/x.git"}, "none", None),
    ("git-push-upstream", "coder", "Bash", {"command": "git push -u origin main"}, "none", None),
    ("git-config-pager-cat", "coder", "Bash", {"command": "git config core.pager cat"}, "none", None),
    ("gitignore", "coder", "Write", {"file_path": "{root}/.gitignore", "content": "x"}, "none", None),
    ("github-hooks", "coder", "Write", {"file_path": "{root}/.github/hooks/x.yml", "content": "x"}, "none", None),
    ("docs-about-git", "coder", "Write", {"file_path": "{root}/docs/.git-config/hooks.md", "content": "x"}, "none", None),
    ("git-head", "coder", "Write", {"file_path": "{root}/.git/HEAD", "content": "x"}, "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "tool", "tool_input", "decision", "code"),
    [r[1:] for r in ROWS],
    ids=[r[0] for r in ROWS],
)
def test_code_git_runs_is_protected(
    project: Project,
    who: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    given = {
        k: v.replace("{root}", str(project.root)).replace("{home}", str(project.home))
        if isinstance(v, str)
        else v
        for k, v in tool_input.items()
    }
    assert project.judge(tool, given, agent=who, env=WARN)[:2] == (decision, code)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_chain_is_real(tmp_path: Path) -> None:
    """A hook script and an fsmonitor command each rewrite the settings when git runs."""
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, env=env, check=False, capture_output=True)

    git("init", "-q")
    settings.write_text('{"hooks": 1}')
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.write_text('#!/bin/sh\necho "{}" > .claude/settings.json\n')
    hook.chmod(0o755)
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "x")
    assert settings.read_text().strip() == "{}"
    settings.write_text('{"hooks": 1}')
    git("config", "core.fsmonitor", 'echo "{}" > .claude/settings.json; false')
    git("status")
    assert settings.read_text().strip() == "{}"
