"""Round eleven (ADR 0077): a ``cmd /c`` line's commands after ``for ... do``, ``if ...``,
``@`` and ``(``, and Windows ``sort /o`` and ``certutil -decode``, change files; each was opaque
with no effect, which the default ``bash.opaque = "allow"`` lets through."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import analyze

NAMED = [
    ("if-exist-del", 'cmd /c "if exist f del f"', ("/w/p/f",)),
    ("at-del", 'cmd /c "@del f"', ("/w/p/f",)),
    ("paren-del", 'cmd /c "(del f)"', ("/w/p/f",)),
    ("if-paren-del", 'cmd /c "if exist f (del g)"', ("/w/p/g",)),
    ("sort-o", 'cmd /c "sort f /o x"', ("/w/p/x",)),
    ("certutil-decode", 'cmd //c "certutil -decode a x"', ("/w/p/x",)),
    ("certutil-urlcache", 'cmd /c "certutil -urlcache -split -f http://h/a x"', ("/w/p/x",)),
    ("for-do-del", 'cmd /c "for %i in (a b) do del %i"', (None,)),
    ("del-variable", 'cmd /c "del %F%"', (None,)),
]


@pytest.mark.parametrize(("command", "named"), [n[1:] for n in NAMED], ids=[n[0] for n in NAMED])
def test_a_cmd_line_names_what_it_changes(command: str, named: tuple[str | None, ...]) -> None:
    result = analyze(command, cwd="/w/p", home="/h")
    assert tuple(e.resolved for e in result.effects) == named, result


@pytest.mark.parametrize(
    "command",
    ['cmd /c "sort f"', 'cmd /c "for %i in (*) do @echo %i"', "cmd /c certutil -hashfile f"],
)
def test_reading_cmd_lines_name_nothing(command: str) -> None:
    assert not analyze(command, cwd="/w/p", home="/h").effects
