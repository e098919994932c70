"""find: read-only unless -delete, -fprint*, or -exec/-ok running a writing command.

The expression is read exactly: a primary find does not know here makes it ``opaque``.
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import Command, EffectKind, Status, worst
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque
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


# GNU findutils 4.9 and BSD find: the primaries that only test or print (issue 12, point 1)
_NO_ARG_TEXT = """-depth -d -empty -executable -readable -writable -false -true -follow
    -ignore_readdir_race -noignore_readdir_race -ls -mount -xdev -noleaf -nouser -nogroup -print
    -print0 -prune -quit -daystart -warn -nowarn -acl -xattr -nogroup -a -and"""
_NO_ARG = frozenset(_NO_ARG_TEXT.split())
_ONE_ARG_TEXT = """-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname
    -type
    -xtype -user -group -uid -gid -perm -size -mtime -atime -ctime -mmin -amin -cmin -newer
    -anewer -cnewer -used -inum -samefile -links -fstype -context -maxdepth -mindepth
    -regextype -printf -files0-from -Bmin -Btime -Bnewer -flags -xattrname -mnewer"""
_ONE_ARG = frozenset(_ONE_ARG_TEXT.split())
_NEWER_XY = re.compile(r"-newer[aBcmt][aBcmt]t?")
_GLOBAL = {"-H": 0, "-L": 0, "-P": 0, "-E": 0, "-X": 0, "-s": 0, "-x": 0, "-D": 1, "-f": 1}


def _globals(args: list[Word]) -> tuple[int, list[Word]]:
    """Where the start paths begin after find's own options (-H -L -P -D -O), and the start
    paths BSD's ``-f PATH`` names; an option not known here is read as the expression's (and,
    not known there, makes find opaque)."""
    i, roots = 0, []
    while i < len(args):
        value = args[i].value
        if value is None or not value.startswith("-") or value in _OPERATORS:
            break
        if value in _GLOBAL:
            roots += args[i + 1 : i + 2] if value == "-f" else []
            i += 1 + _GLOBAL[value]
        elif value.startswith("-O") and value[2:].isdigit():
            i += 1
        else:
            break
    return i, roots


def _found(arg: Word) -> Word:
    """A word holding ``{}``: a path find found, which starts with a start path (never with
    "-"), unless text comes before it (``-o{}``)."""
    return Word(arg.text, None, dashless=(arg.value or "").startswith("{}"))


def find(prog: str, args: list[Word], env: Env) -> Outcome:
    i, starts = _globals(args)
    while i < len(args):
        value = args[i].value
        if value is None or value.startswith(("-", "(", "!")) or value in (")", ","):
            break
        starts.append(args[i])
        i += 1
    if i < len(args) and args[i].value is None and not starts:
        starts.append(args[i])
        i += 1
    if any(w.value == "-files0-from" for w in args[i:]):  # start paths read from a file
        starts = [*starts, unknown("<paths from -files0-from>")]
    roots = starts or [lit(".")]
    fx: list[Fx] = []
    status = Status.READ_ONLY
    notes: list[str] = []
    nested: list[Command] = []
    names = _name_filter(args[i:])
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "find: an expression word is not a literal", fx)
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
                _found(a) if a.value is not None and "{}" in a.value else a for a in args[i + 1 : j]
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
        elif value in _ONE_ARG or _NEWER_XY.fullmatch(value):
            i += 1
        elif value not in _NO_ARG and value not in _OPERATORS:
            return opaque(prog, f"find: {value} is not known", fx)
        i += 1
    if status == Status.READ_ONLY and not fx:
        return Outcome(prog, status, (), "find without actions", nested)
    if status == Status.READ_ONLY:
        status = Status.WRITES
    return Outcome(prog, status, fx, "; ".join(notes), nested)


HANDLERS = {"find": find}
