"""Value classes for the hook path, declared like dataclasses, built without ``dataclasses``.

``@frozen`` (immutable, compared and hashed by value), ``@transient`` (one call's values:
frozen to the type checker, plain slots at run time, ADR 0017) and ``@mutable`` (slots,
compared by value, unhashable). ADR 0042.

Why not ``dataclasses``: on Python 3.11 a frozen slots dataclass costs about 1.2 ms to *create*
(it compiles six generated methods, and builds the class twice), and importing the module pulls
in ``inspect``. A hook process creates some forty of these classes before it judges a Read:
about half of the whole call beyond a bare interpreter start. Here each class compiles one
method, ``__init__`` (so that building a value costs what a dataclass's does); equality,
hashing and ``repr`` are shared functions over an ``operator.attrgetter`` of the fields.

What is supported is what the package uses: fields with a default, a ``field(default_factory=)``,
``field(compare=False)`` or ``field(repr=False)``; ``kw_only``; ``eq=False`` (identity);
``replace`` and ``as_dict``. Inheritance between value classes and ``__post_init__`` are
refused when the class is made (``TypeError``); there is no ordering.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:  # importing typing costs a hook process more than this decorator does at run time

    def dataclass_transform(**_options: object) -> Callable[[T], T]:
        return lambda decorated: decorated


class FrozenError(AttributeError):
    """A field of a ``@frozen`` value was assigned or deleted."""


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """What ``field()`` declares: a default, a factory of defaults, whether the field is
    compared (and hashed), whether ``repr`` shows it."""

    __slots__ = ("compare", "default", "default_factory", "repr")

    def __init__(self, default: Any, default_factory: Any, compare: bool, repr: bool) -> None:
        self.default, self.default_factory = default, default_factory
        self.compare, self.repr = compare, repr


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] = MISSING,
    compare: bool = True,
    repr: bool = True,
) -> Any:
    """A field's options, as ``dataclasses.field`` takes them (only these four)."""
    return Field(default, default_factory, compare, repr)


def _declared(cls: type) -> list[tuple[str, Field]]:
    """The fields ``cls`` declares, in order (``ClassVar`` annotations are not fields)."""
    found = []
    # (not inspect.get_annotations: importing inspect is part of what this module saves)
    for name, note in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063
        if str(note).startswith(("ClassVar", "typing.ClassVar")):
            continue
        spec = cls.__dict__.get(name, MISSING)
        found.append((name, spec if isinstance(spec, Field) else Field(spec, MISSING, True, True)))
    return found


def _init_source(fields: list[tuple[str, Field]], kw_only: bool, frozen: bool) -> str:
    params, body = ["self"], []
    if kw_only and fields:
        params.append("*")
    for name, spec in fields:
        if spec.default_factory is not MISSING:
            params.append(f"{name}=_FACTORY")
            body.append(f"  if {name} is _FACTORY: {name} = _factory_{name}()")
        else:
            params.append(name if spec.default is MISSING else f"{name}=_default_{name}")
        body.append(f"  _set(self, {name!r}, {name})" if frozen else f"  self.{name} = {name}")
    lines = "\n".join(body) or "  pass"
    return f"def __init__({', '.join(params)}):\n{lines}\n"


def _compile_init(cls: type, fields: list[tuple[str, Field]], kw_only: bool, frozen: bool) -> Any:
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": MISSING}
    for name, spec in fields:
        scope[f"_default_{name}"] = spec.default
        scope[f"_factory_{name}"] = spec.default_factory
    made: dict[str, Any] = {}
    exec(_init_source(fields, kw_only, frozen), scope, made)  # noqa: S102 - our own text
    init = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _key(names: tuple[str, ...]) -> Callable[[Any], Any]:
    return attrgetter(*names) if names else (lambda _obj: ())


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__value_key__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__value_key__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__value_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def _refuse(self: Any, name: str, value: Any = None) -> None:
    raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _refuse_unsupported(cls: type) -> None:
    if any(hasattr(base, "__value_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a value class cannot extend another (values)")
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: __post_init__ is not supported (values)")
    if "__annotations__" not in cls.__dict__ and "__annotate__" in cls.__dict__:
        # Python 3.14+ keeps a class's annotations in its __dict__ only under the future
        # import; without it the fields would be silently lost
        raise TypeError(
            f"{cls.__qualname__}: declare value classes under `from __future__ import "
            "annotations` (values)"
        )


def _build(cls: type, *, frozen: bool, eq: bool, hashed: bool, kw_only: bool) -> Any:
    _refuse_unsupported(cls)
    fields = _declared(cls)
    names = tuple(name for name, _ in fields)
    ns = {k: v for k, v in cls.__dict__.items() if k not in names}
    for k in ("__dict__", "__weakref__"):
        ns.pop(k, None)
    ns["__slots__"] = names
    ns["__qualname__"] = cls.__qualname__
    ns["__value_fields__"] = names
    ns["__value_shown__"] = tuple(n for n, spec in fields if spec.repr)
    ns["__value_key__"] = _key(tuple(n for n, spec in fields if spec.compare))
    ns["__match_args__"] = () if kw_only else names
    ns["__init__"] = _compile_init(cls, fields, kw_only, frozen)
    ns.setdefault("__repr__", _repr)
    if eq and "__eq__" not in ns:  # a class's own __eq__ (and __hash__) is kept
        ns["__eq__"] = _eq
        ns["__hash__"] = _hash if hashed else None
    if frozen:
        ns["__setattr__"] = ns["__delattr__"] = _refuse
    return type(cls)(cls.__name__, cls.__bases__, ns)


if TYPE_CHECKING:  # the two ways to use it, for mypy

    @overload
    def frozen(cls: type[T], /) -> type[T]: ...
    @overload
    def frozen(*, kw_only: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(cls: Any = None, /, *, kw_only: bool = False, eq: bool = True) -> Any:
    """An immutable value: compared and hashed by its fields (by identity with ``eq=False``)."""

    def build(c: type) -> Any:
        return _build(c, frozen=True, eq=eq, hashed=True, kw_only=kw_only)

    return build if cls is None else build(cls)


if TYPE_CHECKING:

    @overload
    def mutable(cls: type[T], /) -> type[T]: ...
    @overload
    def mutable(*, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field, Field))
def mutable(cls: Any = None, /, *, kw_only: bool = False) -> Any:
    """A value whose fields change (an accumulator): compared by its fields, not hashable."""

    def build(c: type) -> Any:
        return _build(c, frozen=False, eq=True, hashed=False, kw_only=kw_only)

    return build if cls is None else build(cls)


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def transient(cls: type[T]) -> type[T]:
    """A value that lives one call (ADR 0017): frozen to the type checker, not at run time
    (a frozen ``__init__`` sets each field through ``object.__setattr__``, several times the
    cost of a plain slot), compared and hashed by its fields."""
    built: type[T] = _build(cls, frozen=False, eq=True, hashed=True, kw_only=False)
    return built


def is_value(obj: object) -> bool:
    return hasattr(type(obj), "__value_fields__")


def field_names(cls: type) -> tuple[str, ...]:
    names: tuple[str, ...] = cls.__value_fields__  # type: ignore[attr-defined]
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the value ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    for name in field_names(type(obj)):
        if name not in changes:
            changes[name] = getattr(obj, name)
    return type(obj)(**changes)


def as_dict(obj: Any, dict_factory: Callable[[list[tuple[str, Any]]], Any] = dict) -> Any:
    """``obj`` with every value in it (in lists, tuples and dicts too) turned into
    ``dict_factory`` of its (field, value) pairs, as ``dataclasses.asdict``."""
    if is_value(obj):
        pairs = [(n, as_dict(getattr(obj, n), dict_factory)) for n in field_names(type(obj))]
        return dict_factory(pairs)
    if isinstance(obj, (list, tuple)):
        return type(obj)(as_dict(v, dict_factory) for v in obj)
    if isinstance(obj, dict):
        return {k: as_dict(v, dict_factory) for k, v in obj.items()}
    return obj
