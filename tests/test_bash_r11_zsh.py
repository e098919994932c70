"""Round eleven (ADR 0077): zsh's ``zmodload``. After ``zmodload zsh/mapfile``, an assignment
to ``mapfile[x]`` writes the file ``x`` (observed with zsh 5.9, in
``tests/reality_cases_attack_g.py``); the command was opaque with no effect, which the default
``bash.opaque = "allow"`` lets through. A module not known to be harmless is now a write the
text does not place."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import Status, analyze

WRITING = [
    ("mapfile", "zmodload zsh/mapfile; mapfile[x]=y"),
    ("mapfile-in-zsh-c", "zsh -fc 'zmodload zsh/mapfile; mapfile[x]=y'"),
    ("features", "zmodload -F zsh/mapfile +p:mapfile"),
    ("system", "zmodload zsh/system; sysopen -w -u fd x"),
    ("autoload", "zmodload -a zsh/mapfile x"),
    ("expansion", 'zmodload "$m"'),
    ("with-harmless", "zmodload zsh/datetime zsh/mapfile"),
]


@pytest.mark.parametrize("command", [w[1] for w in WRITING], ids=[w[0] for w in WRITING])
def test_a_module_that_may_write_is_an_unplaced_write(command: str) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status is Status.OPAQUE, result
    assert any(e.resolved is None and "zmodload" in e.source for e in result.effects), result


READING = [
    ("list", "zmodload"),
    ("list-long", "zmodload -L"),
    ("query", "zmodload -e zsh/mapfile"),
    ("datetime", "zmodload zsh/datetime; echo $EPOCHSECONDS"),
    ("quiet-mathfunc", "zmodload -i zsh/mathfunc"),
]


@pytest.mark.parametrize("command", [r[1] for r in READING], ids=[r[0] for r in READING])
def test_listing_or_a_harmless_module_reads_only(command: str) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status is Status.READ_ONLY, result
