"""``flock``: the lock file it writes, or the file a descriptor it is given is open on."""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, with_effects
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
FLOCK_FD = "flock locks the file a descriptor is open on"


def flock(prog: str, args: list[Word], env: Env) -> Outcome:
    rest = list(args)
    while rest and (rest[0].value or "").startswith("-"):
        rest = (
            rest[2:]
            if rest[0].value in ("-w", "--timeout", "-E", "--conflict-exit-code")
            else rest[1:]
        )
    if not rest:
        return opaque(prog, "flock without a file")
    if len(rest) == 1 and (rest[0].value or "").isdigit():  # `flock 9`: the file 9 is open on
        return opaque(prog, "flock on a descriptor", [Fx(W, rest[0].value or "", None, FLOCK_FD)])
    lock = env.fx_many(W, rest[:1], "flock lock file")
    if len(rest) == 3 and rest[1].value in ("-c", "--command"):  # $SHELL -c (ADR 0082)
        ran = env.nested.dispatch([lit("sh"), lit("-c"), rest[2]], env)
        statuses = {ran.status, *(c.status for c in ran.inner)}
        if statuses != {Status.READ_ONLY}:  # its writes; none under sh may be some in zsh
            return with_effects(lock, ran)
    if len(rest) == 1 or rest[1].value in ("-c", "--command"):
        return opaque(prog, "flock runs a command", lock)
    return with_effects(lock, env.nested.dispatch(rest[1:], env))


def locked(lock: Fx, fds: Mapping[int, Fx | None], inherited: Mapping[int, Fx | None]) -> Fx:
    """``flock N``: a write to the file descriptor N is open on (``exec 9<.claude/boundary;
    flock 9`` locks the trail's folder), when this command (``fds``) or an enclosing statement
    or ``exec`` (``inherited``) opened it."""
    n = int(lock.path)
    opened = fds[n] if n in fds else inherited.get(n)
    if opened is None or not opened.path:
        return Fx(W, "", None, f"flock on descriptor {n}: the file it is open on is not known")
    return Fx(W, opened.path, opened.resolved, FLOCK_FD)


HANDLERS = {"flock": flock}
