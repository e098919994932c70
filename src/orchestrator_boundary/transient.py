"""``@transient``: the types a decision builds and drops within one call. ADR 0017.

Named for what sets them apart: they live one call and are *not* frozen at run time (the
name ``@value`` it had suggested the immutable kind; it is the mutable one).

Frozen for the type checker (``dataclass_transform(frozen_default=True)``: mypy rejects any
assignment to a field, and CI runs mypy over the package); plain ``slots`` dataclasses at run
time, hashed and compared by value like frozen ones. A frozen dataclass's ``__init__`` sets
each field through ``object.__setattr__``: 1.3 us for seven fields against 0.26 us, and a
denied Write builds some forty fields of these, about 8 us of a 57 us decision.

Only for values that live one call. What is shared between calls (Setup, Facts, Config,
Protected entries, compiled patterns and scope results, the Bash memo's analyses) stays
frozen at run time as well, so that nothing can change what a later call reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def transient(cls: type[T]) -> type[T]:
    return dataclass(slots=True, unsafe_hash=True)(cls)
