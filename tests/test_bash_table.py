"""The table of hand-written commands: status and effects (kind, resolved path) must match."""

from __future__ import annotations

from typing import Any

import pytest
from bash_cases import CASES, OVERRIDES, PS_CASES

from orchestrator_boundary.bash import Status, analyze
from orchestrator_boundary.bash.explain import explain


def _run(case_id: str, command: str) -> Any:
    kwargs: dict[str, Any] = {"cwd": "/w/p", "home": "/home/u"}
    kwargs.update(OVERRIDES.get(case_id, {}))
    return analyze(command, **kwargs)


@pytest.mark.parametrize(
    ("case_id", "command", "status", "effects"), CASES, ids=[c[0] for c in CASES]
)
def test_table(case_id: str, command: str, status: Status, effects: tuple[Any, ...]) -> None:
    result = _run(case_id, command)
    got = (result.status, tuple((e.kind, e.resolved) for e in result.effects))
    assert got == (status, effects), explain(result)


def test_table_is_large_and_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) >= 300
    assert len(set(ids)) == len(ids)
    assert len({c[1] for c in CASES}) >= 300


@pytest.mark.parametrize(
    ("case_id", "command", "status", "effects"), PS_CASES, ids=[c[0] for c in PS_CASES]
)
def test_powershell_table(
    case_id: str, command: str, status: Status, effects: tuple[Any, ...]
) -> None:
    result = analyze(command, cwd="/w/p", home="/home/u", shell="powershell")
    got = (result.status, tuple((e.kind, e.resolved) for e in result.effects))
    assert got == (status, effects), explain(result)


def test_explain_names_each_effect_and_its_source() -> None:
    text = explain(analyze("cd sub && cp a b > log.txt; make", cwd="/w/p"))
    assert text.splitlines() == [
        "status: opaque",
        "1. cd sub",
        "   program: cd; read_only (known read-only)",
        "2. cp a b > log.txt",
        "   program: cp; writes",
        "   - write: 'b' -> /w/p/sub/b  [cp destination]",
        "   - write: 'log.txt' -> /w/p/sub/log.txt  [redirect '>']",
        "3. make",
        "   program: make; opaque (unknown program: its effects cannot be known)",
    ]


def test_explain_unparseable() -> None:
    assert explain(analyze("echo 'open", cwd="/w")).splitlines()[:2] == [
        "status: unparseable",
        'error: syntax error at line 1, column 5: unexpected " \'open"',
    ]


def test_effect_records_command_text_and_path_as_written() -> None:
    result = analyze("sudo cp -r src ~/backup", cwd="/w/p", home="/home/u")
    (effect,) = result.effects
    assert (effect.path, effect.resolved, effect.command, effect.source) == (
        "/home/u/backup",
        "/home/u/backup",
        "sudo cp -r src ~/backup",
        "cp destination",
    )
    assert result.commands[0].program == "cp"
