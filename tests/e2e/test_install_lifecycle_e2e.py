"""The lifecycle hooks ``install`` registers, under the real CLI (ADR 0033).

Nothing here is written by hand: ``orchestrator-boundary install`` (project scope) writes
``.claude/settings.json`` and the committed launcher, and the CLI runs them. A coder that stops
without writing is sent back once (SubagentStop), the session summary comes at Stop, and
SessionEnd is recorded. On a machine without an installation, the same committed settings
never hold a stop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text, marker
from harness import Agent, Harness, Project

pytestmark = pytest.mark.e2e

LIFECYCLE = ("SubagentStop", "Stop", "SessionEnd")
BARE_PATH = os.pathsep.join(["/usr/bin", "/bin"])  # no Python with the package
CONFIG = textwrap.dedent(
    """\
    phase = "enforce"

    [agents.coder]
    write_scope = ["src/**"]
    requires = ["write"]

    [report]
    stop_summary = true
    """
)
CODER = Agent("coder", "Writes code.", tools=["Read", "Write", "Edit", "Bash"])


def install(project: Project, home: Path, *argv: str) -> dict[str, Any]:
    """``orchestrator-boundary install`` as a user runs it, with ``home`` as HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env["HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary.cli", *argv, "--project", str(project.root)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    settings = project.path(".claude/settings.json")
    data: dict[str, Any] = (
        json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else {}
    )
    return data


def audit(project: Project) -> list[dict[str, Any]]:
    trail = project.path(".claude/boundary/audit.jsonl")
    return [json.loads(x) for x in trail.read_text(encoding="utf-8").splitlines() if x]


def coder_call(script: str) -> Call:
    return Call(
        "Agent",
        {
            "description": f"work {script}",
            "subagent_type": "coder",
            "prompt": f"Fix it.\n{marker(script)}",
            "run_in_background": False,
        },
    )


def feedback(run: Any, script: str) -> list[str]:
    """The "Stop hook feedback" messages the CLI gave the agent playing ``script``."""
    return [
        json.dumps(m)
        for r in run.api.scripted_requests(script)
        for m in r.messages
        if "Stop hook feedback" in json.dumps(m)
    ]


def test_installed_lifecycle_hooks_send_a_lazy_coder_back_once(harness: Harness) -> None:
    project = harness.project(agents=[CODER], boundary_toml=CONFIG)
    settings = install(project, project.home, "install")
    for event in LIFECYCLE:
        [group] = settings["hooks"][event]
        assert "matcher" not in group and "onFailure" not in group["hooks"][0], group
    run = harness.run(project, {"main": [coder_call("lazy"), Text()], "lazy": [Text()]})
    sent_back = feedback(run, "lazy")
    assert len(sent_back) == 1, run.explain(f"the coder was not sent back once: {sent_back}")
    assert "1 file change" in sent_back[0]
    trail = audit(project)
    stops = [r for r in trail if r.get("event") == "SubagentStop"]
    assert [s.get("deliverables", {}).get("blocked") for s in stops] == [True, False], stops
    main_stops = [r for r in trail if r.get("event") == "Stop"]
    assert main_stops and main_stops[-1].get("summary") is True, run.explain(str(main_stops))
    assert any(r.get("event") == "SessionEnd" for r in trail), run.explain("no SessionEnd")
    # uninstall takes every event away again (and the file it had created)
    assert install(project, project.home, "uninstall") == {}


def test_without_an_installation_the_committed_settings_never_hold_a_stop(
    harness: Harness,
) -> None:
    project = harness.project(boundary_toml=CONFIG)
    elsewhere = project.home.parent / "installer-home"
    elsewhere.mkdir()
    install(project, elsewhere, "install")  # the pointer lands in another HOME
    run = harness.run(project, {"main": [Text()]}, env={"PATH": BARE_PATH})
    main = run.api.scripted_requests("main")
    assert len(main) == 1 and not feedback(run, "main"), run.explain("the stop was held")
    assert not project.path(".claude/boundary/audit.jsonl").exists()  # nothing ran the policy
