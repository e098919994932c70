"""A pytest plugin for testing YOUR ``boundary.toml`` (see docs/testing-your-config.md).

Installed with the package as the ``pytest11`` entry point ``orchestrator_boundary``, so the
fixtures are simply there in a project that has orchestrator-boundary installed:

``boundary_payload(tool=..., input=..., agent_type=..., subagent=..., event=..., cwd=...)``
    builds a payload shaped like the ones Claude Code sends (session_id, transcript_path, cwd,
    permission_mode, tool_use_id; agent_id only for subagents). Relative ``file_path`` /
    ``notebook_path`` values are made absolute under ``cwd``.
``boundary_hook(payload, config=TEXT | config_file=PATH, phase=..., project=..., env=...)``
    runs the REAL hook entry point in a subprocess and returns a ``BoundaryAnswer``.
``boundary_cases(*jsonl_files)``
    captured payloads with an ``expect`` field as cases; for ``@pytest.mark.parametrize`` use
    ``orchestrator_boundary.testing.load_cases`` (import from ``testing``, not from here).

Without the entry point (e.g. a source checkout), load it with
``pytest_plugins = ["orchestrator_boundary.pytest_plugin"]`` or
``-p orchestrator_boundary.pytest_plugin``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.testing import (
    BoundaryAnswer,
    hook_command,
    load_cases,
    make_payload,
    run_hook,
)


@pytest.fixture
def boundary_project(tmp_path: Path) -> Path:
    """An empty project folder (with ``src/``) to run the hook in."""
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    return project


@pytest.fixture
def boundary_payload(boundary_project: Path) -> Callable[..., dict[str, Any]]:
    """Factory: ``boundary_payload(tool="Write", input={"file_path": "src/x.py"}, ...)``."""

    def factory(
        tool: str = "Write", input: Mapping[str, Any] | None = None, **kw: Any
    ) -> dict[str, Any]:
        kw.setdefault("cwd", boundary_project)
        return make_payload(tool, input, **kw)

    return factory


@pytest.fixture
def boundary_hook(boundary_project: Path, tmp_path: Path) -> Callable[..., BoundaryAnswer]:
    """``boundary_hook(payload, config=TOML_TEXT or config_file=PATH, phase="enforce",
    project=DIR, env={...})``: the real hook, in a subprocess. ``HOME`` is a temporary folder
    unless ``env`` gives one, so nothing from your own ``~/.claude`` leaks in."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)

    def call(
        payload: Mapping[str, Any] | bytes | str,
        *,
        project: Any = None,
        env: Mapping[str, str] | None = None,
        **kw: Any,
    ) -> BoundaryAnswer:
        return run_hook(
            payload,
            project=project or boundary_project,
            env={"HOME": str(home), **(env or {})},
            scratch=str(tmp_path),
            **kw,
        )

    return call


@pytest.fixture
def boundary_cases() -> Callable[..., list[Any]]:
    """``boundary_cases("captured.jsonl")``: the cases of JSONL files (see ``load_cases``;
    for ``@pytest.mark.parametrize`` at import time use ``load_cases`` directly)."""
    return load_cases


def pytest_report_header(config: pytest.Config) -> str:
    del config
    return f"orchestrator-boundary: hook entry {' '.join(hook_command()[:2])[:60]}"


__all__ = [
    "BoundaryAnswer",
    "boundary_cases",
    "boundary_hook",
    "boundary_payload",
    "boundary_project",
    "load_cases",
    "make_payload",
    "run_hook",
]
