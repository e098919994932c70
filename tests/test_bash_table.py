"""The table of hand-written commands: status and effects (kind, resolved path) must match."""

from __future__ import annotations

from typing import Any

import pytest
from bash_cases import CASES, OVERRIDES

from orchestrator_boundary.bash import Status, analyze
from orchestrator_boundary.bash.explain import explain


def _run(case_id: str, command: str) -> Any:
    kwargs: dict[str, Any] = {"cwd": "/w/p", "home": "/home/u"}
    kwargs.update(OVERRIDES.get(case_id, {}))
    return analyze(command, **kwargs)


@pytest.mark.parametrize(("case_id", "command", "status", "effects"), CASES,
                         ids=[c[0] for c in CASES])
def test_table(case_id: str, command: str, status: Status, effects: tuple[Any, ...]) -> None:
    result = _run(case_id, command)
    got = (result.status, tuple((e.kind, e.resolved) for e in result.effects))
    assert got == (status, effects), explain(result)


def test_table_is_large_and_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) >= 300
    assert len(set(ids)) == len(ids)
    assert len({c[1] for c in CASES}) >= 300
