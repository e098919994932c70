"""Round twelve: what a settings ``env`` makes every hook load (ADR 0083).

Claude Code passes the settings' ``env`` to every hook and Bash command. The launcher runs
this package with ``python -I -S`` (``PYTHONPATH``, ``PYTHONSTARTUP``, ``PYTHONHOME`` and the
user site are ignored), but ``sh``, the interpreter it finds, and every other hook honour the
rest: ``PATH`` (``sh`` itself is looked up along it), ``LD_PRELOAD``, ``BASH_ENV``,
``ORCHESTRATOR_BOUNDARY_PYTHON``, ``CLAUDE_CONFIG_DIR`` (where the launcher's pointer is read),
and another Python hook honours ``PYTHONPATH``'s ``sitecustomize.py``. Before round twelve
only an existing file an ``env`` value named as a command was protected: a library not yet
built, a program in a ``PATH`` folder, the pointer below a ``CLAUDE_CONFIG_DIR`` were ordinary
files a subagent could write first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
CONFIG = '[agents.coder]\nwrite_scope = ["**"]\n'
ENV = {
    "PATH": "./bin:/usr/bin",
    "PYTHONPATH": "lib:tools",
    "LD_PRELOAD": "./build/libhook.so",
    "DYLD_INSERT_LIBRARIES": "build/libmac.dylib",
    "PYTHONSTARTUP": "scripts/start",
    "NODE_OPTIONS": "--require ./pre --import=./loader.mjs",
    "BASH_ENV": "scripts/envrc",
    "ENV": "shrc",
    "ORCHESTRATOR_BOUNDARY_PYTHON": "tools/py",
    "CLAUDE_CONFIG_DIR": "./cfg",
    "LD_LIBRARY_PATH": "vendor/lib",
}


def _project(tmp_path: Path, env: dict[str, str], *, exist: bool = False) -> Project:
    p = make_project(tmp_path)
    settings = {
        "env": env,
        "hooks": {
            "PostToolUse": [
                {"hooks": [{"type": "command", "command": "python3 .claude/hooks/fmt.py"}]}
            ]
        },
    }
    (p.root / ".claude/settings.json").write_text(json.dumps(settings))
    if exist:
        for rel in TAMPERED:
            (p.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (p.root / rel).write_text("x\n")
    p.configure(CONFIG)
    return p


# written by a subagent whose scope holds everything: each is loaded by every hook
TAMPERED = [
    "bin/sh",  # `sh launch.sh` is looked up along PATH
    "bin/python3",
    "bin/anything-else",  # a program a hook script runs by name
    "build/libhook.so",  # LD_PRELOAD, not built yet
    "build/libmac.dylib",
    "lib/sitecustomize.py",  # every other Python hook runs it
    "tools/usercustomize.py",
    "scripts/start",
    "pre.js",  # node resolves --require ./pre to pre.js
    "loader.mjs",
    "scripts/envrc",
    "shrc",
    "tools/py",  # the interpreter the launcher takes
    "cfg/orchestrator-boundary/launcher",  # the launcher's pointer below CLAUDE_CONFIG_DIR
    "cfg/settings.json",
    "vendor/lib/libc.so.6",
]


@pytest.mark.parametrize("exist", [False, True], ids=["not-yet", "existing"])
@pytest.mark.parametrize("rel", TAMPERED)
def test_what_the_env_loads_is_protected(tmp_path: Path, rel: str, exist: bool) -> None:
    p = _project(tmp_path, ENV, exist=exist)
    decision, code, _ = p.judge(
        "Write", {"file_path": str(p.root / rel), "content": "x"}, agent="coder", env=WARN
    )
    assert (decision, code) == ("deny", "TAMPER")


# a project's own code stays ordinary work though the env names its folders
ORDINARY = [
    ("pythonpath-is-src", {"PYTHONPATH": "src"}, "src/app.py"),
    ("pythonpath-module", {"PYTHONPATH": "lib"}, "lib/json_tools.py"),
    ("path-is-the-root", {"PATH": ".:/usr/bin"}, "src/app.py"),
    ("path-is-the-root-file", {"PATH": ".:/usr/bin"}, "build.sh"),
    ("path-holds-the-root", {"PATH": "/:/usr/bin"}, "src/app.py"),
    ("plain-values", {"FOO": "src", "DEBUG": "1"}, "src/app.py"),
]


@pytest.mark.parametrize(("env", "rel"), [r[1:] for r in ORDINARY], ids=[r[0] for r in ORDINARY])
def test_ordinary_files_stay_ordinary(tmp_path: Path, env: dict[str, str], rel: str) -> None:
    p = _project(tmp_path, env)
    decision, code, _ = p.judge(
        "Write", {"file_path": str(p.root / rel), "content": "x"}, agent="coder", env=WARN
    )
    assert (decision, code) == ("none", None)


def test_path_that_holds_the_root_protects_the_programs_hooks_run(tmp_path: Path) -> None:
    p = _project(tmp_path, {"PATH": ".:/usr/bin"})
    decision, code, _ = p.judge(
        "Write", {"file_path": str(p.root / "sh"), "content": "x"}, agent="coder", env=WARN
    )
    assert (decision, code) == ("deny", "TAMPER")


def test_windows_env_is_split_on_semicolons() -> None:
    from orchestrator_boundary.protect_hooks import env_places

    root = "C:\\proj"
    table: dict[str, object] = {"Path": "C:\\proj\\bin;C:\\Windows", "pythonpath": "src"}
    found = {(p, f) for p, f, _ in env_places([table], root, "C:\\Users\\dev", windows=True)}
    assert ("C:\\proj\\bin", True) in found
    assert ("C:\\proj\\src\\sitecustomize.py", False) in found
    assert not any(p == "C:\\proj\\src" for p, _ in found)


def test_the_hooks_own_interpreter_ignores_python_variables(tmp_path: Path) -> None:
    """Why ``PYTHONPATH`` folders are not protected whole: the launcher's ``-I -S`` keeps
    them out of this package's interpreter (only other Python hooks read them)."""
    (tmp_path / "sitecustomize.py").write_text("open('ran', 'w').write('x')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONSTARTUP": str(tmp_path)}
    subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], cwd=tmp_path, env=env, check=True)
    assert not (tmp_path / "ran").exists()
    subprocess.run([sys.executable, "-c", "pass"], cwd=tmp_path, env=env, check=True)
    assert (tmp_path / "ran").exists()


@pytest.mark.parametrize("program", ["sed", "mkdir", "date", "npx", "git"])
def test_path_that_holds_the_root_protects_the_launchers_own_programs(
    tmp_path: Path, program: str
) -> None:
    """launch.sh runs sed, tr, date, mkdir, mv, cut by name: each looked up along PATH."""
    p = _project(tmp_path, {"PATH": ".:/usr/bin"})
    decision, code, _ = p.judge(
        "Write", {"file_path": str(p.root / program), "content": "x"}, agent="coder", env=WARN
    )
    assert (decision, code) == ("deny", "TAMPER")
