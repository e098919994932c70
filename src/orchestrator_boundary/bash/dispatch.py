"""From argv to an Outcome: wrappers first, then per-program knowledge, else opaque."""

from __future__ import annotations

import re

from orchestrator_boundary.bash import boundary_cli, claude_cli
from orchestrator_boundary.bash.braces import brace_unread
from orchestrator_boundary.bash.declared import HANDLERS as DECLARED
from orchestrator_boundary.bash.model import Status
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only
from orchestrator_boundary.bash.paths import basename
from orchestrator_boundary.bash.programs import HANDLERS
from orchestrator_boundary.bash.readonly_data import (
    PATH_INDEPENDENT,
    READ_ONLY_PROGRAMS,
    TRUSTED_DIRS,
    VERSION_ONLY,
)
from orchestrator_boundary.bash.unwrap import prepares, run_script, unwrap
from orchestrator_boundary.bash.words import Word, may_be_option
from orchestrator_boundary.bash.zsh_math import COUNTED
from orchestrator_boundary.values import replace

_ALIASES = {
    "nodejs": "node",
    "gtar": "tar",
    "gsed": "sed",
    "gawk": "awk",
    "mawk": "awk",
    "nawk": "awk",
    "bsdtar": "tar",
    "pip3": "pip",
    "python3": "python",
    "rmdir": "rmdir",
}


def program_name(value: str) -> str:
    name = basename(value) if "/" in value or "\\" in value else value
    if "." in name and name.lower().endswith(".exe"):
        name = name[:-4]
    if name.startswith("python") and all(c.isdigit() or c == "." for c in name[6:]):
        return "python"
    if name.startswith("pip") and all(c.isdigit() or c == "." for c in name[3:]):
        return "pip"
    return _ALIASES.get(name, name)


def dispatch(argv: list[Word], env: Env) -> Outcome:
    """What running ``argv`` in ``env`` does to files. A runner that prepares an environment
    for the command it runs (``npx``, ``uv run``, ...) writes caches, logs, a virtual
    environment or a lock file of its own where its configuration says, and may fetch and run a
    package: the command it runs is analysed (its effects count), but the whole is never better
    than ``opaque`` (ADR 0049). The simple command has done brace expansion (``braces``); a
    word it could not do leaves the whole no better than ``opaque`` (ADR 0081)."""
    prepared: list[str] = []
    outcome = _dispatch(argv, env, prepared)
    unread = brace_unread(argv)
    if (prepared or unread) and outcome.status in (Status.READ_ONLY, Status.WRITES):
        note = "a brace expansion not read" if unread else ""
        note = note or prepared[0]
        return Outcome(
            outcome.program, Status.OPAQUE, outcome.fx, note, outcome.inner, outcome.script
        )
    return outcome


def _dispatch(argv: list[Word], env: Env, prepared: list[str]) -> Outcome:
    spend = env.budget.spend  # a wrapper may change env, never its budget
    for _ in range(32):  # wrappers nest shallowly; each round strips one
        spend()
        head = argv[0].value
        if head is None or argv[0].glob:
            return _computed(argv[0].text, argv[1:], env, head)
        prog = program_name(head)
        if head in env.read_only or prog in env.read_only:
            return read_only(prog, "caller's read-only command")
        if (
            ("/" in head or "\\" in head)
            and prog not in PATH_INDEPENDENT
            and not head.startswith(TRUSTED_DIRS)
        ):
            return _by_path(head, prog, argv[1:], env)
        args = argv[1:]
        runner = prepares(prog, args)
        if runner:
            prepared.append(runner)
        step = unwrap(prog, args, env)
        if step is not None:
            if isinstance(step, Outcome):
                return step
            argv, env = step
            if not argv:
                return read_only(prog, "wrapper without a command")
            continue
        handler = HANDLERS.get(prog)
        if len(args) == 1 and args[0].value in _HELP and _help_is_harmless(prog, handler):
            return read_only(prog, f"{args[0].value} only")
        if handler is not None:
            outcome = handler(prog, args, env)
            if prog in _RUNS_PROJECT and outcome.status is Status.READ_ONLY:
                return opaque(prog, f"{prog} may run a program the project's files name")
            return outcome if prog in _OWN_WORDS else _hidden_options(outcome, args)
        if prog in READ_ONLY_PROGRAMS:
            return read_only(prog, "known read-only")
        return opaque(prog, "unknown program: its effects cannot be known")
    return opaque("", "too many nested wrappers")


_HELP = frozenset({"--version", "--help", "-version"})
# programs whose every run may run code the project names: rustup's proxies follow
# rust-toolchain.toml to a toolchain `path` in the project; yarn 2+ runs the `yarnPath` script
# of .yarnrc.yml (`yarn --version` included)
_RUNS_PROJECT = frozenset({"cargo", "cargo-install", "rustfmt", "yarn"})


def _help_is_harmless(prog: str, handler: object) -> bool:
    """A lone `--version` / `--help` is read-only for the programs the analysis knows (a
    handler, or no option of theirs writes) unless they read the project first; an unknown
    program may do anything before it prints (`mvn --version` reads .mvn/jvm.config)."""
    if prog in _RUNS_PROJECT:
        return False
    return handler is not None or prog in READ_ONLY_PROGRAMS or prog in VERSION_ONLY


# handlers that judge words that are not literals themselves (builtins.py, declared.py)
_OWN_WORDS = frozenset({"printf", "test", "[", *DECLARED, *COUNTED})


# `"$(cat <<'EOF'\nfix: ...\nEOF\n)"` (git commit -m): the word is the here-document's text,
# which starts with a letter or a digit here, so it cannot be an option
# and `"$(pwd)/x"`, an absolute path
_HEREDOC_TEXT = re.compile(
    r"""^"\$\(\s*cat\s+<<-?\s*(['"]?)[A-Za-z_]+\1[ \t]*\n[A-Za-z0-9]|^"?\$\(pwd\)(/|"?$)"""
)


# file utilities with no option that runs a program: a write of theirs to a place the text
# does not fix (`rm $f`, `cp a "$dest"`) already stands for "anywhere" in the policy
_NO_CODE_OPTIONS = frozenset(
    {"rm", "rmdir", "unlink", "mkdir", "touch", "mv", "cp", "ln", "link", "install"}
    | {"chmod", "chown", "chgrp", "truncate", "shred", "mkfifo"}
)


def _hidden_options(outcome: Outcome, args: list[Word]) -> Outcome:
    """A read-only answer holds only for the words it saw: a word that is not a literal (`$X`,
    `$(..)`, a glob) may be an option that writes (`sort $X` with X=-oFILE), so it is opaque.
    So does a write's list of targets (`sort -o a f $X`, X=-o.claude/x): opaque, keeping the
    writes it saw (ADR 0049)."""
    if outcome.status not in (Status.READ_ONLY, Status.WRITES):
        return outcome
    if (
        outcome.status is Status.WRITES
        and outcome.program in _NO_CODE_OPTIONS
        and any(f.resolved is None for f in outcome.fx)
    ):
        return outcome  # already written "somewhere"; no option of these runs a program
    hidden = next(
        (
            a
            for a in args
            if may_be_option(a)
            and not (outcome.status is Status.WRITES and _HEREDOC_TEXT.match(a.text))
        ),
        None,
    )
    if hidden is None:
        return outcome
    note = f"{hidden.text} is not a literal: it may be an option"
    return opaque(outcome.program, note, list(outcome.fx))


def _computed(text: str, args: list[Word], env: Env, pattern: str | None) -> Outcome:
    """A program name the text does not fix (`$X`, `${o}-boundary`, a ``pattern`` such as
    `bin/orchestrator-bound*`): opaque, unless it could spell this product's CLI and the
    arguments would change the boundary (safe side)."""
    note = "program name is not a literal"
    if boundary_cli.could_spell(text) or (
        pattern is not None and boundary_cli.could_match(pattern)
    ):
        outcome = boundary_cli.boundary(boundary_cli.PROGRAM, args, env)
        if boundary_cli.changes(outcome):  # still opaque: it may be another program
            return opaque(text, note, list(outcome.fx))
    return opaque(text, note)


def _by_path(head: str, prog: str, args: list[Word], env: Env) -> Outcome:
    """A program run by a path outside the system's folders: opaque (it may be a local
    script), unless it is Claude Code's or this product's CLI changing the boundary (then the
    change counts whatever the file really is: a path only ever adds that effect)."""
    found = run_script(prog, Word(head, head), env, by_path=True)
    if not found.inner:
        found = replace(found, note=f"runs {head}: not a system program")
    if prog == claude_cli.PROGRAM:
        outcome = claude_cli.claude(prog, args, env)
    elif boundary_cli.script_is_cli(head, found.script, env):
        outcome = boundary_cli.boundary(boundary_cli.PROGRAM, args, env)
    else:
        return found
    return outcome if boundary_cli.changes(outcome) else found
