"""Arguments zsh evaluates as arithmetic (ADR 0070): the count of ``shift``, ``exit``,
``return``, ``break`` and ``continue``, and each argument ``printf`` formats as a number.

zsh (the shell macOS runs the Bash tool in) expands a subscript inside such an expression
before it evaluates it, so its command substitutions run: ``shift 'path[$(touch x)]'``,
``exit 'argv[$(touch x)]'`` and ``printf %d 'path[$(touch x)]'`` each create x (observed,
zsh 5.9; ``path``, ``argv`` and ``signals`` are arrays in every zsh). Bash reads these words
as plain numbers and refuses the rest. A literal subscript's commands are analysed as the code
they are; a word whose value the text does not show may hold one, so it is ``opaque``, as
``$(( $x ))`` is (``evaluated``). The numbers the shell gives (``$?``, ``$#``, ``$((...))``)
cannot.
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import Command, Status
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only, runs_code
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.values import replace

# a printf conversion zsh reads as a number: %d %i %o %u %x %X %e %E %f %F %g %G %a %A, or a
# width or precision given as `*` (the number comes from the next argument)
_NUMERIC = re.compile(r"%[^a-zA-Z%]*(?:[diouxXeEfFgGaA]|\*)")
# words that expand to a number: `$?`, `$#`, `$$`, `$!`, `${PIPESTATUS[0]}`, and arithmetic
# expansion (analysed where it stands)
_A_NUMBER = re.compile(
    r'"?(?:\$[?#$!]|\$\{[?#$!]\}|\$\{PIPESTATUS\[\d+\]\}|\$\(\((?:(?!\$\().)*\)\))"?\Z', re.S
)


def _subscripts(words: list[Word]) -> list[str] | str:
    """The subscripts of the words, as code to analyse; a text (the reason) when a word may
    hold one the text does not show."""
    found: list[str] = []
    for arg in words:
        value = arg.value
        if value is None or arg.glob:
            if _A_NUMBER.match(arg.text):
                continue
            return f"zsh evaluates {arg.text} as arithmetic: it may hold a subscript that runs code"
        if "[" in value and "]" in value[value.index("[") :]:
            found.append(value[value.index("[") + 1 : value.rindex("]")])
    return found


def evaluated(prog: str, words: list[Word], env: Env, note: str) -> Outcome:
    """``prog`` runs with ``words`` evaluated as arithmetic by zsh."""
    found = _subscripts(words)
    if isinstance(found, str):
        return opaque(prog, found)
    if not found:
        return read_only(prog, note)
    code = "\n".join(f": {s}" for s in found)
    return runs_code(prog, code, env, "zsh evaluates a subscript in its argument: its code runs")


COUNTED = ("shift", "exit", "return", "break", "continue")


def count(prog: str, args: list[Word], env: Env) -> Outcome:
    """shift / exit / return / break / continue: the count is arithmetic in zsh."""
    return evaluated(prog, args, env, "known read-only")


def printf_numbers(prog: str, args: list[Word], env: Env) -> Outcome | None:
    """printf FORMAT ARGS: None when nothing is read as a number (a literal format without a
    numeric conversion), else the arguments as zsh evaluates them."""
    if args and args[0].value == "--":
        args = args[1:]
    if not args or len(args) == 1:
        return None
    fmt = args[0].value
    if fmt is not None and not _NUMERIC.search(fmt):
        return None
    result = evaluated(prog, args[1:], env, "known read-only")
    return None if result.status is Status.READ_ONLY else result


# zsh subscripts an unbraced parameter: `$a[...]`, `$path[...]`; the subscript is arithmetic
# whose command substitutions run, quoted or not (observed: `a=(1 2); echo
# $a['path[$(touch x)]']` creates x); Bash reads `$a` then the literal text
_SUBSCRIPTED = re.compile(r"(?<!\\)\$[A-Za-z_][A-Za-z0-9_]*\[([^\]\n]*(?:\$\(|`)[^\n]*)")


# the subscript of `$NAME[...]`, and those that are plain numbers (`$a[1]`, `$a[-1]`, `$a[2,3]`)
_SUBSCRIPT = re.compile(r"(?<!\\)\$[A-Za-z_][A-Za-z0-9_]*\[([^\]\n]*)\]")
_NUMBERS = re.compile(r"\s*-?\d+\s*(?:,\s*-?\d+\s*)?")


def subscripted(command: str, env: Env) -> list[Command]:
    """The commands zsh runs in the subscripts of ``$NAME[...]`` words of ``command``: each
    subscript's text, its quotes taken out, analysed as code (``: TEXT``). A subscript that is
    not a plain number evaluates variables' values as arithmetic (`x='path[$(cmd)]'; echo
    $a[x]` runs cmd): opaque, as `$(( x ))` is."""
    odd = [m for m in _SUBSCRIPT.finditer(command) if not _NUMBERS.fullmatch(m.group(1))]
    note = "zsh evaluates the subscript of $NAME[...] as arithmetic on values"
    marker = [Command(odd[0].group(0)[:200], "", Status.OPAQUE, (), note)] if odd else []
    found = [m.group(1) for m in _SUBSCRIPTED.finditer(command)]
    if not found:
        return marker
    code = "\n".join(": " + text.replace("'", " ").replace('"', " ") for text in found)
    found_commands = runs_code("", code, env, "zsh subscripts $NAME[...]").inner
    # text that is no shell code is zsh's error, not a refusal here: opaque, not unparseable
    return marker + [
        replace(c, status=Status.OPAQUE) if c.status is Status.UNPARSEABLE else c
        for c in found_commands
    ]
