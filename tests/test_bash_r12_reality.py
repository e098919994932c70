"""Round twelve's reality rows (``tests/reality_cases_attack_h.py``, ADR 0082): each row is
observed in a throwaway folder where this machine can run it, and the analysis never rates a
write ``read_only`` nor lets one through with ``bash.opaque = "deny"``."""

from __future__ import annotations

import pytest
import reality
import reality_cases_attack_h
from reality_cases import OPAQUE, READ_ONLY, Row, analyse, denied, unnamed_targets

from orchestrator_boundary.bash import Status

ROWS = reality_cases_attack_h.rows()
CHECKED = [row for row in ROWS if not row.unchecked()]


def covered(target: str, paths: frozenset[str]) -> bool:
    return any(p == target or p.startswith(target + "/") for p in paths)


@pytest.mark.parametrize("row", CHECKED, ids=[row.id for row in CHECKED])
def test_row_matches_reality(row: Row) -> None:
    outcome = reality.run(row.command, row.seed, tty=row.tty)
    assert not outcome.timed_out, outcome.describe()
    if row.label == READ_ONLY:
        assert not outcome.changes, outcome.describe()
        return
    assert outcome.changes, outcome.describe()
    missing = [t for t in row.targets if not covered(t, outcome.paths)]
    assert not missing, f"targets not changed: {missing}\n{outcome.describe()}"


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_the_analysis_agrees(row: Row) -> None:
    result = analyse(row)
    if row.label == READ_ONLY:
        if row.provable:  # else opaque, or a write it cannot rule out, is a fair answer
            assert result.status is Status.READ_ONLY, result
            assert not denied(result, "allow"), result
        return
    assert result.status is not Status.READ_ONLY, result
    assert denied(result, "deny"), result
    assert not unnamed_targets(row, result), result
    if row.label == OPAQUE:
        assert result.status is not Status.READ_ONLY


def test_rows_are_unique() -> None:
    assert len({row.id for row in ROWS}) == len(ROWS)
    assert len({row.command for row in ROWS}) == len(ROWS)
