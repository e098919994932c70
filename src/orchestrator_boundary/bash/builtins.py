"""Shell builtins whose arguments can name variables, aliases or code (ADR 0021)."""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only, runs_code, writes
from orchestrator_boundary.bash.ps_static import cmd_redirects
from orchestrator_boundary.bash.words import Word

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LITERAL_ARITH = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=)?[0-9+\-*/%() ]*")


def _is_name(word: Word | None) -> bool:
    return word is not None and word.value is not None and _NAME.fullmatch(word.value) is not None


def _read(prog: str, args: list[Word], env: Env) -> Outcome:
    """read / mapfile / readarray: every variable they set must be a plain name (a subscript
    in a name is evaluated as arithmetic); mapfile -C runs a callback."""
    valued = "adinNptuCcOs" if prog != "read" else "adinNptu"
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "a variable name is not a literal")
        if value.startswith("-") and len(value) > 1:
            letter = value[-1]
            if "C" in value[1:] and prog != "read":
                callback = args[i + 1].value if value == "-C" and i + 1 < len(args) else None
                return runs_code(prog, callback, env, f"{prog} -C runs a callback")
            if letter in valued and i + 1 < len(args) and len(value) == 2:
                if letter == "a" and not _is_name(args[i + 1]):
                    return opaque(prog, "the array name is not a plain name")
                i += 1
        elif not _is_name(args[i]):
            return opaque(prog, f"{prog} sets {value}: not a plain name")
        i += 1
    return read_only(prog, "sets shell variables")


def _printf(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and args[0].value == "-v" and (len(args) < 2 or not _is_name(args[1])):
        return opaque(prog, "printf -v names a variable that is not a plain name")
    return read_only(prog, "known read-only")


def _hash(prog: str, args: list[Word], env: Env) -> Outcome:
    if any(a.value is None or (a.value.startswith("-") and "p" in a.value) for a in args):
        return opaque(prog, "hash -p makes a name run another program")
    return read_only(prog, "known read-only")


def _alias(prog: str, args: list[Word], env: Env) -> Outcome:
    if any(a.value is None or "=" in a.value for a in args):
        # the alias may be used anywhere after this: what it runs is analysed here
        bodies = [a.value.partition("=")[2] for a in args if a.value is not None]
        code = "\n".join(bodies) if all(a.value is not None for a in args) else None
        note = "defines an alias: later commands in this shell may run other code"
        outcome = runs_code(prog, code, env, note)
        if code is not None and all(c.status is Status.READ_ONLY for c in outcome.inner):
            # whatever uses the alias runs only what was just shown to be read-only
            return Outcome(prog, Status.READ_ONLY, (), "defines a read-only alias", outcome.inner)
        return outcome
    return read_only(prog, "lists aliases")


def _test(prog: str, args: list[Word], env: Env) -> Outcome:
    for i, arg in enumerate(args):
        if arg.value == "-v" and not _is_name(args[i + 1] if i + 1 < len(args) else None):
            return opaque(prog, "test -v evaluates a subscript")
    return read_only(prog, "known read-only")


def _let(prog: str, args: list[Word], env: Env) -> Outcome:
    for arg in args:
        if arg.value is None or _LITERAL_ARITH.fullmatch(arg.value) is None:
            return opaque(prog, "let evaluates a variable's value")
    return read_only(prog, "literal arithmetic")


def _by_name(prog: str, args: list[Word], env: Env) -> Outcome:
    """rg --pre, ag/ack --pager: an option that names a command to run."""
    runner = "--pre" if prog == "rg" else "--pager"
    for arg in args:
        value = arg.value
        if value is None or value == "--":
            break
        name = value.partition("=")[0]
        if len(name) > 3 and runner.startswith(name):
            return opaque(prog, f"{prog} {runner} runs a command")
    return read_only(prog, "known read-only")


def _file(prog: str, args: list[Word], env: Env) -> Outcome:
    for arg in args:
        value = arg.value or ""
        if value == "--compile" or (
            value.startswith("-") and not value.startswith("--") and "C" in value
        ):
            return writes(prog, [env.fx(EffectKind.WRITE, "magic.mgc", "file -C compiled magic")])
    return read_only(prog, "known read-only")


def _cmd(prog: str, args: list[Word], env: Env) -> Outcome:
    """cmd.exe /c LINE (Git Bash spells it //c): its redirects write, the rest is opaque."""
    values = [a.value for a in args]
    start = next((i for i, v in enumerate(values) if (v or "").lower() in _CMD_RUN), None)
    if start is None or any(v is None for v in values[start + 1 :]):
        return opaque(prog, "cmd.exe: an interactive shell or a line that is not literal")
    line = " ".join(v or "" for v in values[start + 1 :])
    fx = [env.fx(EffectKind.WRITE, t, "cmd redirect") for t in cmd_redirects(line)]
    return opaque(prog, "cmd.exe command line", fx)


_CMD_RUN = frozenset({"/c", "//c", "/k", "//k"})

HANDLERS = {
    "cmd": _cmd,
    "read": _read,
    "mapfile": _read,
    "readarray": _read,
    "printf": _printf,
    "hash": _hash,
    "alias": _alias,
    "test": _test,
    "[": _test,
    "let": _let,
    "rg": _by_name,
    "ag": _by_name,
    "ack": _by_name,
    "file": _file,
}
