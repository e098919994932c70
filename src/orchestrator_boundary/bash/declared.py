"""Builtins that set, export or evaluate variables when run as programs (`builtin export`,
`command declare`, `"export"`), and `unset`, `wait`, `jobs`, `set` (attack round A, part B).

The grammar reads `export X=1` as a declaration the walk judges (assign.py); spelled any other
way the same builtin arrives here as argv, and is judged by the same rules.
"""

from __future__ import annotations

from orchestrator_boundary.bash.envvars import (
    NAME,
    code_in,
    dangerous,
    exported_risk,
    harmless_exported,
    settable,
    settable_name,
    split_assignment,
)
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only, runs_code
from orchestrator_boundary.bash.readonly_data import DANGEROUS_ENV
from orchestrator_boundary.bash.words import Word, may_be_option

# declare's options that change nothing but attributes the analysis need not follow
_DECLARE_FLAGS = frozenset("aAfFglprtux")


def _flags(value: str, prog: str) -> str | None:
    """The letters of an option word, or None when one is not known to be harmless (`-i`
    evaluates values, `-n` makes a name stand for another)."""
    letters = value[1:]
    allowed = frozenset("fnp") if prog == "export" else _DECLARE_FLAGS
    return letters if letters and all(c in allowed for c in letters) else None


def declare(prog: str, args: list[Word], env: Env) -> Outcome:
    """export / declare / typeset / local / readonly run as a program."""
    exported = prog == "export"
    options = True
    for arg in args:
        text = arg.value if arg.value is not None else arg.text
        if options and arg.value is not None and text.startswith(("-", "+")) and text != "--":
            letters = _flags(text, prog)
            if letters is None:
                return opaque(prog, f"{prog} {text}: evaluates or links variables")
            exported = exported or (text[0] == "-" and "x" in letters)
            continue
        options = options and text != "--"
        if text == "--":
            continue
        options = False
        why = _setting(prog, arg, text, exported, env)
        if why is not None:
            return why
    return read_only(prog, "sets shell variables")


def _setting(prog: str, arg: Word, text: str, exported: bool, env: Env) -> Outcome | None:
    """None when ``NAME`` / ``NAME=value`` is harmless; else the opaque outcome."""
    split = split_assignment(text)
    name, value_text = split if split else (text, None)
    if NAME.fullmatch(name) is None or (split is None and arg.value is None):
        return opaque(prog, f"{prog} {arg.text}: a computed name or a subscript")
    if value_text is None:
        if exported and name not in DANGEROUS_ENV and not harmless_exported(name):
            return opaque(prog, f"exports {name}: the program may write or run other code")
        return None
    value = arg.value.partition("=")[2] if arg.value is not None else None
    if dangerous(name, value_text):
        note = f"sets {name}: later programs may run other code"
        return runs_code(prog, code_in(name, value), env, note)
    if (exported and exported_risk(name, value_text)) or (not exported and not settable(name)):
        return opaque(prog, f"sets {name}: later programs may write or run other code")
    return None


def unset(prog: str, args: list[Word], env: Env) -> Outcome:
    """`unset 'a[$(cmd)]'` evaluates the subscript as arithmetic; with PATH unset, Bash looks
    commands up in the working folder (observed: `unset PATH; ls` ran ./ls)."""
    for arg in args:
        if arg.value is None or arg.glob or ("[" in arg.value and not _plain_subscript(arg.value)):
            return opaque(prog, f"unset {arg.text}: evaluates a subscript")
        if arg.value == "PATH":
            return opaque(prog, "unset PATH: later commands are looked up in the working folder")
    return read_only(prog, "unsets shell variables")


def _plain_subscript(value: str) -> bool:
    name, _, rest = value.partition("[")
    return NAME.fullmatch(name) is not None and rest[:-1].isdigit() and rest.endswith("]")


def wait(prog: str, args: list[Word], env: Env) -> Outcome:
    """`wait -p NAME` sets NAME (a subscript in it is evaluated); `wait $pid` waits."""
    for i, arg in enumerate(args):
        value = arg.value
        after = args[i + 1] if i + 1 < len(args) else None
        if value is None:  # `wait $pid`; were it `-p`, the next word would be the name
            if after is not None and not (after.value or "x").isdigit():
                return opaque(prog, f"wait {arg.text}: may be -p before a name")
        elif (value.startswith("-") and "p" in value) and (
            after is None or after.value is None or not settable_name(after.value)
        ):
            return opaque(prog, "wait -p sets a variable that is not a plain, harmless name")
    return read_only(prog, "waits for jobs")


def jobs(prog: str, args: list[Word], env: Env) -> Outcome:
    """`jobs -x CMD ARGS` runs CMD."""
    for i, arg in enumerate(args):
        value = arg.value
        if value is None or (value.startswith("-") and "x" in value):
            rest = args[i + 1 :]
            if value is None or not rest:
                return opaque(prog, "jobs: a word that is not a literal")
            return env.nested.dispatch(rest, env)
        if not value.startswith("-"):
            break
    return read_only(prog, "lists jobs")


def set_builtin(prog: str, args: list[Word], env: Env) -> Outcome:
    """`set -a` / `set -o allexport` exports every later assignment to programs; `set -o
    history` and the like are harmless; positional parameters after `--` are words."""
    for i, arg in enumerate(args):
        value = arg.value
        if value == "--":
            break
        if value is None or may_be_option(arg):
            return opaque(prog, f"set {arg.text}: may be an option")
        if value[:1] in "-+" and len(value) > 1:
            named = args[i + 1].value if i + 1 < len(args) else ""  # `set -o` alone lists
            # -k / keyword: a NAME=value word anywhere among a command's arguments goes to its
            # environment (`set -k; bash -c ls BASH_ENV=./x` ran ./x; attack round C)
            if any(c in value[1:] for c in "ak") or (
                "o" in value[1:] and named in (None, "allexport", "history", "keyword")
            ):
                return opaque(prog, "set -a / -k / -o history: variables exported, a history")
            continue
        break
    return read_only(prog, "sets shell options")


def getopts(prog: str, args: list[Word], env: Env) -> Outcome:
    """`getopts SPEC NAME`: NAME is set (a subscript in it is evaluated)."""
    named = args[1].value if len(args) > 1 else None
    if named is None or not settable_name(named):
        return opaque(prog, "getopts sets a variable that is not a plain, harmless name")
    return read_only(prog, "parses options")


def shopt(prog: str, args: list[Word], env: Env) -> Outcome:
    """`shopt -so allexport` / `history` are `set -o` options (set_builtin)."""
    values = [a.value for a in args]
    if None in values:
        return opaque(prog, "shopt: a word that is not a literal")
    if any(v.startswith("-") and "o" in v for v in values if v) and (
        "allexport" in values or "history" in values or "keyword" in values
    ):
        return opaque(prog, "shopt -o allexport / history / keyword")
    if "cdable_vars" in values:  # `cd NAME` then goes to NAME's value: later paths unknown
        return opaque(prog, "shopt cdable_vars: cd may go to a variable's value")
    return read_only(prog, "sets shell options")


HANDLERS = {
    "getopts": getopts,
    "shopt": shopt,
    "export": declare,
    "declare": declare,
    "typeset": declare,
    "local": declare,
    "readonly": declare,
    "unset": unset,
    "wait": wait,
    "jobs": jobs,
    "set": set_builtin,
}
