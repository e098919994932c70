"""The values the Bash analysis returns. Pure data: no parsing here.

The policy core (``orchestrator_boundary.policy``) consumes only these types, through
``orchestrator_boundary.bash.analyze``; everything else in this package is the analysis's
own business.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class EffectKind(enum.StrEnum):
    WRITE = "write"  # creates or overwrites content
    DELETE = "delete"  # removes a file or folder
    CHANGE = "change"  # mode, owner, times, links: metadata


class Status(enum.StrEnum):
    """Overall verdict of the analysis; the worst wins.

    unparseable > opaque > writes > read_only
    """

    READ_ONLY = "read_only"
    WRITES = "writes"
    OPAQUE = "opaque"
    UNPARSEABLE = "unparseable"


@dataclass(frozen=True, slots=True)
class Effect:
    kind: EffectKind
    path: str  # as written in the command text ("" when no literal target is known)
    # absolute POSIX path resolved against the working directory by string math
    # (``..`` collapsed, ``cd`` followed); None when it cannot be known (variables, globs,
    # an unknown ``cd``): the policy treats None as "somewhere", i.e. outside every scope.
    resolved: str | None
    command: str  # the simple command's text that has the effect, e.g. "sed -i s/a/b/ f"
    source: str  # human explanation: "redirect '>'", "argument 2 of cp", "sed -i", ...


@dataclass(frozen=True, slots=True)
class Command:
    """One simple command the text can run (after unwrapping sudo/env/bash -c/...)."""

    text: str
    program: str  # basename of argv[0] after unwrapping, "" for a bare assignment/redirect
    status: Status
    effects: tuple[Effect, ...] = ()
    note: str = ""  # why opaque / why read-only ("known read-only", "--version", ...)


@dataclass(frozen=True, slots=True)
class BashAnalysis:
    status: Status
    commands: tuple[Command, ...] = ()
    effects: tuple[Effect, ...] = ()  # all effects of all commands, in text order
    error: str = ""  # for UNPARSEABLE: what did not parse, or "budget exhausted"
    opaque: tuple[Command, ...] = field(default=())  # the commands that made it OPAQUE
