"""Small helpers so that every sentence of the report agrees with its numbers."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``1 day``, ``2 days``, ``0 days`` (``many`` for irregular plurals)."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"


def verb(n: int, one: str, many: str) -> str:
    """The verb form for a subject of ``n`` things: ``verb(1, "is", "are")``."""
    return one if n == 1 else many


def pct(x: float, digits: int = 1) -> str:
    """A share (0..1) as a percentage: ``12.5 %``."""
    return f"{x * 100:.{digits}f} %"
