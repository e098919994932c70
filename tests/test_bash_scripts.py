"""A script file a Bash command runs (``sh F``, ``bash F``, ``source F``, ``. F``, ``./F``) is
read and analysed with the command (ADR 0040): still ``opaque`` (the file may change before it
runs), but its writes and its changes of the boundary count as the command's own."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from harden_support import Project, make_project

from orchestrator_boundary import bash
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.fs import ForeignFileSystem, RealFileSystem
from orchestrator_boundary.targets import SCRIPT_MAX_BYTES

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
CWD = "/w/p"

# (id, command, scripts given, the script path asked for, written paths, a CONTROL effect)
ROWS = [
    ("sh F", "sh ./w.sh", {"/w/p/w.sh": "echo x > out.txt\n"}, "/w/p/w.sh", ["/w/p/out.txt"], False),
    ("bash F args", "bash w.sh a b", {"/w/p/w.sh": "touch \"$1\" log\n"}, "/w/p/w.sh", ["/w/p/log"],
     False),
    ("source F", "source w.sh", {"/w/p/w.sh": "rm -f gone\n"}, "/w/p/w.sh", ["/w/p/gone"], False),
    (". F", ". ./w.sh", {"/w/p/w.sh": "orchestrator-boundary phase off\n"}, "/w/p/w.sh", [], True),
    ("./F, no #! line", "./w.sh", {"/w/p/w.sh": "echo > a\n"}, "/w/p/w.sh", ["/w/p/a"], False),
    ("./F, env bash", "./w", {"/w/p/w": "#!/usr/bin/env bash\necho > a\n"}, "/w/p/w", ["/w/p/a"],
     False),
    ("./F, python", "./w.py", {"/w/p/w.py": "#!/usr/bin/env python3\nopen('a','w')\n"}, "/w/p/w.py",
     [], False),
    ("after cd", "cd sub && sh ../w.sh", {"/w/p/sub/../w.sh": "echo > a\n"}, "/w/p/sub/../w.sh",
     ["/w/p/sub/a"],
     False),
    ("not read", "sh ./w.sh", {}, "/w/p/w.sh", [], False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("command", "scripts", "asked", "written", "control"),
    [r[1:] for r in ROWS],
    ids=[r[0] for r in ROWS],
)
def test_a_script_read_is_analysed_with_the_command_and_stays_opaque(
    command: str, scripts: dict[str, str], asked: str, written: list[str], control: bool
) -> None:
    got = bash.analyze(command, cwd=CWD, scripts=scripts)
    assert got.status is Status.OPAQUE
    assert asked in {c.script for c in got.commands}
    writes = [e.resolved for e in got.effects if e.kind in (EffectKind.WRITE, EffectKind.DELETE)]
    assert sorted(w for w in writes if w) == sorted(written)
    assert any(e.kind is EffectKind.CONTROL for e in got.effects) == control


def test_a_script_that_runs_itself_stays_opaque_without_running_out() -> None:
    got = bash.analyze("sh ./loop.sh", cwd=CWD, scripts={"/w/p/loop.sh": "sh ./loop.sh\n"})
    assert got.status is Status.OPAQUE and not got.exhausted


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def test_a_subagents_script_that_changes_the_settings_is_tamper(project: Project) -> None:
    (project.root / "w.sh").write_text("echo '{}' > .claude/settings.json\n")
    decision, code, _ = project.judge("Bash", {"command": "sh ./w.sh"}, agent="coder", env=ENFORCE)
    assert (decision, code) == ("deny", "TAMPER")


def test_a_script_that_runs_a_script_is_followed(project: Project) -> None:
    (project.root / "outer.sh").write_text("echo start\nbash ./inner.sh\n")
    (project.root / "inner.sh").write_text("orchestrator-boundary uninstall\n")
    decision, code, _ = project.judge("Bash", {"command": "./outer.sh"}, env=ENFORCE)
    assert (decision, code) == ("deny", "TAMPER")


def test_the_main_agents_script_that_writes_is_a_bash_write(project: Project) -> None:
    (project.root / "w.sh").write_text("echo x > src/app.py\n")
    decision, code, _ = project.judge("Bash", {"command": "bash w.sh"}, env=ENFORCE)
    assert (decision, code) == ("deny", "BASH_WRITE")


def test_a_script_that_only_reads_is_judged_as_opaque_as_before(project: Project) -> None:
    (project.root / "r.sh").write_text("ls\ngit status\n")
    decision, code, _ = project.judge("Bash", {"command": "sh r.sh"}, env=ENFORCE)
    assert (decision, code) == ("none", None)  # `[bash] opaque` decides, "allow" by default


def test_script_text_reads_regular_utf8_files_within_the_bound(tmp_path: Path) -> None:
    fs = RealFileSystem()
    small, large, binary = tmp_path / "s.sh", tmp_path / "l.sh", tmp_path / "b"
    small.write_text("echo hi\n")
    large.write_text("#" * (SCRIPT_MAX_BYTES + 1))
    binary.write_bytes(b"\x7fELF\xff\xfe")
    assert fs.script_text(str(small), SCRIPT_MAX_BYTES) == "echo hi\n"
    assert fs.script_text(str(large), SCRIPT_MAX_BYTES) is None
    assert fs.script_text(str(binary), SCRIPT_MAX_BYTES) is None
    assert fs.script_text(str(tmp_path), SCRIPT_MAX_BYTES) is None  # a folder
    assert fs.script_text(str(tmp_path / "missing"), SCRIPT_MAX_BYTES) is None
    assert ForeignFileSystem(windows=True).script_text(str(small), SCRIPT_MAX_BYTES) is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_named_as_a_script_does_not_hold_the_hook(tmp_path: Path) -> None:
    fifo = tmp_path / "w.sh"
    os.mkfifo(fifo)
    got: list[str | None] = []
    reader = threading.Thread(
        target=lambda: got.append(RealFileSystem().script_text(str(fifo), 100)), daemon=True
    )
    reader.start()
    reader.join(5)
    assert got == [None], "reading a FIFO blocked"
