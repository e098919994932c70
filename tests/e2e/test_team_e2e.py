"""A committed install under the real CLI: two "machines", and ``onFailure`` (ADRs 0023, 0024).

Machine A installs the boundary in a git repository and commits; machine B clones it into
another folder, with another HOME and another interpreter path. On B, before B has its own
installation, enforce blocks every call with how to install and warn lets calls through;
after B's own ``install`` (which changes nothing that is committed), B is guarded.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Project

pytestmark = pytest.mark.e2e

BRAND = "orchestrator-boundary"
BARE_PATH = os.pathsep.join(["/usr/bin", "/bin"])  # node, git, sh; no Python with the package


def venv_python(folder: Path) -> Path:
    """A venv-like interpreter at its own path, borrowing this interpreter's libraries."""
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.symlink_to(os.path.realpath(sys.executable))
    (folder / "pyvenv.cfg").write_text((Path(sys.prefix) / "pyvenv.cfg").read_text())
    (folder / "lib").symlink_to(Path(sys.prefix) / "lib")
    return python


def boundary_cli(python: Path, home: Path, *argv: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env.update(HOME=str(home), PATH=BARE_PATH)
    done = subprocess.run(
        [str(python), "-m", "orchestrator_boundary.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def git(*argv: str, cwd: Path | None = None) -> None:
    subprocess.run(
        ["git", "-c", "user.name=a", "-c", "user.email=a@b", *argv],
        cwd=cwd,
        check=True,
        capture_output=True,
        timeout=60,
    )


def two_machines(
    harness: Harness, phase: str, git_config: tuple[str, ...] = ()
) -> tuple[Project, Project]:
    """A installs (``phase``) and commits; B is a clone with its own HOME, made with
    ``git_config`` (``("-c", "core.autocrlf=true")``). Returns (A, B)."""
    a = harness.project(git=True, files={"README.md": "hi\n"})
    a_python = venv_python(a.home.parent / "tools-a" / "venv")
    boundary_cli(a_python, a.home, "install", "--project", str(a.root), "--phase", phase, "--force")
    git("add", "-A", cwd=a.root)
    git("commit", "-q", "-m", "guard the project", cwd=a.root)
    b = harness.project()
    shutil.rmtree(b.root)
    git(*git_config, "clone", "-q", str(a.root), str(b.root))
    return a, b


def write(project: Project, name: str) -> Call:
    return Call("Write", {"file_path": str(project.path(name)), "content": "new\n"})


def test_a_teammate_without_the_boundary_is_blocked_in_enforce(harness: Harness) -> None:
    a, b = two_machines(harness, "enforce")
    run = harness.run(
        b,
        {
            "main": [
                write(b, "new.txt"),
                Call("Read", {"file_path": str(b.path("README.md"))}),
                Text(),
            ]
        },
        env={"PATH": BARE_PATH},
    )
    for step, tool in ((0, "Write"), (1, "Read")):
        got = run.result_for("main", step)
        assert got.is_error and got.text.startswith(f"PreToolUse:{tool} hook error: "), run.explain(
            "not blocked"
        )
        assert "orchestrator-boundary is not installed on this machine" in got.text
        assert "python3 -m pip install PATH-TO-CLONE" in got.text
    assert not b.path("new.txt").exists()
    # the installer's machine is guarded by the same committed files
    run = harness.run(a, {"main": [write(a, "new.txt"), Text()]}, env={"PATH": BARE_PATH})
    got = run.result_for("main", 0)
    assert got.is_error and BRAND in got.text and "not installed" not in got.text, got.text
    assert not a.path("new.txt").exists()


def test_a_teammate_without_the_boundary_is_told_in_warn(harness: Harness) -> None:
    _a, b = two_machines(harness, "warn")
    run = harness.run(
        b, {"main": [write(b, "one.txt"), write(b, "two.txt"), Text()]}, env={"PATH": BARE_PATH}
    )
    for step in (0, 1):
        assert not run.result_for("main", step).is_error, run.explain("warn blocked a call")
    assert b.path("one.txt").exists() and b.path("two.txt").exists()
    told = b.home / ".claude" / "orchestrator-boundary" / "told"
    assert len(list(told.iterdir())) == 1  # one session, told once
    # the CLI records each hook's output in the session transcript: one systemMessage, once
    said = []
    for transcript in (b.home / ".claude" / "projects").rglob("*.jsonl"):
        for line in transcript.read_text(encoding="utf-8").splitlines():
            attachment = json.loads(line).get("attachment") or {}
            if attachment.get("hookEvent") == "PreToolUse" and attachment.get("stdout"):
                said.append(json.loads(attachment["stdout"])["systemMessage"])
    assert len(said) == 1, run.explain(f"the user was not told exactly once: {said}")
    assert said[0].startswith("orchestrator-boundary is not installed on this machine")


def test_a_teammates_own_install_guards_the_clone(harness: Harness) -> None:
    _a, b = two_machines(harness, "enforce")
    b_python = venv_python(b.home.parent / "tools b" / "other venv")
    boundary_cli(b_python, b.home, "install", "--project", str(b.root))
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=b.root, capture_output=True, text=True, check=True
    )
    assert status.stdout == "", status.stdout
    run = harness.run(b, {"main": [write(b, "new.txt"), Text()]}, env={"PATH": BARE_PATH})
    got = run.result_for("main", 0)
    assert got.is_error and BRAND in got.text and "not installed" not in got.text, got.text
    assert not b.path("new.txt").exists()
    trail = b.path(".claude/boundary/audit.jsonl").read_text(encoding="utf-8").splitlines()
    assert any(json.loads(line).get("decision") == "deny" for line in trail)


@pytest.mark.parametrize(
    ("phase", "blocked"),
    [("enforce", True), ("ask", True), ("warn", False)],
    ids=["enforce blocks", "ask blocks", "warn lets through"],
)
def test_a_broken_hook_command_and_onfailure(harness: Harness, phase: str, blocked: bool) -> None:
    """The interpreter an install pinned is gone: enforce and ask block, warn lets the call
    through. Since ADR 0084 the entry's own guard answers (it tests the interpreter too), so
    this holds without ``onFailure`` as well; before, ``exec`` exited 127 and only
    ``onFailure`` blocked."""
    project = harness.project(boundary_toml=f'phase = "{phase}"\n')
    python = venv_python(project.home.parent / "gone" / "venv")
    boundary_cli(
        python, project.home, "install", "--project", str(project.root), "--scope", "local"
    )
    settings = json.loads(project.path(".claude/settings.local.json").read_text("utf-8"))
    entry = settings["hooks"]["PreToolUse"][0]["hooks"][0]
    assert ("onFailure" in entry) is blocked and str(python) in entry["command"]
    shutil.rmtree(python.parent.parent)
    run = harness.run(project, {"main": [write(project, "x.txt"), Text()]})
    got = run.result_for("main", 0)
    if blocked:
        assert got.is_error and "the interpreter these hooks run, is gone" in got.text, got.text
        assert not project.path("x.txt").exists()
    else:
        assert not got.is_error, got.text
        assert project.path("x.txt").exists()
