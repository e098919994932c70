"""The pytest plugin as users load it: by the pytest11 entry point, by -p, by pytest_plugins,
and never registered twice when a test module names it while the entry point also loads it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
EXAMPLE = Path(__file__).with_name("test_pytest_plugin_example.py")

pytest_plugins = ["pytester"]

USER_TEST = """
def test_mine(boundary_payload, boundary_hook):
    answer = boundary_hook(boundary_payload("Write", {"file_path": "src/a.py"}), phase="enforce")
    assert answer.decision == "deny"
    sub = boundary_payload("Write", {"file_path": "src/a.py"}, subagent=True, agent_type="x")
    assert boundary_hook(sub, phase="enforce").decision == "none"
"""


def fake_install(root: Path) -> Path:
    """A dist-info that declares the plugin's pytest11 entry point, as pip would install it."""
    site = root / "site"
    info = site / "orchestrator_boundary_fake-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: orchestrator-boundary-fake\nVersion: 0\n"
    )
    (info / "entry_points.txt").write_text(
        "[pytest11]\norchestrator_boundary = orchestrator_boundary.pytest_plugin\n"
    )
    return site


def env_path(monkeypatch, *paths: Path | str) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(map(str, paths)))
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)


def test_entry_point_loads_the_fixtures(pytester, monkeypatch):
    env_path(monkeypatch, SRC, fake_install(pytester.path))
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)


def test_dash_p_loads_the_fixtures(pytester, monkeypatch):
    env_path(monkeypatch, SRC)
    # -p is how the plugin is loaded where entry points are not (an installed copy would
    # register it a second time)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_subprocess("-q", "-p", "orchestrator_boundary.pytest_plugin")
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize("installed", [False, True])
def test_the_example_module_never_double_registers(pytester, monkeypatch, installed):
    paths: list[Path | str] = [SRC]
    if installed:
        paths.append(fake_install(pytester.path))
    env_path(monkeypatch, *paths)
    pytester.makepyfile(test_example=EXAMPLE.read_text())
    data = pytester.mkdir("data")
    (data / "boundary_cases.jsonl").write_text(
        (EXAMPLE.parent / "data" / "boundary_cases.jsonl").read_text()
    )
    result = pytester.runpytest_subprocess("-q", "-k", "docs or captured or payload_shape")
    result.assert_outcomes(passed=7)
    assert "already registered" not in result.stdout.str() + result.stderr.str()


def test_naming_it_while_the_entry_point_loads_it_would_fail(pytester, monkeypatch):
    """Why the example guards its ``pytest_plugins``: pytest refuses a second registration."""
    env_path(monkeypatch, SRC, fake_install(pytester.path))
    pytester.makepyfile(
        test_user='pytest_plugins = ["orchestrator_boundary.pytest_plugin"]\n' + USER_TEST
    )
    result = pytester.runpytest_subprocess("-q")
    assert result.ret != 0
    assert "already registered" in result.stdout.str() + result.stderr.str()
