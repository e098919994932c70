"""Wrappers whose words ``unwrap`` rewrites before it reads the command they run: multi-call
binaries (``busybox APPLET``) and macOS's ``arch`` (ADR 0070)."""

from __future__ import annotations

from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only
from orchestrator_boundary.bash.unwrap_data import AFTER_OPERAND
from orchestrator_boundary.bash.unwrap_env import options
from orchestrator_boundary.bash.words import Word, lit

Step = tuple[list[Word], Env] | Outcome | None


def multicall(prog: str, args: list[Word], env: Env) -> Step:
    """``busybox APPLET args`` / ``toybox APPLET args`` run ``APPLET args``: the applet is the
    program (``busybox sh -c '...'``); ``--list`` and ``--help`` only print."""
    if not args:
        return read_only(prog, "lists its applets")
    first = args[0].value
    if first in ("--list", "--list-full", "--help"):
        return read_only(prog, f"{prog} {first}")
    if first is None or first.startswith("-"):  # --install makes links; anything else unknown
        return opaque(prog, f"{prog} {args[0].text}: its effects cannot be known")
    return args, env


# arch(1) on macOS: `arch [-32] [-64] [-ARCH | -arch ARCH]... [-c] [-d NAME]... [-e NAME=VALUE]...
# [-h] PROGRAM [ARGS...]` runs PROGRAM (as ARCH, under Rosetta for -x86_64); every other word
# that starts with `-` names an architecture. Linux's arch only prints, and refuses operands.
_ARCH_VALUED = frozenset({"-arch", "-d", "-e"})


def arch(args: list[Word], env: Env) -> Step:
    """``arch -x86_64 CMD`` runs CMD. Read as ``env [-i] [-u NAME]... [NAME=VALUE]... CMD``:
    its ``-c`` clears the environment, ``-d`` unsets a variable, ``-e`` sets one, so that the
    environment's own rules judge a variable that makes CMD run other code."""
    if not args:
        return read_only("arch", "prints the machine's architecture")
    cleared, unset, assigned = [], [], []
    i = 0
    while i < len(args) and (args[i].value or "-").startswith("-"):
        value = args[i].value
        given = args[i + 1].value if i + 1 < len(args) else None
        if value is None or (value in _ARCH_VALUED and given is None):
            return opaque("arch", f"arch {args[i].text}: not a literal")
        if value == "-e" and "=" not in (given or ""):
            return opaque("arch", f"arch {args[i].text}: not a literal")
        if value == "-c":
            cleared = [lit("-i")]
        elif value == "-d":
            unset += [lit("-u"), lit(given or "")]
        elif value == "-e":
            assigned.append(lit(given or ""))
        i += 2 if value in _ARCH_VALUED else 1
    if i >= len(args):
        return opaque("arch", "arch without a program: its effects cannot be known")
    return [lit("env"), *cleared, *unset, *assigned, *args[i:]], env


def after_operand(prog: str, args: list[Word], env: Env) -> Step:
    """``chrt [OPTIONS] PRIORITY CMD`` / ``taskset [OPTIONS] MASK CMD`` run CMD; with ``-p``
    (or only the operand, or ``-m``: chrt prints the priorities) no command runs."""
    parsed = options(prog, args, AFTER_OPERAND[prog])
    if isinstance(parsed, Outcome):
        return parsed
    if parsed.has("-p", "--pid") or len(parsed.rest) < 2:
        return read_only(prog, f"{prog}: acts on a process, runs no command")
    return parsed.rest[1:], env
