"""Issue 13 point 8: the protected set covers everything the hook needs to run, every settings
file Claude Code reads, every env file of the project, and the evaluator's runtime folder.

In warn and under the bypass a write to any of them is still TAMPER, by the orchestrator and by
a subagent. Through the hook shell (``shell.evaluate``) against a real project in tmp_path.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_hook
from harden_support import Project, make_project, parse_answer

from orchestrator_boundary import wire
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.paths import locate
from orchestrator_boundary.protect import hit, kept_runtime, protected_set
from orchestrator_boundary.setups import FS


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    p.env["CLAUDE_CONFIG_DIR"] = str(tmp_path / "claude-config")
    p.env[wire.RUNTIME_DIR_ENV] = str(tmp_path / "runtime")
    return p


_PATHS = sysconfig.get_paths()
_IN_VENV = sys.prefix != sys.base_prefix

# (id) -> the file a write would change, from the project and its tmp_path
TARGETS: dict[str, Callable[[Project], Path]] = {
    # what the hook needs to run
    "interpreter (sys.executable)": lambda p: Path(sys.executable),
    "interpreter, resolved": lambda p: Path(os.path.realpath(sys.executable)),
    "base installation (sys.base_prefix)": lambda p: Path(sys.base_prefix) / "new-file",
    "stdlib module": lambda p: Path(_PATHS["stdlib"]) / "os.py",
    "stdlib new module": lambda p: Path(_PATHS["stdlib"]) / "sitecustomize.py",
    "platstdlib": lambda p: Path(_PATHS["platstdlib"]) / "x.py",
    "site-packages (purelib)": lambda p: Path(_PATHS["purelib"]) / "zzz.pth",
    "site-packages (platlib)": lambda p: Path(_PATHS["platlib"]) / "pydantic/__init__.py",
    "pyvenv.cfg": lambda p: Path(sys.prefix) / "pyvenv.cfg",
    # every settings file Claude Code reads
    "user settings": lambda p: p.home / ".claude/settings.json",
    "user local settings": lambda p: p.home / ".claude/settings.local.json",
    "project settings": lambda p: p.root / ".claude/settings.json",
    "local settings": lambda p: p.root / ".claude/settings.local.json",
    "managed settings (Linux)": lambda p: Path("/etc/claude-code/managed-settings.json"),
    "managed settings (macOS)": lambda p: Path(
        "/Library/Application Support/ClaudeCode/managed-settings.json"
    ),
    "CLAUDE_CONFIG_DIR settings": lambda p: Path(p.env["CLAUDE_CONFIG_DIR"]) / "settings.json",
    "CLAUDE_CONFIG_DIR local settings": lambda p: (
        Path(p.env["CLAUDE_CONFIG_DIR"]) / "settings.local.json"
    ),
    # every env file
    ".env": lambda p: p.root / ".env",
    ".env.local": lambda p: p.root / ".env.local",
    ".env.production": lambda p: p.root / ".env.production",
    ".env.dist": lambda p: p.root / ".env.dist",
    ".env.example.local": lambda p: p.root / ".env.example.local",
    ".envrc": lambda p: p.root / ".envrc",
    # ... at any depth below the root (a loader started there, direnv walking up, reads them)
    "src/.env": lambda p: p.root / "src/.env",
    "a/b/c/.envrc": lambda p: p.root / "a/b/c/.envrc",
    "src/.env.local": lambda p: p.root / "src/.env.local",
    "packages/api/.env.production": lambda p: p.root / "packages/api/.env.production",
    # the evaluator's runtime folder
    "evaluator runtime folder": lambda p: Path(p.env[wire.RUNTIME_DIR_ENV]) / "0123.sock",
}

CALLERS = {"orchestrator": None, "subagent": "coder"}
BYPASS = {"AMPLIFIER_BYPASS_BOUNDARY": "1"}
MODES = {
    "warn": {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
    "enforce + bypass": {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", **BYPASS},
    "warn + bypass": {"ORCHESTRATOR_BOUNDARY_PHASE": "warn", **BYPASS},
}

# every scope covers everything: protection must not depend on the scopes
WIDE_OPEN = """
[orchestrator]
write_allow = ["**", "/**"]

[subagents]
write_outside_root = ["/**"]

[agents.coder]
write_scope = ["**", "/**"]
"""


@pytest.mark.parametrize("mode", list(MODES), ids=list(MODES))
@pytest.mark.parametrize("caller", list(CALLERS), ids=list(CALLERS))
@pytest.mark.parametrize("target", list(TARGETS), ids=list(TARGETS))
def test_writes_to_what_the_hook_depends_on_are_tamper(
    project: Project, target: str, caller: str, mode: str
) -> None:
    if target == "pyvenv.cfg" and not _IN_VENV:
        pytest.fail("the suite runs in a venv (setup.sh); pyvenv.cfg cannot be checked")
    project.configure(WIDE_OPEN)
    path = str(TARGETS[target](project))
    decision, code, answer = project.judge(
        "Write", {"file_path": path, "content": ""}, agent=CALLERS[caller], env=MODES[mode]
    )
    assert (decision, code) == ("deny", "TAMPER"), path
    out = parse_answer(answer)
    assert out is not None
    assert '"recoverable": false' in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_the_evaluators_default_runtime_folder_is_protected(project: Project) -> None:
    del project.env[wire.RUNTIME_DIR_ENV]
    folder = wire.runtime_dir_of({k.encode(): v.encode() for k, v in project.env.items()})
    decision, code, _ = project.judge(
        "Write",
        {"file_path": os.path.join(folder, "x.sock"), "content": ""},
        agent="coder",
        env=MODES["warn + bypass"],
    )
    assert (decision, code) == ("deny", "TAMPER")


@pytest.mark.parametrize(
    "rel",
    [
        ".envoy.yaml",
        "env.local",
        "docs/envrc",
        ".env.example",
        ".env.sample",
        ".env.template",
        "src/.env.example",
        "src/.envoy.yaml",
        "src/.env/x.txt",
        "src/x.env",
    ],
    ids=[
        "not .env.",
        "no dot",
        "envrc in docs",
        "template .env.example",
        "sample",
        "template",
        "template below the root",
        "not .env. below the root",
        "a folder named .env",
        "name ending in .env",
    ],
)
def test_files_that_only_look_like_env_files_are_not_tamper(project: Project, rel: str) -> None:
    project.configure(WIDE_OPEN)
    decision, code, _ = project.judge(
        "Write", {"file_path": str(project.root / rel), "content": ""}, agent="coder"
    )
    assert (decision, code) == ("none", None)


def test_a_python_installed_above_the_project_does_not_protect_the_project(tmp_path: Path) -> None:
    """With Python at /usr and the project in /usr/src/app, protecting /usr as a folder made
    every project file TAMPER; the installation's own parts stay protected."""
    usr = tmp_path / "usr"
    root = usr / "src" / "app"
    stdlib = usr / "lib" / "python3"
    for d in (root, stdlib):
        d.mkdir(parents=True)
    runtime = [
        (str(usr), True, "the Python installation the hook runs on"),
        (str(stdlib), True, "the standard library the hook runs on"),
        (str(usr / "bin" / "python3"), False, "the interpreter the hook runs"),
    ]
    assert [r[0] for r in kept_runtime(runtime, str(root), None)] == [r[0] for r in runtime[1:]]
    protected = protected_set(
        str(root),
        home=None,
        config_file=str(root / ".claude/boundary.toml"),
        audit_file=str(root / ".claude/boundary/audit.jsonl"),
        package_dirs=(),
        fs=FS,
        runtime=runtime,
    )

    def found(path: Path) -> str | None:
        entry = hit(locate(str(path), str(root), FS), protected, (str(root),))
        return entry.label if entry else None

    assert found(root / "src" / "main.py") is None
    assert found(stdlib / "os.py") == "the standard library the hook runs on"
    assert found(usr / "bin" / "python3") == "the interpreter the hook runs"


# Bash commands that write an env file below the root; each TAMPER for every agent, in warn
ENV_COMMANDS = [
    "echo AMPLIFIER_BYPASS_BOUNDARY=1 > src/.env",
    "printf 'x' >> packages/api/.env.local",
    "cp /tmp/evil a/b/.envrc",
    "cd src && echo X=1 > .env",
    'echo X=1 > "$PWD/src/.env"',
    "echo X=1 > $DIR/.env",
    "echo X=1 > src/*/.env",
    "tee src/deep/.env.production < /dev/null",
]


@pytest.mark.parametrize("caller", list(CALLERS), ids=list(CALLERS))
@pytest.mark.parametrize("command", ENV_COMMANDS, ids=ENV_COMMANDS)
def test_bash_writes_to_env_files_below_the_root_are_tamper(
    project: Project, command: str, caller: str
) -> None:
    project.configure(WIDE_OPEN + '[bash]\nallow_write = ["**", "/**"]\n')
    (project.root / "src" / "deep").mkdir()
    decision, code, _ = project.judge(
        "Bash", {"command": command}, agent=CALLERS[caller], env=MODES["warn + bypass"]
    )
    assert (decision, code) == ("deny", "TAMPER")


@pytest.mark.parametrize(
    "command",
    [
        "echo X=1 > src/.env.example",
        "echo X=1 > /tmp/elsewhere/.env",
        "echo X=1 > $DIR/notes.txt",
        "echo X=1 > src/env.txt",
    ],
)
def test_bash_writes_to_files_that_are_no_env_files_below_the_root_stay_ordinary(
    project: Project, command: str
) -> None:
    project.configure(WIDE_OPEN + '[bash]\nallow_write = ["**", "/**"]\n')
    decision, code, _ = project.judge(
        "Bash", {"command": command}, agent="coder", env=MODES["warn"]
    )
    assert (decision, code) == ("none", None)


def test_env_files_below_the_root_are_found_on_a_case_insensitive_file_system() -> None:
    class Insensitive(RealFileSystem):
        def case_insensitive(self, root: str) -> bool:
            return True

    fs = Insensitive()
    root = "/p/proj"
    protected = protected_set(
        root, home=None, config_file=f"{root}/.claude/boundary.toml",
        audit_file=f"{root}/.claude/boundary/audit.jsonl", package_dirs=(), fs=fs,
    )  # fmt: skip
    for rel, label in [("Src/.ENV", ".env"), ("a/.EnvRC", ".envrc"), ("b/.Env.Local", ".env.*")]:
        found = hit(locate(f"{root}/{rel}", root, fs, True), protected)
        assert found is not None and found.label == label, rel
    assert hit(locate(f"{root}/b/.ENV.example", root, fs, True), protected) is None


@pytest.mark.parametrize("home_var", ["USERPROFILE", None])
def test_the_users_settings_stay_protected_when_the_hook_runs_without_home(
    tmp_path: Path, home_var: str | None
) -> None:
    """Without ``HOME`` (a hook started by a service, native Windows) the user-level files
    lost their protection: a Write to ``~/.claude/settings.json`` was only a scope warning.
    The home is then ``USERPROFILE``, else the account's own home folder."""
    import pwd

    root = tmp_path / "p"
    (root / ".claude").mkdir(parents=True)
    home = tmp_path / "profile" if home_var else Path(pwd.getpwuid(os.getuid()).pw_dir)
    env = {"CLAUDE_PROJECT_DIR": str(root), "ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    if home_var:
        env[home_var] = str(home)
    target = home / ".claude" / "settings.json"
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(target), "content": "{}"},
        "agent_id": "a1",
        "agent_type": "general-purpose",
    }
    rc, out, _ = run_hook(payload, env)
    assert out is not None, (rc, out)
    hook = out["hookSpecificOutput"]
    assert hook["permissionDecision"] == "deny" and "TAMPER" in hook["permissionDecisionReason"]


@pytest.mark.parametrize(
    "rel",
    [
        ".claude/worktrees/w/.claude/settings.local.json",
        ".claude/worktrees/w/.claude/settings.json",
        "sub/.claude/boundary.toml",
        "sub/.claude/agents/x.md",
        "sub/deeper/.claude/orchestrator-boundary/launch.sh",
    ],
)
def test_claude_files_of_a_folder_below_the_root_are_protected(tmp_path: Path, rel: str) -> None:
    """Claude Code puts worktrees in ``.claude/worktrees/NAME``; a session started there (or
    in any subfolder) reads that folder's own ``.claude``. A subagent wrote
    ``{"disableAllHooks": true}`` there and the next session in the worktree was unguarded."""
    root = tmp_path / "p"
    (root / ".claude").mkdir(parents=True)
    env = {
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_PHASE": "warn",
        "HOME": str(tmp_path),
    }
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(root / rel), "content": "{}"},
        "agent_id": "a1",
        "agent_type": "general-purpose",
    }
    _, out, _ = run_hook(payload, env)
    assert out is not None and "TAMPER" in out["hookSpecificOutput"]["permissionDecisionReason"]
    ordinary = {
        **payload,
        "tool_input": {"file_path": str(root / rel.replace(".claude/", "")), "content": ""},
    }
    assert run_hook(ordinary, env)[1] is None  # the same folder's source files stay ordinary
