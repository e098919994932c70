"""Internal values passed between the walker and the per-program knowledge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from orchestrator_boundary.bash.budget import Budget
from orchestrator_boundary.bash.model import Command, EffectKind, Status
from orchestrator_boundary.bash.paths import is_device, resolve
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.value import value


@value
class Fx:
    """An effect before it is tied to its command's text."""

    kind: EffectKind
    path: str
    resolved: str | None
    source: str


# Enum members are read through a descriptor on Python 3.11 (~190 ns a read, a module global
# ~20 ns): the walk's hot paths use these names.
READ_ONLY, WRITES, OPAQUE, UNPARSEABLE = (
    Status.READ_ONLY,
    Status.WRITES,
    Status.OPAQUE,
    Status.UNPARSEABLE,
)


@value
class Outcome:
    """What running one argv does (one per simple command; ADR 0017's one-call values)."""

    program: str
    status: Status
    fx: Sequence[Fx] = ()
    note: str = ""
    inner: Sequence[Command] = ()  # commands of nested shell code


def read_only(program: str, note: str) -> Outcome:
    return Outcome(program, READ_ONLY, (), note)


def opaque(program: str, note: str, fx: list[Fx] | None = None) -> Outcome:
    return Outcome(program, OPAQUE, tuple(fx) if fx else (), note)


def writes(program: str, fx: list[Fx], note: str = "") -> Outcome:
    return Outcome(program, WRITES if fx else READ_ONLY, fx, note)


ShellRunner = Callable[[str, "Env"], list[Command]]


@value
class Env:
    cwd: str | None
    home: str | None
    read_only: frozenset[str]
    budget: Budget
    depth: int  # nested shell depth
    run_shell: ShellRunner
    stdin: str | None = None  # literal text a heredoc / here-string feeds the command
    nesting: int = 0  # statement nesting of the calling walker (shared cap across shells)
    backslash_sep: bool = False

    def at(self, cwd: str | None) -> Env:
        return replace(self, cwd=cwd)

    def for_command(self, cwd: str | None, stdin: str | None, nesting: int) -> Env:
        """This Env for one simple command (built directly: the walk's hottest copy)."""
        if cwd == self.cwd and stdin is None and self.stdin is None and nesting == self.nesting:
            return self  # equal values, and an Env is never changed (ADR 0017)
        return Env(
            cwd,
            self.home,
            self.read_only,
            self.budget,
            self.depth,
            self.run_shell,
            stdin=stdin,
            nesting=nesting,
            backslash_sep=self.backslash_sep,
        )

    def fx(self, kind: EffectKind, word: Word | str | None, source: str) -> Fx:
        """An effect on the path named by ``word`` (a Word, a literal, or None = unknown)."""
        if word is None:
            return Fx(kind, "", None, source)
        if isinstance(word, str):
            word = Word(word, word)
        target = word.literal
        resolved = resolve(target, self.cwd, backslash_sep=self.backslash_sep)
        return Fx(kind, word.text if target is None else target, resolved, source)

    def fx_many(self, kind: EffectKind, words: list[Word], source: str) -> list[Fx]:
        out = [self.fx(kind, w, source) for w in words]
        return [f for f in out if not is_device(f.resolved, f.path)]

    def resolve(self, word: Word | None) -> str | None:
        if word is None:
            return None
        return resolve(word.literal, self.cwd, backslash_sep=self.backslash_sep)
