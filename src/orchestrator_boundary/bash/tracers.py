"""Tracers and profilers that run a command and write their own report (ADR 0082).

``strace -o F``, ``ltrace -o F``, ``valgrind --log-file=F``, ``perf record`` (``perf.data``): the
command they run is not followed (their options are many and some take values), so they stay
``opaque``; but the report they write is a write the text shows, and is named. Any word of the
line that reads as an output option counts, also one that belongs to the traced command (``strace
gcc -o out a.c`` writes ``out`` as well): more writes, never fewer. An output that is an
expansion is a write the text does not place; strace's ``-o '|cmd'`` runs cmd.
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, runs_code
from orchestrator_boundary.bash.words import Word

W = EffectKind.WRITE
_LONG = {
    "strace": ("--output",),
    "ltrace": ("--output",),
    "perf": ("--output",),
    "valgrind": tuple(
        f"--{k}-file"
        for k in ("log", "xml", "callgrind-out", "massif-out", "cachegrind-out", "dhat-out")
    ),
}
_SHORT = {"strace": "o", "ltrace": "o", "perf": "o"}
# valgrind tools that write `<tool>.out.<pid>` in the working folder unless told a file
_VALGRIND_OUT = ("callgrind", "massif", "cachegrind", "dhat")
_PERCENT = re.compile(r"%(?:q\{[^}]*\}|.)")  # valgrind's %p, %q{VAR}, %n


def tracer(prog: str, args: list[Word], env: Env) -> Outcome:
    outputs, ran = _outputs(prog, args)
    values = [w.value for w in args]
    if prog == "perf" and "record" in values and not outputs:
        outputs = [Word("perf.data", "perf.data"), Word("perf.data.old", "perf.data.old")]
    if prog == "valgrind" and not any(v and "-out-file" in v for v in values):
        tool = next((v[7:] for v in values if v and v.startswith("--tool=")), "")
        if tool in _VALGRIND_OUT:
            outputs.append(Word(f"{tool}.out.*", f"{tool}.out.*", glob=True))
    fx = [_report(prog, w, env) for w in outputs]
    if any(v in ("-ff", "--output-separately") for v in values):  # F.<pid> for each process
        each = [Word(f"{f.path}.*", f"{f.path}.*", glob=True) for f in fx if f.path]
        fx += env.fx_many(W, each, f"{prog} report per process")
    note = f"{prog} runs a command the analysis does not follow"
    if ran is None:
        return opaque(prog, note, fx)
    return runs_code(prog, ran, env, note, fx)


def _report(prog: str, word: Word, env: Env) -> Fx:
    text = word.value
    if text is None:
        return Fx(W, "", None, f"{prog} writes a report the text does not place")
    if "%" in text and prog == "valgrind":
        pattern = _PERCENT.sub("*", text)
        return env.fx(W, Word(pattern, pattern, glob=True), f"{prog} report")
    return env.fx(W, word, f"{prog} report")


def _outputs(prog: str, args: list[Word]) -> tuple[list[Word], str | None]:
    """The words named as output files, and the command strace pipes its trace to."""
    found: list[Word] = []
    ran = None
    longs, short = _LONG[prog], _SHORT.get(prog, "")
    for i, word in enumerate(args):
        value, after = word.value, args[i + 1] if i + 1 < len(args) else None
        if value is None:  # "$OPT" may be `-o/anywhere`
            found.append(Word(word.text, None))
            continue
        name, eq, attached = value.partition("=")
        if name in longs:
            found.append(Word(attached, attached, word.glob) if eq else after or Word("", None))
        elif short and value.startswith("-") and not value.startswith("--"):
            at = value.find(short, 1)
            if at > 0:
                rest = value[at + 1 :]
                found.append(Word(rest, rest, word.glob) if rest else after or Word("", None))
    for w in found:
        if w.value and w.value[:1] in ("|", "!") and prog == "strace":
            ran = w.value[1:]
    return [w for w in found if not (w.value and w.value[:1] in ("|", "!"))], ran


HANDLERS = {p: tracer for p in _LONG}
