"""What one argv does (``Outcome``), and what the per-program knowledge is given (``Env``).

These are the analysis's internal values, passed between the walker and the per-program
modules (named ``outcome`` rather than ``facts``: ``policy.Facts`` is another thing entirely).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from orchestrator_boundary.bash.budget import MAX_UNWRAP, Budget, BudgetExhausted
from orchestrator_boundary.bash.model import Command, EffectKind, Status
from orchestrator_boundary.bash.paths import is_device, resolve
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.values import replace, transient


@transient
class Fx:
    """An effect before it is tied to its command's text."""

    kind: EffectKind
    path: str
    resolved: str | None
    source: str
    names: tuple[tuple[str, bool], ...] = ()  # Effect.names


@transient
class Outcome:
    """What running one argv does (one per simple command; ADR 0017's one-call values)."""

    program: str
    status: Status
    fx: Sequence[Fx] = ()
    note: str = ""
    inner: Sequence[Command] = ()  # commands of nested shell code
    script: str = ""  # the script file it runs, resolved (Command.script)


def read_only(program: str, note: str) -> Outcome:
    return Outcome(program, Status.READ_ONLY, (), note)


def opaque(program: str, note: str, fx: list[Fx] | None = None) -> Outcome:
    return Outcome(program, Status.OPAQUE, tuple(fx) if fx else (), note)


def writes(program: str, fx: list[Fx], note: str = "") -> Outcome:
    """WRITES with ``fx``; READ_ONLY with ``note`` (why nothing is written) when there are none."""
    if fx:
        return Outcome(program, Status.WRITES, fx, "")
    return Outcome(program, Status.READ_ONLY, (), note)


def checked(program: str, unknown: list[str], outcome: Outcome) -> Outcome:
    """``outcome``, or ``opaque`` (keeping its effects) when an option was not understood."""
    if not unknown or outcome.status in (Status.OPAQUE, Status.UNPARSEABLE):
        return outcome
    return Outcome(
        program, Status.OPAQUE, outcome.fx, f"{program}: option {unknown[0]} is not known"
    )


def with_effects(fx: Sequence[Fx], inner: Outcome) -> Outcome:
    """``inner`` (a command a wrapper runs) plus the wrapper's own effects ``fx``."""
    status = inner.status
    if fx and status is Status.READ_ONLY:
        status = Status.WRITES
    note = "" if status is Status.WRITES else inner.note
    return Outcome(inner.program, status, [*fx, *inner.fx], note, inner.inner)


def runs_code(
    program: str, code: str | None, env: Env, note: str, fx: Sequence[Fx] = ()
) -> Outcome:
    """``program`` runs the command line ``code`` (a git pager, a tar compressor, awk's
    system()): opaque, with the commands of ``code`` analysed when it is a literal."""
    if code is None:
        return Outcome(program, Status.OPAQUE, tuple(fx), note)
    if env.depth >= MAX_UNWRAP:
        raise BudgetExhausted("budget exhausted (nested shells)")
    inner = env.nested.shell(code, replace(env, depth=env.depth + 1, stdin=None))
    return Outcome(program, Status.OPAQUE, tuple(fx), note, inner)


class Nested(Protocol):
    """The one way back into the analysis for code inside code (ADR 0022).

    Per-program knowledge that meets a command inside its arguments (``find -exec``, ``bash -c``,
    ``pwsh -Command``) asks ``env.nested``; ``analysis`` provides the one implementation, so no
    module below it imports the modules above it.
    """

    def dispatch(self, argv: list[Word], env: Env) -> Outcome:
        """What running ``argv`` does."""

    def shell(self, code: str, env: Env) -> list[Command]:
        """The commands of nested Bash code."""

    def powershell(self, code: str, env: Env) -> list[Command]:
        """The commands of nested PowerShell code."""


@transient
class Env:
    cwd: str | None
    home: str | None
    read_only: frozenset[str]
    budget: Budget
    depth: int  # nested shell depth
    nested: Nested
    stdin: str | None = None  # literal text a heredoc / here-string feeds the command
    nesting: int = 0  # statement nesting of the calling walker (shared cap across shells)
    backslash_sep: bool = False
    windows: bool = False  # the shell runs on Windows (a drive-letter cwd): NUL is a device
    scripts: tuple[tuple[str, str], ...] = ()  # script files read for this analysis: (path, text)
    start: str | None = None  # the folder the whole command starts in (git_repo)
    # git pathspecs ignore case: the text sets GIT_ICASE_PATHSPECS or --icase-pathspecs
    icase: bool = False

    def at(self, cwd: str | None) -> Env:
        return replace(self, cwd=cwd)

    def for_command(self, cwd: str | None, stdin: str | None, nesting: int) -> Env:
        """This Env for one simple command (built directly: ``replace`` costs ~5 % of a first
        analysis, and this runs once per simple command)."""
        if cwd == self.cwd and stdin is None and self.stdin is None and nesting == self.nesting:
            return self  # equal values, and an Env is never changed (ADR 0017)
        return Env(
            cwd,
            self.home,
            self.read_only,
            self.budget,
            self.depth,
            self.nested,
            stdin=stdin,
            nesting=nesting,
            backslash_sep=self.backslash_sep,
            windows=self.windows,
            scripts=self.scripts,
            start=self.start,
            icase=self.icase,
        )

    def fx(self, kind: EffectKind, word: Word | str | None, source: str) -> Fx:
        """An effect on the path named by ``word`` (a Word, a literal, or None = unknown)."""
        if word is None:
            return Fx(kind, "", None, source)
        if isinstance(word, str):
            word = Word(word, word)
        target = word.literal
        resolved = resolve(target, self.cwd, backslash_sep=self.backslash_sep)
        if target is None and word.glob and self.cwd and not self.windows:
            # a glob read in the folder the analysis followed to (`cd src && rm *.pyc`): its
            # text there, so the policy need not guess the folder (ADR 0076)
            return Fx(kind, _in_folder(word.text, self.cwd), None, source)
        return Fx(kind, word.text if target is None else target, resolved, source)

    def fx_many(self, kind: EffectKind, words: list[Word], source: str) -> list[Fx]:
        out = [self.fx(kind, w, source) for w in words]
        return [f for f in out if not is_device(f.resolved, f.path, windows=self.windows)]

    def resolve(self, word: Word | None) -> str | None:
        if word is None:
            return None
        return resolve(word.literal, self.cwd, backslash_sep=self.backslash_sep)


def _in_folder(text: str, cwd: str) -> str:
    """A relative glob's text read in ``cwd`` (``*.pyc`` in /p/src: ``/p/src/*.pyc``); any
    other text as written."""
    if text.startswith(("/", "~", "$", "'", '"', "\\")) or "`" in text:
        return text
    return cwd.rstrip("/") + "/" + (text[2:] if text.startswith("./") else text)
