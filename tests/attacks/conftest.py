"""Fixtures of the attack suite (issue 13 point 10): see ``support``.

``arena``: one project shared by the whole suite, its evaluator warm; attacks that change the
project or the evaluator take a ``fresh_arena`` of their own instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .support import Arena, new_arena


@pytest.fixture(scope="session")
def arena() -> Iterator[Arena]:
    for a in new_arena():
        a.warm()
        yield a


@pytest.fixture
def fresh_arena() -> Iterator[Arena]:
    """A project of its own, its evaluator not started."""
    yield from new_arena()
