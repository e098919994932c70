"""``values``: the hook path's value classes behave as the dataclasses they replace (ADR 0042).

Each class is declared twice, once with ``values`` and once with ``dataclasses`` and the
options it stands for, and the two are held to the same answers: construction, defaults,
equality, hashing, ``repr``, ``replace``, ``as_dict``, pattern matching, assignment.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pytest

from orchestrator_boundary import values
from orchestrator_boundary.values import FrozenError, field, frozen, mutable, transient


@frozen
class Point:
    """A frozen value."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)
    seen: tuple[str, ...] = field(default=(), compare=False, repr=False)
    UNIT: ClassVar[int] = 1

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclasses.dataclass(frozen=True, slots=True)
class DPoint:
    """The same, as a dataclass."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    seen: tuple[str, ...] = dataclasses.field(default=(), compare=False, repr=False)
    UNIT: ClassVar[int] = 1

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@frozen(kw_only=True)
class Named:
    name: str
    size: int = 1


@frozen(eq=False)
class Handle:
    ref: str


@mutable
class Tally:
    count: int = 0
    names: list[str] = field(default_factory=list)


@transient
class Step:
    at: int
    note: str = ""


def _both(**kwargs: Any) -> tuple[Point, DPoint]:
    return Point(**kwargs), DPoint(**kwargs)


def test_a_frozen_value_answers_as_the_dataclass_it_replaces() -> None:
    for kwargs in ({"x": 1}, {"x": 1, "y": 2, "tags": ("a",)}, {"x": -3, "seen": ("s",)}):
        ours, theirs = _both(**kwargs)
        assert repr(ours) == repr(theirs).replace("DPoint", "Point")
        assert (ours.x, ours.y, ours.tags, ours.seen) == (
            theirs.x,
            theirs.y,
            theirs.tags,
            theirs.seen,
        )
        assert ours.norm() == theirs.norm()
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(2, 1)
    assert Point(1, seen=("a",)) == Point(1, seen=("b",))  # compare=False: not compared ...
    assert hash(Point(1, seen=("a",))) == hash(Point(1, seen=("b",)))  # ... nor hashed
    other: list[object] = [DPoint(1), (1, 0), None]
    assert all(Point(1) != o for o in other)  # another class is never equal
    assert Tally().names is not Tally().names  # a fresh default from the factory each time
    assert Point.UNIT == 1 and "UNIT" not in values.field_names(Point)  # ClassVar: no field
    assert values.field_names(Point) == tuple(f.name for f in dataclasses.fields(DPoint))


def test_a_frozen_value_refuses_assignment_and_new_attributes() -> None:
    p = Point(1)
    with pytest.raises(FrozenError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenError):
        del p.x
    with pytest.raises(AttributeError):
        object.__setattr__(p, "z", 3)  # slots: no room for another attribute
    assert isinstance(FrozenError("x"), AttributeError)
    assert p.x == 1


def test_construction_errors_are_the_usual_type_errors() -> None:
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Named("n")  # type: ignore[call-arg]  # kw_only
    assert Named(name="n") == Named(name="n", size=1)


def test_identity_values_mutable_and_transient_ones() -> None:
    a, b = Handle("r"), Handle("r")
    assert a != b and a == a and len({a, b}) == 2  # eq=False: identity
    t = Tally()
    t.count += 1
    t.names.append("x")
    assert t == Tally(1, ["x"]) and t != Tally()
    with pytest.raises(TypeError):
        hash(t)  # a mutable value is not hashable, as a dataclass with eq and no frozen
    s = Step(1)
    assert s == Step(1, "") and hash(s) == hash(Step(1)) and len({Step(1), Step(1)}) == 1


def test_replace_as_dict_and_match() -> None:
    p = Point(1, 2, ("t",))
    q = values.replace(p, y=5)
    assert (q, p) == (Point(1, 5, ("t",)), Point(1, 2, ("t",)))
    assert dataclasses.replace(DPoint(1, 2, ("t",)), y=5) == DPoint(1, 5, ("t",))
    with pytest.raises(TypeError):
        values.replace(p, nope=1)
    nested = {"points": [Point(1), Point(2, tags=("a",))], "one": (Named(name="n"),)}
    got = values.as_dict(nested)
    assert got == {
        "points": [
            {"x": 1, "y": 0, "tags": (), "seen": ()},
            {"x": 2, "y": 0, "tags": ("a",), "seen": ()},
        ],
        "one": ({"name": "n", "size": 1},),
    }
    assert values.as_dict(Point(3)) == dataclasses.asdict(DPoint(3))
    sorted_keys = values.as_dict(Named(name="n"), dict_factory=lambda pairs: sorted(pairs))
    assert sorted_keys == [("name", "n"), ("size", 1)]
    match Point(4, 5):
        case Point(x, y):
            assert (x, y) == (4, 5)
        case _:
            pytest.fail("no match")


def test_a_class_keeps_its_own_repr_and_qualname() -> None:
    @frozen
    class Inner:
        v: int

        def __repr__(self) -> str:
            return "inner!"

    assert repr(Inner(1)) == "inner!"
    assert Inner.__qualname__.endswith(
        "test_a_class_keeps_its_own_repr_and_qualname.<locals>.Inner"
    )
    assert Inner.__init__.__qualname__.endswith("Inner.__init__")


def test_what_values_does_not_support_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="cannot extend"):

        @frozen
        class Child(Point):
            z: int = 0

    with pytest.raises(TypeError, match="__post_init__"):

        @frozen
        class Checked:
            v: int

            def __post_init__(self) -> None:
                pass

    # a class as Python 3.14 makes it in a module without `from __future__ import annotations`:
    # its fields are in an __annotate__ function, not in __annotations__
    lazy = type("Lazy", (), {"__annotate__": lambda _format: {"v": int}})
    with pytest.raises(TypeError, match="from __future__ import annotations"):
        frozen(lazy)

    with pytest.raises(SyntaxError):  # as a dataclass: no field without a default after one

        @mutable
        class Unordered:
            a: int = 0
            b: int  # type: ignore[misc]
