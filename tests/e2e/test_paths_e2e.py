"""The real CLI trims the paths its file tools are given, so the guard must too (ADR 0051).

Claude Code 2.1.330 strips white space from both ends of ``file_path`` before it writes: a
Write to ``<root>/notes.md\\n`` creates ``notes.md``. The hook is handed the path untrimmed.
Under the emergency bypass the orchestrator's ordinary writes go through, the protected files
never do: a protected file spelt with a trailing newline must still be refused.
"""

from __future__ import annotations

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Hooks
from test_boundary_e2e import BRAND, ENFORCE, PRODUCT_ROOT, assert_not_denied

pytestmark = pytest.mark.e2e


def test_a_protected_file_spelt_with_white_space_is_refused_under_the_bypass(
    harness: Harness,
) -> None:
    project = harness.project(Hooks.plugin(PRODUCT_ROOT), boundary_toml=ENFORCE)
    notes, config = project.path("notes.md"), project.path(".claude/boundary.toml")
    steps = [
        Call("Write", {"file_path": f"{notes}\n", "content": "notes\n"}),
        Call("Write", {"file_path": f"{config}\n", "content": 'phase = "off"\n'}),
        Call("Write", {"file_path": f"\t{config}", "content": 'phase = "off"\n'}),
        Text(),
    ]
    run = harness.run(project, {"main": steps}, env={"AMPLIFIER_BYPASS_BOUNDARY": "1"})
    assert_not_denied(run, "main", 0)
    assert notes.read_text(encoding="utf-8") == "notes\n", run.explain("the CLI did not trim")
    for step in (1, 2):
        got = run.result_for("main", step)
        assert got.is_error and f"{BRAND} blocked Write (TAMPER)" in got.text, run.explain(
            f"main[{step}] was not refused as TAMPER: {got.text!r}"
        )
    assert config.read_text(encoding="utf-8") == ENFORCE
