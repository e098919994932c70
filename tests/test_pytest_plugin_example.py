"""The worked example of docs/testing-your-config.md, run by this project's own suite.

In your project (orchestrator-boundary installed) the fixtures are there by themselves, via
the ``pytest11`` entry point. This source checkout may run without the package installed, so
the plugin is loaded here by name, unless the installed entry point already loads it: loading
it twice would make pytest refuse the second registration.
"""

from __future__ import annotations

import json
import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from orchestrator_boundary.testing import load_cases


def _autoloaded() -> bool:
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return False
    return any(
        ep.value.strip() == "orchestrator_boundary.pytest_plugin"
        for ep in entry_points(group="pytest11")
    )


pytest_plugins = [] if _autoloaded() else ["orchestrator_boundary.pytest_plugin"]

# --8<-- [start:example]
CONFIG = """
[orchestrator]
write_allow = ["docs/**", "*.md"]      # the main agent may edit docs itself

[agents.coder]
write_scope = ["src/**", "tests/**"]   # the coder subagent edits code and tests only
"""


def test_main_agent_may_not_edit_code(boundary_payload, boundary_hook):
    payload = boundary_payload(
        "Edit", {"file_path": "src/app.py", "old_string": "a", "new_string": "b"}
    )
    answer = boundary_hook(payload, config=CONFIG, phase="enforce")
    assert answer.decision == "deny"
    assert answer.code == "ORCHESTRATOR_WRITE"
    assert "Agent" in answer.reason  # the model is told to delegate


def test_main_agent_may_edit_docs(boundary_payload, boundary_hook):
    payload = boundary_payload("Write", {"file_path": "docs/plan.md", "content": "# Plan\n"})
    assert boundary_hook(payload, config=CONFIG, phase="enforce").decision == "none"


def test_coder_subagent_edits_code_but_not_ci(boundary_payload, boundary_hook):
    inside = boundary_payload(
        "Write", {"file_path": "src/app.py"}, subagent=True, agent_type="coder"
    )
    outside = boundary_payload(
        "Write", {"file_path": ".github/workflows/ci.yml"}, subagent=True, agent_type="coder"
    )
    assert boundary_hook(inside, config=CONFIG, phase="enforce").decision == "none"
    answer = boundary_hook(outside, config=CONFIG, phase="enforce")
    assert (answer.decision, answer.code) == ("deny", "SCOPE_VIOLATION")


def test_warn_phase_only_warns(boundary_payload, boundary_hook):
    payload = boundary_payload("Write", {"file_path": "src/app.py"})
    answer = boundary_hook(payload, config=CONFIG, phase="warn")
    assert answer.decision == "warn" and answer.exit_code == 0
    assert answer.would_deny is True


def test_a_write_that_went_through_is_reported(boundary_payload, boundary_hook):
    payload = boundary_payload("Write", {"file_path": "src/app.py"}, event="PostToolUse")
    assert boundary_hook(payload, config=CONFIG, phase="enforce").decision == "block"


CAPTURED = Path(__file__).parent / "data" / "boundary_cases.jsonl"


@pytest.mark.parametrize("case", load_cases(CAPTURED))
def test_captured_payloads(case, boundary_hook, boundary_project):
    answer = boundary_hook(case.payload_in(boundary_project), config=CONFIG, phase="enforce")
    assert not answer.mismatch(case.expect), f"{case.where}: {answer.mismatch(case.expect)}"


# --8<-- [end:example]


def test_the_fixtures_run_the_real_entry_point(boundary_payload, boundary_hook):
    answer = boundary_hook(boundary_payload("Read", {"file_path": "src/app.py"}))
    assert answer.exit_code == 0 and answer.decision == "none"
    assert answer.record is not None and answer.record["tool_name"] == "Read"
    # the command install registers (registration.direct_entry)
    assert answer.command[-2].endswith("launcher.py") and answer.command[-1] == "PreToolUse"


def test_payload_shape(boundary_payload, boundary_project):
    main = boundary_payload("Write", {"file_path": "src/x.py"})
    sub = boundary_payload("Write", {"file_path": "/abs/x.py"}, subagent=True, agent_type="coder")
    for p in (main, sub):
        for key in (
            "session_id",
            "transcript_path",
            "cwd",
            "permission_mode",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
        ):
            assert key in p
    assert "agent_id" not in main and "agent_type" not in main
    assert sub["agent_id"].startswith("a") and sub["agent_type"] == "coder"
    assert main["tool_input"]["file_path"] == str(boundary_project / "src" / "x.py")
    assert sub["tool_input"]["file_path"] == "/abs/x.py"
    # --agent NAME on the main thread: agent_type without agent_id, still the orchestrator
    lead = boundary_payload("Read", {"file_path": "a"}, agent_type="lead")
    assert "agent_id" not in lead and lead["agent_type"] == "lead"
    json.dumps(main)


def test_invalid_input_in_enforce_is_blocked(boundary_hook):
    answer = boundary_hook(b"{not json", phase="enforce")
    assert (answer.exit_code, answer.decision) == (2, "deny")
    assert "cannot judge" in answer.reason


def test_boundary_cases_fixture_loads_files(boundary_cases):
    cases = boundary_cases(CAPTURED)
    assert len(cases) >= 3
    assert all(p.values[0].expect is not None for p in cases)


def test_the_documented_example_is_this_file():
    doc = Path(__file__).parents[1] / "docs" / "testing-your-config.md"
    text = Path(__file__).read_text()
    block = text.split("# --8<-- [start:example]\n")[1].split("# --8<-- [end:example]\n")[0]
    assert block in doc.read_text(), "docs/testing-your-config.md is out of date"
