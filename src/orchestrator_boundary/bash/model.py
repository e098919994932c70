"""The values the shell-command analysis returns. Pure data: no parsing here.

The policy core (``orchestrator_boundary.policy``) consumes only these types, through
``orchestrator_boundary.bash.analyze``; everything else in this package is the analysis's
own business.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from orchestrator_boundary.values import field, frozen


class EffectKind(enum.StrEnum):
    WRITE = "write"  # creates or overwrites content
    DELETE = "delete"  # removes a file or folder
    CHANGE = "change"  # mode, owner, times, links: metadata
    # runs this product's own CLI to change the boundary itself (`orchestrator-boundary phase
    # off`, `install`, `uninstall`, `python -m orchestrator_boundary ...`): the policy's TAMPER.
    # ``resolved`` is None; ``path`` names the command (ADR 0021)
    CONTROL = "control"


class Status(enum.StrEnum):
    """Overall verdict of the analysis. The members are declared in their order, best first:
    read_only < writes < opaque < unparseable; the worst one wins (``worst``)."""

    READ_ONLY = "read_only"
    WRITES = "writes"
    OPAQUE = "opaque"
    UNPARSEABLE = "unparseable"


_RANK = {status: rank for rank, status in enumerate(Status)}


def worst(a: Status, b: Status) -> Status:
    """The worse of two statuses, in ``Status``'s declared order."""
    return b if _RANK[b] > _RANK[a] else a


@frozen
class Effect:
    kind: EffectKind
    path: str  # as written in the command text ("" when no literal target is known)
    # absolute POSIX path resolved against the working directory by string math
    # (``..`` collapsed, ``cd`` followed); None when it cannot be known (variables, globs,
    # an unknown ``cd``): the policy treats None as "somewhere", i.e. outside every scope.
    resolved: str | None
    command: str  # the simple command's text that has the effect, e.g. "sed -i s/a/b/ f"
    source: str  # human explanation: "redirect '>'", "argument 2 of cp", "sed -i", ...
    # find -delete: only the entries below ``resolved`` whose name matches every one of these
    # (pattern, case-insensitive) are deleted; () when nothing narrows it (issue 14 point 6)
    names: tuple[tuple[str, bool], ...] = ()

    # What the policy asks of an effect, so that it needs no import of this module's enums
    # (a hook process loads the analysis only for a call with a command, ADR 0030).
    @property
    def changes_boundary(self) -> bool:
        return self.kind is EffectKind.CONTROL

    @property
    def deletes(self) -> bool:
        return self.kind is EffectKind.DELETE


@frozen
class Command:
    """One simple command the text can run (after unwrapping sudo/env/bash -c/...)."""

    text: str
    program: str  # basename of argv[0] after unwrapping, "" for a bare assignment/redirect
    status: Status
    effects: tuple[Effect, ...] = ()
    note: str = ""  # why opaque / why read-only ("known read-only", "--version", ...)
    # the script file it runs (`sh F`, `source F`, `./F`), resolved; "" for none. The policy
    # reads it and has the text analysed with the command (``analyze(scripts=...)``, ADR 0040)
    script: str = ""


@frozen
class BashAnalysis:
    status: Status
    commands: tuple[Command, ...] = ()
    effects: tuple[Effect, ...] = ()  # all effects of all commands, in text order
    error: str = ""  # for UNPARSEABLE: what did not parse; with ``exhausted``: the budget
    opaque: tuple[Command, ...] = field(default=())  # the commands that made it OPAQUE
    # OPAQUE because the step budget ran out before the whole text was read: nothing in the
    # text is known, so its words are still checked against the protected files (targets.py)
    exhausted: bool = False
    scripts: tuple[str, ...] = ()  # the script files its commands run (Command.script), once

    @property
    def unread(self) -> bool:
        """The text was not (all) read: it does not parse, or the budget ran out."""
        return self.status is Status.UNPARSEABLE or self.exhausted

    @property
    def unseen(self) -> bool:
        """Something in it may write what the analysis cannot see (``opaque``)."""
        return self.status is Status.OPAQUE


def summarize(commands: Iterable[Command], error: str = "") -> BashAnalysis:
    """The analysis of a command line from the analyses of the simple commands it runs."""
    listed = tuple(commands)
    status = Status.READ_ONLY
    effects: list[Effect] = []
    opaque: list[Command] = []
    for cmd in listed:
        status = worst(status, cmd.status)
        if cmd.status is Status.UNPARSEABLE and not error:
            error = cmd.note
        elif cmd.status is Status.OPAQUE:
            opaque.append(cmd)
        effects.extend(cmd.effects)
    scripts = tuple(dict.fromkeys(c.script for c in opaque if c.script))
    return BashAnalysis(status, listed, tuple(effects), error, tuple(opaque), scripts=scripts)
