"""Fixtures for the end-to-end tests: the pinned CLI and a per-test harness.

Test modules import them (``from e2e_fixtures import claude_bin_fixture, harness_fixture``)
and ask for them by their names, ``claude_bin`` and ``harness``. This is
deliberately not a ``conftest.py``: the suite's folders have no ``__init__.py``, so a second
conftest module would shadow ``tests/conftest.py`` for the tests that ``from conftest import``.

The tests are not skipped when Node.js is missing: they fail, saying what to install,
because CI installs it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from cli import CLIUnavailable, claude_binary
from harness import Harness, Project

from orchestrator_boundary import registration


@pytest.fixture(scope="session", name="claude_bin")
def claude_bin_fixture() -> Path:
    try:
        return claude_binary()
    except CLIUnavailable as exc:
        pytest.fail(f"cannot run the end-to-end tests: {exc}", pytrace=False)


@pytest.fixture(name="harness")
def harness_fixture(claude_bin: Path, tmp_path: Path) -> Harness:
    return Harness(claude_bin, tmp_path)


def write_local_entries(project: Project, entries: Mapping[str, Mapping[str, Any]]) -> None:
    """``entries`` (``registration.entries``: one per event) as the project's
    ``.claude/settings.local.json``, each in a group with the matcher its event takes."""
    hooks = {
        event: [{**({"matcher": "*"} if registration.matcher(event) else {}), "hooks": [entry]}]
        for event, entry in entries.items()
    }
    text = json.dumps({"hooks": hooks})
    project.path(".claude/settings.local.json").write_text(text, encoding="utf-8")
