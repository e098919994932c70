"""find: read-only unless -delete, -fprint*, or -exec/-ok running a writing command."""

from __future__ import annotations

from orchestrator_boundary.bash.model import Command, EffectKind, Status, worst
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, read_only
from orchestrator_boundary.bash.words import Word, lit, unknown

_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FILE_OUT = {"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}


_OPERATORS = frozenset({"-o", "-or", ",", "!", "-not", "(", ")"})
_NAME_TESTS = {"-name": False, "-iname": True}


def _name_filter(expression: list[Word]) -> tuple[tuple[str, bool], ...]:
    """The -name/-iname patterns every entry ``-delete`` deletes must match: only for an
    expression that is a plain conjunction with the tests before ``-delete``; else ()."""
    names: list[tuple[str, bool]] = []
    i = 0
    while i < len(expression):
        value = expression[i].value
        if value is None or value in _OPERATORS:
            return ()
        if value == "-delete":
            return tuple(names) if _conjunction(expression[i + 1 :]) else ()
        if value in _EXEC:
            while i < len(expression) and expression[i].value not in (";", "+"):
                i += 1
        elif value in _NAME_TESTS:
            pattern = expression[i + 1].value if i + 1 < len(expression) else None
            if pattern is None:
                return ()
            names.append((pattern, _NAME_TESTS[value]))
            i += 1
        i += 1
    return ()


def _conjunction(rest: list[Word]) -> bool:
    return all(w.value is not None and w.value not in _OPERATORS for w in rest)


def find(prog: str, args: list[Word], env: Env) -> Outcome:
    starts: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value.startswith(("-", "(", "!")):
            break
        starts.append(args[i])
        i += 1
    if i < len(args) and args[i].value is None and not starts:
        starts.append(args[i])
        i += 1
    roots = starts or [lit(".")]
    fx: list[Fx] = []
    status = Status.READ_ONLY
    notes: list[str] = []
    nested: list[Command] = []
    names = _name_filter(args[i:])
    while i < len(args):
        value = args[i].value
        if value == "-delete":
            deleted = env.fx_many(EffectKind.DELETE, roots, "find -delete under start path")
            fx += [Fx(f.kind, f.path, f.resolved, f.source, names) for f in deleted]
        elif value in _FILE_OUT:
            fx += env.fx_many(EffectKind.WRITE, args[i + 1 : i + 2], f"find {value} file")
            i += _FILE_OUT[value]
        elif value in _EXEC:
            j = i + 1
            while j < len(args) and args[j].value not in (";", "+"):
                j += 1
            inner = [
                unknown("{}") if a.value is not None and "{}" in a.value else a
                for a in args[i + 1 : j]
            ]
            if inner:
                here = env.at(None) if value in ("-execdir", "-okdir") else env
                outcome = env.nested.dispatch(inner, here)
                fx += [
                    Fx(f.kind, f.path, f.resolved, f"find {value} {outcome.program}: {f.source}")
                    for f in outcome.fx
                ]
                status = worst(status, outcome.status)
                nested.extend(outcome.inner)  # `-exec sh -c CODE`: the commands of CODE
                notes.append(f"{value} {outcome.program}: {outcome.note}".strip(": "))
            i = j
        i += 1
    if status == Status.READ_ONLY and not fx:
        return Outcome(prog, status, (), "find without actions", nested)
    if status == Status.READ_ONLY:
        status = Status.WRITES
    return Outcome(prog, status, fx, "; ".join(notes), nested)


def yq(prog: str, args: list[Word], env: Env) -> Outcome:
    in_place = False
    operands: list[Word] = []
    for arg in args:
        value = arg.value
        if value is None or not value.startswith("-") or value == "-":
            operands.append(arg)
        elif value.startswith("--"):
            name = value.partition("=")[0]
            in_place = in_place or (len(name) > 3 and "--inplace".startswith(name))
        elif "i" in value[1:]:
            in_place = True
    if not in_place:
        return read_only(prog, "yq prints to stdout")
    files = (
        operands[2:]
        if operands and operands[0].value in ("eval", "e", "eval-all", "ea")
        else operands[1:]
    )
    return Outcome(prog, Status.WRITES, env.fx_many(EffectKind.WRITE, files, "yq -i target"))


HANDLERS = {"find": find, "yq": yq}
