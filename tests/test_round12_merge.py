"""Round twelve, found at the merge (ADR 0086): what one area saw in another's files.

- A program the hook's own ``PATH`` finds in the project before the system's (``sh``, what
  ``launch.sh`` runs by name) may not be planted by any agent, in any phase but off; deleting
  the folder that would hold it stays ordinary work.
- A ``boundary.toml`` saved with a byte-order mark (Windows PowerShell 5, old Notepad) is read,
  not judged broken.
- The audit line of an MCP tool whose name says it only reads carries no content trace.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from harden_support import WIDE_OPEN, Project, make_project

WARN_WIDE = 'phase = "warn"\n' + WIDE_OPEN


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    p.configure(WARN_WIDE)
    for folder in ("bin", ".venv/bin", "tools"):
        (p.root / folder).mkdir(parents=True)
    return p


def _path(p: Project, *folders: str) -> dict[str, str]:
    return {"PATH": os.pathsep.join((*folders, os.environ.get("PATH", "")))}


PLANTS = [
    ("Write", {"file_path": "bin/sh", "content": "#!/bin/sh\nexit 0\n"}),
    ("Bash", {"command": "printf '#!/bin/sh\\nexit 0\\n' > bin/sh && chmod +x bin/sh"}),
    ("Bash", {"command": "cp /bin/true .venv/bin/sed"}),
    ("mcp__fs__write_file", {"path": "bin/dirname", "content": "x"}),
]


@pytest.mark.parametrize(("tool", "tool_input"), PLANTS)
@pytest.mark.parametrize("agent", [None, "coder"])
def test_a_program_the_hooks_path_finds_in_the_project_may_not_be_planted(
    project: Project, tool: str, tool_input: dict[str, str], agent: str | None
) -> None:
    """``PATH=$PWD/bin:./.venv/bin:$PATH`` (direnv's ``PATH_add bin``, an activated venv): the
    registered ``sh ".../launch.sh"`` would run a planted ``bin/sh``. Warn blocks it too."""
    data = {
        k: (str(project.root / v) if k in ("file_path", "path") else v)
        for k, v in tool_input.items()
    }
    env = _path(project, str(project.root / "bin"), "./.venv/bin")
    decision, code, _ = project.judge(tool, data, agent=agent, env=env)
    assert (decision, code) == ("deny", "TAMPER")


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf .venv",
        "rm -rf bin",
        "rm .venv/bin/python3",
        "echo x > bin/build",
        # rebuilding an activated venv writes python3 and pip in it, never sh (review of 0086)
        "python3 -m venv .venv",
        "virtualenv .venv",
        "rm -rf .venv && python3 -m venv .venv --clear",
        "mkdir -p .venv/bin bin",
    ],
)
def test_deleting_the_folder_or_writing_other_programs_stays_ordinary(
    project: Project, command: str
) -> None:
    """Recreating an activated project venv, or a team's own scripts in ``bin``, is work: a
    planted program's folder holds nothing protected."""
    (project.root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    env = _path(project, str(project.root / "bin"), "./.venv/bin")
    decision, code, _ = project.judge("Bash", {"command": command}, agent="coder", env=env)
    assert code != "TAMPER", (decision, code)


def test_a_path_folder_outside_the_project_plants_nothing_here(project: Project) -> None:
    env = _path(project, str(project.root.parent / "elsewhere"))
    data = {"file_path": str(project.root / "bin" / "sh"), "content": "x"}
    assert project.judge("Write", data, agent="coder", env=env)[1] is None
    # the same file with the folder on PATH is protected: the test above is not vacuous
    env = _path(project, str(project.root / "bin"))
    assert project.judge("Write", data, agent="coder", env=env)[1] == "TAMPER"


def test_a_config_with_a_byte_order_mark_is_read(project: Project) -> None:
    config = project.root / ".claude" / "boundary.toml"
    config.write_bytes(b"\xef\xbb\xbf" + WARN_WIDE.encode())
    decision, code, answer = project.judge(
        "Write", {"file_path": str(project.root / "src" / "x.py"), "content": "x"}
    )
    assert code != "CONFIG_INVALID", answer.stderr
    rec = json.loads(project.audit.read_text().splitlines()[-1])
    assert rec["phase"] == "warn"
    assert decision != "deny" and code is None  # WIDE_OPEN lets the main agent write


@pytest.mark.parametrize(
    ("tool", "traced"),
    [("mcp__fs__read_file", False), ("mcp__fs__get_outline", False), ("mcp__fs__write_file", True)],
)
def test_an_mcp_read_leaves_no_content_trace(project: Project, tool: str, traced: bool) -> None:
    target = project.root / "src" / "app.py"
    data = project.payload(tool, {"path": str(target)}, agent="coder", event="PostToolUse")
    _, rec = project.call(data, event="PostToolUse")
    assert bool(rec.get("trace")) is traced, rec.get("trace")


@pytest.mark.parametrize(
    ("command", "tamper"),
    [("echo x > sh", True), ("echo x > s*", True), ("rm -rf *", False), ("rm -rf ./*", False)],
)
def test_an_empty_entry_of_path_is_the_folder_the_hook_starts_in(
    project: Project, command: str, tamper: bool
) -> None:
    """``PATH=...:`` (a trailing colon) searches the current folder, the project root: a `sh`
    there, or a glob that could name one, is planted; a delete plants nothing."""
    env = {"PATH": os.environ.get("PATH", "") + os.pathsep}
    code = project.judge("Bash", {"command": command}, agent="coder", env=env)[1]
    assert (code == "TAMPER") is tamper, code


@pytest.mark.parametrize("path", ["", None])
def test_an_empty_or_unset_path_plants_nothing_in_the_project(
    project: Project, path: str | None
) -> None:
    """The hook's environment without PATH (or with an empty one): no folder of the project is
    searched, so the root holds no program of the hook's."""
    project.env = {k: v for k, v in project.env.items() if k != "PATH"}
    if path is not None:
        project.env["PATH"] = path
    data = project.payload("Bash", {"command": "echo x > sh"}, agent="coder")
    _, rec = project.call(data)
    assert rec["code"] is None, rec


def test_a_hook_scripts_folder_on_path_stays_protected(project: Project) -> None:
    """``bin`` holds a registered hook script and is on the hook's PATH: deleting it is
    TAMPER, as without that PATH (a planted entry never takes the folder's place)."""
    (project.root / "bin" / "check.sh").write_text("#!/bin/sh\nexit 0\n")
    hook = {"type": "command", "command": "sh bin/check.sh"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    env = _path(project, str(project.root / "bin"))
    for command in ("rm -rf bin", "mv bin /tmp/x", "rm -rf ./bi*"):
        got = project.judge("Bash", {"command": command}, agent="coder", env=env)[1]
        assert got == "TAMPER", command


@pytest.mark.parametrize("name", ["python3", "python", "py"])
def test_the_launchers_last_resort_pythons_may_not_be_planted(project: Project, name: str) -> None:
    """``launch.sh`` runs python3, python or py from PATH when this machine has no pointer and
    no project venv (a teammate's clone before their install). In a venv's own folder they
    are rebuilt by ``python3 -m venv``, and not protected there."""
    env = _path(project, str(project.root / "bin"), str(project.root / ".venv" / "bin"))
    (project.root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    planted = {"file_path": str(project.root / "bin" / name), "content": "#!/bin/sh\n"}
    assert project.judge("Write", planted, agent="coder", env=env)[1] == "TAMPER"
    rebuilt = {"file_path": str(project.root / ".venv" / "bin" / name), "content": "x"}
    assert project.judge("Write", rebuilt, agent="coder", env=env)[1] is None


def test_a_path_folder_spelt_through_a_link_to_the_project(project: Project) -> None:
    link = project.root.parent / "link"
    link.symlink_to(project.root)
    data = {"file_path": str(project.root / "bin" / "sh"), "content": "x"}
    env = _path(project, str(link / "bin"))
    assert project.judge("Write", data, agent="coder", env=env)[1] == "TAMPER"
