"""The product's hooks under the real CLI: the orchestrator delegates, subagents edit.

Every test runs twice, once per hook route: ``install`` runs ``orchestrator-boundary install
--project DIR`` (the installer registers the hooks in the project's settings.json, exactly as a
user would); ``plugin`` loads the repository as a plugin with ``--plugin-dir <repo>``
(``.claude-plugin/plugin.json`` + ``hooks/hooks.json``).

``E2E_PRODUCT_ROOT`` points the tests at another checkout of the product (default: this
repository), e.g. to try a work in progress.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Step, Text, marker
from harness import Agent, Harness, Hooks, Project, Run

pytestmark = pytest.mark.e2e

PRODUCT_ROOT = Path(
    os.environ.get("E2E_PRODUCT_ROOT") or Path(__file__).resolve().parents[2]
).resolve()
ENTRY = PRODUCT_ROOT / "hooks" / "hook.py"  # the plugin's one entry script: hook.py EVENT
PLUGIN_MANIFEST = PRODUCT_ROOT / ".claude-plugin" / "plugin.json"
PLUGIN_HOOKS = PRODUCT_ROOT / "hooks" / "hooks.json"
BRAND = "orchestrator-boundary"
# The product's code for a config it cannot load: it then blocks every write, so a test that
# means a real rule must not pass on it.
BROKEN_CONFIG = "CONFIG_INVALID"

ENFORCE = 'phase = "enforce"\n'
WARN = 'phase = "warn"\n'


INSTALL = Hooks()  # no hooks written by the harness: the installer registers them


@pytest.fixture(params=["install", "plugin"])
def route(request: pytest.FixtureRequest) -> Hooks:
    missing = [p for p in (ENTRY, PLUGIN_MANIFEST, PLUGIN_HOOKS) if not p.is_file()]
    if missing:
        pytest.fail(
            f"the product's hooks are missing: {', '.join(map(str, missing))}", pytrace=False
        )
    if request.param == "install":
        return INSTALL
    return Hooks.plugin(PRODUCT_ROOT)


def install(project: Project) -> None:
    """Register the hooks the way a user does: ``orchestrator-boundary install``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env["HOME"] = str(project.home)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator_boundary.cli",
            "install",
            "--project",
            str(project.root),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    settings = json.loads(project.path(".claude/settings.json").read_text(encoding="utf-8"))
    assert {"PreToolUse", "PostToolUse"} <= set(settings["hooks"]), settings


@dataclass
class Boundary:
    """Projects with the product's hooks on the route under test."""

    harness: Harness
    hooks: Hooks

    def project(
        self,
        boundary_toml: str | None = ENFORCE,
        *,
        agents: Sequence[Agent] = (),
        files: Mapping[str, str] | None = None,
        git: bool = False,
    ) -> Project:
        project = self.harness.project(
            self.hooks, agents=agents, boundary_toml=boundary_toml, files=files, git=git
        )
        if self.hooks is INSTALL:
            install(project)
        return project

    def run(self, project: Project, scripts: Mapping[str, Sequence[Step]], **kw: Any) -> Run:
        return self.harness.run(project, scripts, **kw)


@pytest.fixture
def boundary(harness: Harness, route: Hooks) -> Boundary:
    return Boundary(harness, route)


def write(path: Path, content: str = "new\n") -> Call:
    return Call("Write", {"file_path": str(path), "content": content})


def edit(path: Path, old: str, new: str) -> Call:
    return Call("Edit", {"file_path": str(path), "old_string": old, "new_string": new})


def delegate(script: str, agent_type: str = "general-purpose") -> Call:
    return Call(
        "Agent",
        {
            "description": "Make the change",
            "subagent_type": agent_type,
            "prompt": f"Make the change. {marker(script)}",
        },
    )


def bash(command: str) -> Call:
    return Call("Bash", {"command": command, "description": "Run a command"})


def assert_denied(run: Run, script: str, step: int, tool: str) -> str:
    got = run.result_for(script, step)
    assert got.is_error and BRAND in got.text and tool in got.text, run.explain(
        f"{script}[{step}] {tool} was not denied by the boundary: {got.text!r}"
    )
    assert BROKEN_CONFIG not in got.text, run.explain(f"denied for a broken config: {got.text!r}")
    # 2.1.330 hands the model the hook's reason behind this prefix.
    assert got.text.startswith(f"PreToolUse:{tool} hook error: "), got.text
    return got.text


def assert_not_denied(run: Run, script: str, step: int) -> None:
    got = run.result_for(script, step)
    assert BRAND not in got.text, run.explain(f"{script}[{step}] was denied: {got.text!r}")
    ids = {a.tool_use_id for a in run.calls(script) if a.step == step}
    assert not ids & {d.get("tool_use_id") for d in run.permission_denials}


def audit_records(project: Project) -> list[dict[str, Any]]:
    trail = project.path(".claude/boundary/audit.jsonl")
    if not trail.exists():
        return []
    return [json.loads(line) for line in trail.read_text(encoding="utf-8").splitlines() if line]


# -- the orchestrator ------------------------------------------------------------------------


def test_enforce_denies_the_orchestrators_write_and_edit(boundary: Boundary) -> None:
    project = boundary.project(files={"src/app.py": "x = 1\n"})
    new, app = project.path("src/new.py"), project.path("src/app.py")
    run = boundary.run(
        project,
        {
            "main": [
                write(new),
                Call("Read", {"file_path": str(app)}),
                edit(app, "x = 1", "x = 2"),
                Text(),
            ]
        },
    )
    assert_denied(run, "main", 0, "Write")
    assert_not_denied(run, "main", 1)  # reading is the orchestrator's job
    assert_denied(run, "main", 2, "Edit")
    assert not new.exists()
    assert app.read_text(encoding="utf-8") == "x = 1\n"
    assert {d["tool_name"] for d in run.permission_denials} == {"Write", "Edit"}


def test_enforce_from_the_environment(boundary: Boundary) -> None:
    project = boundary.project(boundary_toml=None)
    target = project.path("env.txt")
    run = boundary.run(
        project, {"main": [write(target), Text()]}, env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    )
    assert_denied(run, "main", 0, "Write")
    assert not target.exists()


def test_warn_lets_the_write_run_and_tells_the_model(boundary: Boundary) -> None:
    project = boundary.project(WARN)
    target = project.path("warned.txt")
    run = boundary.run(project, {"main": [write(target), Text()]})
    got = run.result_for("main", 0)
    assert not got.is_error, run.explain("warn blocked the call")
    assert target.read_text(encoding="utf-8") == "new\n"
    told = run.context_after("main", 0)
    assert BRAND in told and "warn" in told, run.explain(f"no warning given: {told!r}")
    assert run.permission_denials == []


def test_bypass_lets_it_through_and_is_recorded(boundary: Boundary) -> None:
    project = boundary.project()
    target = project.path("bypassed.txt")
    run = boundary.run(
        project, {"main": [write(target), Text()]}, env={"AMPLIFIER_BYPASS_BOUNDARY": "1"}
    )
    assert_not_denied(run, "main", 0)
    assert target.exists()
    [call] = run.calls("main")
    records = [r for r in audit_records(project) if r.get("tool_use_id") == call.tool_use_id]
    assert any(r.get("bypassed") for r in records), run.explain(f"bypass not recorded: {records}")


def test_state_md_is_the_orchestrators_exception(boundary: Boundary) -> None:
    project = boundary.project(ENFORCE + '[orchestrator]\nwrite_allow = ["STATE.md"]\n')
    state, other = project.path("STATE.md"), project.path("NOTES.md")
    run = boundary.run(project, {"main": [write(state, "# state\n"), write(other), Text()]})
    assert_not_denied(run, "main", 0)
    assert state.read_text(encoding="utf-8") == "# state\n"
    assert_denied(run, "main", 1, "Write")
    assert not other.exists()


# -- subagents -------------------------------------------------------------------------------


def test_a_subagent_writes_inside_the_project(boundary: Boundary) -> None:
    project = boundary.project()
    target = project.path("src/by_subagent.py")
    run = boundary.run(
        project,
        {
            "main": [delegate("sub"), Text()],
            "sub": [write(target, "y = 2\n"), Text()],
        },
    )
    assert_not_denied(run, "sub", 0)
    assert target.read_text(encoding="utf-8") == "y = 2\n"


def test_a_subagent_may_not_write_outside_the_project(boundary: Boundary) -> None:
    project = boundary.project()
    outside = project.tmp / "outside.txt"  # beside the project, not in it
    run = boundary.run(
        project,
        {
            "main": [delegate("sub"), Text()],
            "sub": [write(outside), Text()],
        },
    )
    assert_denied(run, "sub", 0, "Write")
    assert not outside.exists()


SCRIBE = Agent("scribe", "Writes the docs.", tools=["Read", "Write", "Edit", "Bash"])
SCRIBE_PROFILE = ENFORCE + textwrap.dedent(
    """\
    [agents.scribe]
    tools = ["Read", "Write", "Edit"]
    write_scope = ["docs/**"]
    """
)


def test_a_custom_agents_profile_limits_its_scope_and_tools(boundary: Boundary) -> None:
    project = boundary.project(SCRIBE_PROFILE, agents=[SCRIBE])
    inside, outside = project.path("docs/guide.md"), project.path("src/code.py")
    run = boundary.run(
        project,
        {
            "main": [delegate("scribe", "scribe"), Text()],
            "scribe": [write(inside, "# guide\n"), write(outside), bash("ls"), Text()],
        },
    )
    assert_not_denied(run, "scribe", 0)
    assert inside.read_text(encoding="utf-8") == "# guide\n"
    assert_denied(run, "scribe", 1, "Write")
    assert not outside.exists()
    assert_denied(run, "scribe", 2, "Bash")


# -- Bash ------------------------------------------------------------------------------------


def test_enforce_denies_the_orchestrators_writing_shell_commands(boundary: Boundary) -> None:
    project = boundary.project(files={"f.txt": "a\n"})
    run = boundary.run(
        project,
        {
            "main": [
                bash("echo hi > out.txt"),
                bash("sed -i 's/a/b/' f.txt"),
                Text(),
            ]
        },
    )
    assert_denied(run, "main", 0, "Bash")
    assert_denied(run, "main", 1, "Bash")
    assert not project.path("out.txt").exists()
    assert project.path("f.txt").read_text(encoding="utf-8") == "a\n"


def test_the_orchestrators_read_only_shell_commands_run(boundary: Boundary) -> None:
    project = boundary.project(files={"f.txt": "a\n"}, git=True)
    run = boundary.run(
        project,
        {
            "main": [
                bash("ls"),
                bash("git status"),
                bash("cat f.txt > /dev/null"),
                Text(),
            ]
        },
    )
    for step in range(3):
        assert_not_denied(run, "main", step)
    assert "f.txt" in run.result_for("main", 0).text
