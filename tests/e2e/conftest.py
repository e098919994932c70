"""Fixtures for the end-to-end tests: the pinned CLI and a per-test harness.

Every test in this folder is marked ``e2e``. They are not skipped when Node.js is missing:
they fail, saying what to install, because CI installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli import CLIUnavailable, claude_binary
from harness import Harness


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    try:
        return claude_binary()
    except CLIUnavailable as exc:
        pytest.fail(f"cannot run the end-to-end tests: {exc}", pytrace=False)


@pytest.fixture
def harness(claude_bin: Path, tmp_path: Path) -> Harness:
    return Harness(claude_bin, tmp_path)
