"""The option model of a program: which options it has, which take values (ADR 0021).

A program's ``Spec`` lists every option the analysis knows for it. Parsing follows GNU getopt:
short options cluster (``-yi``), a short option's value may be attached (``-oFILE``, and
``-o=FILE`` gives the value ``=FILE``, as getopt does), a long option may be any unambiguous
prefix of its name (``--in`` is ``--in-place``) and takes its value attached (``--out=f``) or
as the next word. An option the spec does not know, or a prefix that names more than one, is
reported in ``Parsed.unknown``: the caller then answers ``opaque``, never ``read_only``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.values import field, frozen


@frozen
class Spec:
    flags: str = ""  # short options without a value
    valued: str = ""  # short options with a value (attached or the next word)
    optional: str = ""  # short options whose value can only be attached (sed -i.bak)
    long_flags: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    long_optional: frozenset[str] = frozenset()  # --in-place[=SUFFIX]: attached only
    long_names: tuple[str, ...] = field(default=())  # every long name, for prefix matching


def spec(flags: str = "", valued: str = "", longs: str = "", optional: str = "") -> Spec:
    """A Spec from compact text: ``longs`` holds names without dashes, ``name=`` for a value,
    ``name[=]`` for an optional attached value."""
    plain: set[str] = set()
    with_value: set[str] = set()
    maybe: set[str] = set()
    for item in longs.split():
        if item.endswith("[=]"):
            maybe.add("--" + item[:-3])
        elif item.endswith("="):
            with_value.add("--" + item[:-1])
        else:
            plain.add("--" + item)
    names = tuple(sorted(plain | with_value | maybe))
    return Spec(
        flags, valued, optional, frozenset(plain), frozenset(with_value), frozenset(maybe), names
    )


def long_name(given: str, known: Spec) -> str | None:
    """The full name ``given`` (``--name``, maybe abbreviated) stands for; None if unknown or
    ambiguous."""
    if given in known.long_flags or given in known.long_valued or given in known.long_optional:
        return given
    matches = [name for name in known.long_names if name.startswith(given)]
    return matches[0] if len(matches) == 1 else None


def parse(args: list[Word], known: Spec, *, stop_at_positional: bool = False) -> Parsed:
    """Options and operands of ``args`` under ``known``; unknown options in ``.unknown``."""
    out = Parsed()
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-"):
            if stop_at_positional:
                out.rest = args[i:]
                return out
            out.pos.append(args[i])
        elif value == "--":
            if stop_at_positional:
                out.rest = args[i + 1 :]
            else:
                out.pos.extend(args[i + 1 :])
            return out
        elif value.startswith("--"):
            i = _long(args, i, known, out)
        else:
            i = _short(args, i, known, out)
        i += 1
    return out


def _long(args: list[Word], i: int, known: Spec, out: Parsed) -> int:
    given, eq, attached = (args[i].value or "").partition("=")
    name = long_name(given, known)
    if name is None:
        out.unknown.append(given)
    elif eq:
        out.opts.append((name, Word(args[i].text, attached)))
    elif name in known.long_valued and i + 1 < len(args):
        out.opts.append((name, args[i + 1]))
        return i + 1
    elif name in known.long_valued:
        out.unknown.append(name)  # a value is missing: getopt fails, but stay on the safe side
    else:
        out.opts.append((name, None))
    return i


def _short(args: list[Word], i: int, known: Spec, out: Parsed) -> int:
    value = args[i].value or ""
    for j in range(1, len(value)):
        letter = value[j]
        rest = value[j + 1 :]
        if letter in known.optional:
            out.opts.append(("-" + letter, Word(rest, rest) if rest else None))
            return i
        if letter in known.valued:
            if rest:
                out.opts.append(("-" + letter, Word(rest, rest)))
            elif i + 1 < len(args):
                out.opts.append(("-" + letter, args[i + 1]))
                return i + 1
            else:
                out.unknown.append("-" + letter)
            return i
        if letter not in known.flags:
            out.unknown.append("-" + letter)
            return i
        out.opts.append(("-" + letter, None))
    return i
