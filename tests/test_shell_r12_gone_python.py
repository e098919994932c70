"""Round twelve, the hook shell: a machine-local entry whose interpreter is gone while the
package's files remain (ADR 0084).

A venv's ``bin/python`` is a link to its base Python; ``brew upgrade`` (3.11 to 3.12), ``pyenv
uninstall`` or ``uv python uninstall`` leaves it dangling. The gone guard checked only that
``launcher.py`` is there, so ``exec`` failed: exit 127, which Claude Code lets through without
``onFailure`` (warn, ask and enforce before 2.1.295), with sh's own "not found" as the only
word. Now the guard checks the interpreter too and answers as for a gone package."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from orchestrator_boundary import registration

SH = shutil.which("sh") or "/bin/sh"


@pytest.mark.parametrize(
    ("phase", "event", "code"),
    [("enforce", "PreToolUse", 2), ("warn", "PreToolUse", 0), ("enforce", "Stop", 0)],
)
def test_an_entry_whose_interpreter_link_dangles_answers_by_phase(
    tmp_path: Path, phase: str, event: str, code: int
) -> None:
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    python = venv / "python"
    python.symlink_to(tmp_path / "removed-base" / "python3.11")  # dangling
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n')
    entry = registration.entries("local", phase, python=str(python))[event]
    done = subprocess.run(
        [SH, "-c", str(entry["command"])],
        input=b"{}",
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(root)},
        cwd=root,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    assert f"{python}, the interpreter these hooks run, is gone".encode() in done.stderr
    assert registration.entry_argv(entry)[0] == str(python)  # still read as ours


def test_a_gone_package_still_says_its_launcher_is_gone(tmp_path: Path) -> None:
    gone = tmp_path / "gone venv" / "orchestrator_boundary" / "launcher.py"
    entry = registration.entries("local", "enforce", launcher_py=str(gone))["PreToolUse"]
    done = subprocess.run(
        [SH, "-c", str(entry["command"])],
        input=b"{}",
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(tmp_path)},
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"orchestrator-boundary: {gone} is gone (the package".encode())
    assert b"the interpreter these hooks run" not in done.stderr
