"""Wrappers that set the environment of the command they run: `env` and `sudo` (unwrap.py).

The variables they give the program are judged like a command's prefix assignments: a name
not known to be harmless makes the command opaque (envvars.exported_risk).
"""

from __future__ import annotations

from orchestrator_boundary.bash.envvars import code_in, dangerous, exported_risk, split_assignment
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.options import Spec, parse
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only, runs_code, writes
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.unwrap_data import ENV, SUDO
from orchestrator_boundary.bash.words import Word, lit, may_split
from orchestrator_boundary.values import replace

Step = tuple[list[Word], Env] | Outcome | None
W = EffectKind.WRITE


def options(prog: str, args: list[Word], known: Spec) -> Parsed | Outcome:
    """The wrapper's options and, in ``.rest``, the command it runs; ``opaque`` when an option
    is not known (it could take a value and so hide which word is the command)."""
    parsed = parse(args, known, stop_at_positional=True)
    if parsed.unknown:
        return opaque(prog, f"{prog}: option {parsed.unknown[0]} is not known")
    # `timeout *`, `env -u * ls`, `nice -n $N ls`: a word among the options that may expand
    # to several moves the command's name to one the text does not show (observed: `timeout *`
    # beside files 0, rm and zz ran `timeout 0 rm zz`)
    split = next((a for a in args[: len(args) - len(parsed.rest)] if may_split(a)), None)
    if split is not None:
        return opaque(prog, f"{prog}: {split.text} may expand to several words")
    return parsed


_SPLIT_STRING_SPECIAL = frozenset("\\'\"$#")


def _assignments(prog: str, rest: list[Word], env: Env) -> list[Word] | Outcome:
    """`NAME=value` words before the command (env, sudo): the program receives them, so each
    must be harmless (envvars.exported_risk); the words after them, or an opaque outcome that
    keeps what the command itself does (and the code a variable holds, PAGER='touch p')."""
    risky = ""
    code: list[str] = []
    while rest and rest[0].value is not None and split_assignment(rest[0].value):
        var, assigned = split_assignment(rest[0].value) or ("", "")
        if dangerous(var, assigned):
            risky = risky or f"sets {var}: the program may run other code"
            found = code_in(var, rest[0].value and assigned)
            code += [found] if found else []
        elif exported_risk(var, assigned):
            risky = risky or f"sets {var} for the program: not known to be harmless"
        rest = rest[1:]
    if rest and rest[0].value is None and "=" in rest[0].text:
        risky = f"{rest[0].text}: may set a variable for the program"
    if not risky:
        return rest
    shown = runs_code(prog, "\n".join(code), env, risky) if code else opaque(prog, risky)
    if not rest:
        return shown
    inner = env.nested.dispatch(rest, env)
    return Outcome(
        inner.program, Status.OPAQUE, [*inner.fx], risky, [*shown.inner, *inner.inner], inner.script
    )


def env_wrapper(args: list[Word], env: Env) -> Step:
    if args and args[0].value == "-":  # `env - cmd`: -i
        args = args[1:]
    parsed = options("env", args, ENV)
    if isinstance(parsed, Outcome):
        return parsed
    rest = parsed.rest
    for name, value in parsed.opts:
        if name in ("-C", "--chdir"):
            env = replace(env, cwd=resolve(value.literal if value else None, env.cwd))
        elif name in ("-S", "--split-string"):
            text = value.value if value else None
            if text is None or any(c in text for c in _SPLIT_STRING_SPECIAL):
                # env -S reads quotes, `\_` (a blank), `\c` and `${VAR}` itself
                return opaque("env", "env -S string is not a plain list of words")
            rest = [lit(part) for part in text.split()] + rest
    found = _assignments("env", rest, env)
    if isinstance(found, Outcome):
        return found
    rest = found
    if not rest:
        return read_only("env", "prints the environment")
    return rest, env


def sudo(args: list[Word], env: Env) -> Step:
    parsed = options("sudo", args, SUDO)
    if isinstance(parsed, Outcome):
        return parsed
    if parsed.has("-e", "--edit"):  # sudoedit: the operands are files it writes
        return writes("sudo", env.fx_many(W, parsed.rest, "sudo -e file"), "sudo -e alone")
    if parsed.has("-R", "--chroot", "-A", "--askpass"):
        return opaque("sudo", "sudo -R / -A: another root, or a password program")
    listing = parsed.has("-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp")
    if listing and not parsed.rest:
        return read_only("sudo", "credential / listing option")
    for name, value in parsed.opts:
        if name in ("-D", "--chdir"):
            env = replace(env, cwd=resolve(value.literal if value else None, env.cwd))
    found = _assignments("sudo", parsed.rest, env)
    if isinstance(found, Outcome):
        return found
    rest = found
    if not rest:
        return opaque("sudo", "interactive root shell")
    return rest, env
