"""A small getopt-style splitter shared by the per-program knowledge."""

from __future__ import annotations

from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.values import field, mutable


@mutable
class Parsed:
    opts: list[tuple[str, Word | None]] = field(default_factory=list)
    pos: list[Word] = field(default_factory=list)
    rest: list[Word] = field(default_factory=list)  # stop_at_positional: from the 1st operand
    unknown: list[str] = field(default_factory=list)  # options.parse: options it does not know

    def has(self, *names: str) -> bool:
        return any(name in names for name, _ in self.opts)

    def values(self, *names: str) -> list[Word | None]:
        return [value for name, value in self.opts if name in names]

    def last(self, *names: str) -> Word | None:
        found = self.values(*names)
        return found[-1] if found else None


def split(
    args: list[Word],
    short_val: str = "",
    long_val: frozenset[str] | set[str] = frozenset(),
    *,
    stop_at_positional: bool = False,
    long_single_dash: bool = False,
) -> Parsed:
    """Split ``args`` into options and operands.

    ``short_val``: short letters that take a value (attached ``-ofile`` or next argument);
    ``long_val``: long names (with dashes) that take a value (``--out=f`` or ``--out f``).
    ``long_single_dash``: ``-name value`` style (find, java) is not combined-short.
    """
    out = Parsed()
    i = 0
    n = len(args)
    while i < n:
        arg = args[i]
        value = arg.value
        if value is None or value == "-" or not value.startswith("-"):
            if stop_at_positional:
                out.rest = args[i:]
                return out
            out.pos.append(arg)
            i += 1
            continue
        if value == "--":
            if stop_at_positional:
                out.rest = args[i + 1 :]
                return out
            out.pos.extend(args[i + 1 :])
            return out
        if value.startswith("--") or long_single_dash:
            name, eq, attached = value.partition("=")
            name = _unabbreviated(name, long_val)
            if eq:
                out.opts.append((name, Word(arg.text, attached)))
            elif name in long_val and i + 1 < n:
                out.opts.append((name, args[i + 1]))
                i += 1
            else:
                out.opts.append((name, None))
            i += 1
            continue
        i = _short_cluster(args, i, short_val, out)
    return out


def _short_cluster(args: list[Word], i: int, short_val: str, out: Parsed) -> int:
    """Options of the cluster ``args[i]`` (``-abc``, ``-ofile``) into ``out``; the next index."""
    value = args[i].value or ""
    for j in range(1, len(value)):
        letter = value[j]
        if letter in short_val:
            rest = value[j + 1 :]
            if rest:
                out.opts.append(("-" + letter, Word(rest, rest)))
            elif i + 1 < len(args):
                out.opts.append(("-" + letter, args[i + 1]))
                i += 1
            else:
                out.opts.append(("-" + letter, None))
            break
        out.opts.append(("-" + letter, None))
    return i + 1


def _unabbreviated(name: str, long_val: frozenset[str] | set[str]) -> str:
    """getopt takes any unambiguous prefix of a long option: ``--out`` for ``--output``."""
    if name in long_val or not name.startswith("--") or len(name) < 4:
        return name
    matches = [known for known in long_val if known.startswith(name)]
    return matches[0] if len(matches) == 1 else name
