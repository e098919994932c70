"""The decision tables of the Bash analysis attack rounds (tests/test_bash_holes_attack_*.py):
a row is ``(id, command, status, paths the analysis must name)``; commands run in ``/w/p``
with the home ``/home/u`` (PowerShell rows in ``C:/w/p``, ``C:/Users/u``)."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import BashAnalysis, Status, analyze
from orchestrator_boundary.bash.explain import explain

Case = tuple[str, str, Status, tuple[str | None, ...]]


def analysed(command: str, shell: str = "bash") -> BashAnalysis:
    if shell == "powershell":
        return analyze(command, cwd="C:/w/p", home="C:/Users/u", shell="powershell")
    return analyze(command, cwd="/w/p", home="/home/u")


def check(command: str, status: Status, named: tuple[str | None, ...], shell: str = "bash") -> None:
    """The row's status, and every path it must name among the effects."""
    result = analysed(command, shell)
    assert result.status is status, explain(result)
    resolved = {e.resolved for e in result.effects}
    missing = [n for n in named if n not in resolved]
    assert not missing, f"not named: {missing}\n{explain(result)}"


def table(cases: list[Case]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        ("command", "status", "named"), [c[1:] for c in cases], ids=[c[0] for c in cases]
    )
