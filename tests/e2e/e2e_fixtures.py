"""Fixtures for the end-to-end tests: the pinned CLI and a per-test harness.

Test modules import them (``from e2e_fixtures import claude_bin_fixture, harness_fixture``)
and ask for them by their names, ``claude_bin`` and ``harness``. This is
deliberately not a ``conftest.py``: the suite's folders have no ``__init__.py``, so a second
conftest module would shadow ``tests/conftest.py`` for the tests that ``from conftest import``.

The tests are not skipped when Node.js is missing: they fail, saying what to install,
because CI installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli import CLIUnavailable, claude_binary
from harness import Harness


@pytest.fixture(scope="session", name="claude_bin")
def claude_bin_fixture() -> Path:
    try:
        return claude_binary()
    except CLIUnavailable as exc:
        pytest.fail(f"cannot run the end-to-end tests: {exc}", pytrace=False)


@pytest.fixture(name="harness")
def harness_fixture(claude_bin: Path, tmp_path: Path) -> Harness:
    return Harness(claude_bin, tmp_path)
