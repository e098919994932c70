"""Fixtures of the attack suite (issue 13 point 10): see ``support``.

``arena``: one project shared by a test module, its evaluator warm (ended after the module).
Attacks that change the project or the evaluator take a ``fresh_arena`` of their own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .support import Arena, new_arena


@pytest.fixture(scope="module")
def arena() -> Iterator[Arena]:
    with new_arena() as a:
        a.warm()
        yield a


@pytest.fixture
def fresh_arena() -> Iterator[Arena]:
    """A project of its own, its evaluator not started."""
    with new_arena() as a:
        yield a
