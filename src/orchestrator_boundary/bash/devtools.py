"""Developer tools with documented write flags: formatters, compilers, generators, editors.

A formatter writes its operands (or the current folder) unless a check-only flag is given;
compilers and generators write their ``-o``/``-out``/``-d`` targets. An option a tool's table
does not know makes the command opaque (the effects found are kept) (ADR 0021).
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    checked,
    opaque,
    read_only,
    runs_code,
    with_effects,
    writes,
)
from orchestrator_boundary.bash.sqlite import sqlite3
from orchestrator_boundary.bash.words import Word, lit
from orchestrator_boundary.values import frozen

W, D = EffectKind.WRITE, EffectKind.DELETE


@frozen
class Formatter:
    writes_by_default: bool  # black, rustfmt: rewrite files unless told to check
    write: frozenset[str]  # flags that make it rewrite files (prettier --write, gofmt -w)
    check: frozenset[str]  # flags that make it only report (black --check)
    valued: frozenset[str] = frozenset()  # options that take the next word as a value
    harmless: frozenset[str] = frozenset()  # other options known to change no file
    outputs: frozenset[str] = frozenset()  # options whose value is a file written (eslint -o)


def _f(
    default: bool, write: str, check: str, valued: str = "", harmless: str = "", out: str = ""
) -> Formatter:
    return Formatter(
        default,
        frozenset(write.split()),
        frozenset(check.split()),
        frozenset(valued.split()),
        frozenset(harmless.split()),
        frozenset(out.split()),
    )


# a version or help flag: the tool prints and stops before reading any file
_INFO = frozenset({"--version", "-V", "--help", "-h"})


_COMMON = "-q --quiet -v --verbose --color --no-color"
FORMATTERS: dict[str, Formatter] = {
    "black": _f(
        True,
        "",
        "--check --diff",
        "-l --line-length -t --target-version --config --include --exclude --extend-exclude",
        f"{_COMMON} --fast --safe -S --skip-string-normalization --preview",
    ),
    "ruff format": _f(
        True,
        "",
        "--check --diff",
        "--line-length --config --target-version --exclude --extend-exclude",
        f"{_COMMON} --no-cache -n --isolated --preview --no-preview --force-exclude",
    ),
    "ruff check": _f(
        False,
        "--fix --unsafe-fixes --add-noqa --fix-only",
        "--no-fix --diff",
        "--select --ignore --extend-select --config --target-version --output-format",
        f"{_COMMON} --statistics --show-fixes --no-cache -n --exit-zero --isolated --preview",
        "-o --output-file",
    ),
    "isort": _f(
        True,
        "",
        "--check-only -c --diff --check",
        "--profile -l --line-length --settings-path",
        f"{_COMMON} --quiet",
    ),
    "autopep8": _f(
        False, "-i --in-place", "--diff", "--max-line-length --select --ignore", _COMMON
    ),
    "prettier": _f(
        False,
        "--write -w",
        "--check -c --list-different -l",
        "--config --parser --print-width --tab-width",
        f"{_COMMON} --single-quote --no-semi -v",
    ),
    "eslint": _f(
        False,
        "--fix",
        "",
        "--ext -c --config --format -f --max-warnings",
        f"{_COMMON} --fix-dry-run -v",
        "-o --output-file",
    ),
    "biome format": _f(False, "--write --apply --fix", "", "--config-path", _COMMON),
    "biome check": _f(False, "--write --apply --apply-unsafe --fix", "", "--config-path", _COMMON),
    "biome lint": _f(False, "--write --apply --fix", "", "--config-path", _COMMON),
    "gofmt": _f(False, "-w", "-l -d", "-r", "-s -e"),
    "goimports": _f(False, "-w", "-l -d", "-local", "-e"),
    "rustfmt": _f(True, "", "--check", "--edition --config-path --emit", _COMMON),
    "cargo fmt": _f(True, "", "--check", "-p --package --manifest-path", f"{_COMMON} --all"),
    "clang-format": _f(False, "-i", "--dry-run -n", "-style --style", "--Werror"),
    "shfmt": _f(False, "-w --write", "-l --list -d --diff", "-i -ln", "-s -bn -ci -sr"),
}


def _inline_setting(name: str, flag: str, value: Word | None) -> bool:
    """`ruff --config 'cache-dir = ".claude/x"'`: an inline setting (TOML, not a file name)
    may move the cache anywhere; a configuration file is read as the project's own is."""
    given = value.value if value is not None else None
    return name.startswith("ruff") and flag == "--config" and (given is None or "=" in given)


# what a tool does on every run besides its output, out of the text's sight (observed, ADR
# 0049): a cache the project's configuration may move, configuration that is code; and the
# flags that turn it off
_ALWAYS: dict[str, tuple[str, frozenset[str]]] = {
    "black": ("black keeps a cache in HOME (or BLACK_CACHE_DIR)", frozenset()),
    "ruff check": (
        "ruff keeps a cache (.ruff_cache, or the configuration's cache-dir)",
        frozenset({"--no-cache", "-n"}),
    ),
    "ruff format": (
        "ruff keeps a cache (.ruff_cache, or the configuration's cache-dir)",
        frozenset({"--no-cache", "-n"}),
    ),
    "prettier": ("prettier loads its configuration, which may be code", frozenset()),
    "eslint": ("eslint runs its configuration (eslint.config.js) and plugins", frozenset()),
}


def _format(name: str, args: list[Word], env: Env) -> Outcome:
    outcome = _formatted(name, args, env)
    side = _ALWAYS.get(name)
    if side is None or outcome.status not in (Status.READ_ONLY, Status.WRITES):
        return outcome
    flags = {(a.value or "").partition("=")[0] for a in args}
    if flags & (_INFO | side[1]):
        return outcome
    return Outcome(outcome.program, Status.OPAQUE, outcome.fx, side[0])


def _formatted(name: str, args: list[Word], env: Env) -> Outcome:
    spec = FORMATTERS[name]
    operands: list[Word] = []
    flags: list[str] = []
    unknown: list[str] = []
    outputs: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or not value.startswith("-") or value == "-":
            operands.append(args[i])
        else:
            flag, eq, attached = value.partition("=")
            flags.append(flag)
            if eq and _inline_setting(name, flag, lit(attached)):
                unknown.append(value)
            if flag in spec.outputs:
                given = lit(attached) if eq else (args[i + 1] if i + 1 < len(args) else None)
                outputs += [given] if given is not None else []
                i += 0 if eq else 1
            elif flag in spec.valued and "=" not in value:
                i += 1
                if _inline_setting(name, flag, args[i] if i < len(args) else None):
                    unknown.append(f"{flag} {args[i].text}")
                if flag == "--emit" and i < len(args) and args[i].value == "stdout":
                    flags.append("--emit=stdout")
            elif value == "--emit=stdout":
                flags.append(value)
            elif flag not in spec.write | spec.check | spec.valued | spec.harmless | _INFO:
                unknown.append(flag)
        i += 1
    program = name.split()[0]
    if outputs:
        fx = env.fx_many(W, outputs, f"{name} output file")
        if spec.write & set(flags):
            fx += env.fx_many(W, operands or [lit(".")], f"{name} rewrites files")
        return checked(program, unknown, writes(program, fx))
    if _INFO & set(flags):
        return checked(program, unknown, read_only(program, f"{name} prints its version or help"))
    if "--emit=stdout" in flags:  # rustfmt prints the formatted files
        return checked(program, unknown, read_only(program, f"{name} --emit stdout"))
    if spec.check & set(flags) and not spec.write & set(flags):
        return checked(program, unknown, read_only(program, f"{name} only checks"))
    if not (spec.write & set(flags) or spec.writes_by_default):
        return checked(program, unknown, read_only(program, f"{name} prints to stdout"))
    targets = [o for o in operands if o.value != "-"] or ([lit(".")] if not operands else [])
    fx = env.fx_many(W, targets, f"{name} rewrites files")
    return checked(program, unknown, writes(program, fx, "formats stdin to stdout"))


def _sub(args: list[Word]) -> str | None:
    return next((a.value for a in args if a.value is None or not a.value.startswith("-")), "")


def formatter(prog: str, args: list[Word], env: Env) -> Outcome:
    if prog in FORMATTERS:
        return _format(prog, args, env)
    sub = _sub(args)
    if sub is None:
        return opaque(prog, f"{prog} subcommand is not a literal")
    if sub == "" and args and all(a.value in _INFO for a in args):
        return read_only(prog, f"{prog} prints its version or help")
    rest = args[[a.value for a in args].index(sub) + 1 :] if sub else []
    if f"{prog} {sub}" in FORMATTERS:
        return _format(f"{prog} {sub}", rest, env)
    if prog == "cargo":
        return _cargo(sub, rest, env)
    if prog == "ruff" and sub in ("version", "rule", "config", "linter"):
        known = {"--output-format", "--all", *_INFO}
        unknown = [
            name
            for a in rest
            if (a.value or "-").startswith("-")
            and (name := (a.value or "?").partition("=")[0]) not in known
        ]
        return checked(prog, unknown, read_only(prog, f"ruff {sub}"))
    return opaque(prog, f"{prog} {sub}: effects not known")


def _cargo(sub: str, rest: list[Word], env: Env) -> Outcome:
    if sub in ("new", "init"):
        valued = ("--vcs", "--name", "--edition", "--registry")
        named = [
            a
            for i, a in enumerate(rest)
            if (a.value is None or not a.value.startswith("-"))
            and (i == 0 or rest[i - 1].value not in valued)
        ]
        return writes("cargo", env.fx_many(W, named[:1] or [lit(".")], f"cargo {sub}"))
    if sub in ("build", "check", "clippy", "doc", "b", "c"):
        return opaque("cargo", f"cargo {sub} runs build scripts", [env.fx(W, "target", "cargo")])
    return opaque("cargo", f"cargo {sub}: runs project code")


_ED_WRITES = re.compile(r"^[\s\d,.$;+\-']*[wW]", re.MULTILINE)  # `w`, `1,$w out`, `wq`
# the ed commands known to print only: a line-number address and p/n/l/=, q, Q, h, H
_ED_NAMED = re.compile(r"[wW]q? ?([^\s]+)[ \t]*$", re.MULTILINE)
_ED_PRINTS = re.compile(r"[\d,.$;+\- ]*[pnl=]?|[qQhH]")
_ED = spec(
    "GlrsvE",
    "p",
    """extended-regexp traditional loose-exit-status prompt= restricted quiet silent verbose
    strip-trailing-cr""",
)


# options whose value is editor code, not a file to open
_EDITOR_COMMANDS = frozenset({"-c", "--cmd", "--eval", "-f", "--funcall", "-l", "--load"})


def editor(prog: str, args: list[Word], env: Env) -> Outcome:
    """vim -es, ex, ed, nano, emacs: they may write every file they open; ed with a literal
    script on stdin writes only when the script has a w command (or runs one with !)."""
    commands = {i + 1 for i, a in enumerate(args) if a.value in _EDITOR_COMMANDS}
    files = [
        a
        for i, a in enumerate(args)
        if i not in commands and (a.value is None or not a.value.startswith(("-", "+")))
    ]
    fx = env.fx_many(W, files, prog)
    if prog != "ed" and any(a.value is None or a.value[:1] in ("-", "+") for a in args):
        # `vim -es -c 'w x'`, `vim '+w y'`, `emacs --eval ..`: commands name their own files
        # (observed: x and y created, while "w x" was taken for a file name); attack round C
        fx.append(Fx(W, "", None, f"{prog} commands may write any file"))
    script = env.stdin
    if prog == "ed" and script is not None and "!" not in script:
        known = parse(args, _ED)
        if _ED_WRITES.search(script):
            return checked(prog, known.unknown, writes(prog, fx or [Fx(W, "", None, "ed w")]))
        if all(_ED_PRINTS.fullmatch(line.strip()) for line in script.split("\n")):
            return checked(prog, known.unknown, read_only(prog, "ed script that only prints"))
        # `/re/w f`, `g/re/w f`, `'aw f`: addresses this reading does not follow; any
        # `w NAME` / `W NAME` in them may be a write of NAME
        named = [m.group(1) for m in _ED_NAMED.finditer(script)]
        fx += env.fx_many(W, [lit(n) for n in named], "ed w file")
        return opaque(prog, "ed script with commands not known to only print", fx)
    return opaque(prog, f"{prog} may write the files it opens", fx)


_SCRIPT = spec(
    "aefqkEm",
    "cTBIO",
    """append command= echo= return flush force quiet log-in= log-out= log-io= log-timing=
    logging-format= timing[=] output-limit= help version""",
)


def script(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _SCRIPT)
    logs = [v for v in parsed.values("-B", "-I", "-O", "-T", "--log-in", "--log-out") if v]
    fx = env.fx_many(W, parsed.pos[:1] or [lit("typescript")], "script typescript file")
    fx += env.fx_many(W, logs, "script log file")
    command = parsed.last("-c", "--command")
    if command is None:
        return opaque(prog, "script runs an interactive shell", fx)
    return runs_code(prog, command.value, env, "script runs a command", fx)


_TIME = spec("apvqV", "fo", "append format= output= portability verbose quiet help version")


def time_(prog: str, args: list[Word], env: Env) -> Outcome:
    """GNU time: ``-o FILE`` (any abbreviation of --output) is written, the rest is run."""
    parsed = parse(args, _TIME, stop_at_positional=True)
    out = [v for v in parsed.values("-o", "--output") if v is not None]
    rest = parsed.rest
    inner = env.nested.dispatch(rest, env) if rest else read_only(prog, "time alone")
    return checked(prog, parsed.unknown, with_effects(env.fx_many(W, out, "time -o output"), inner))


def operand_writes(prog: str, args: list[Word], env: Env) -> Outcome:
    """mknod NAME, fallocate ... FILE: the file operand is created."""
    files = [a for a in args if a.value is None or not a.value.startswith("-")]
    target = files[-1:] if prog == "fallocate" else files[:1]
    return writes(prog, env.fx_many(W, target, f"{prog} creates"), "no file named")


HANDLERS = {
    **dict.fromkeys(("black", "isort", "autopep8", "prettier", "eslint", "gofmt"), formatter),
    **dict.fromkeys(("goimports", "rustfmt", "clang-format", "shfmt"), formatter),
    **dict.fromkeys(("ruff", "biome", "cargo"), formatter),
    **dict.fromkeys(("vim", "vi", "nvim", "ex", "ed", "nano", "emacs"), editor),
    "sqlite3": sqlite3,  # sqlite.py
    "script": script,
    "time": time_,
    "mknod": operand_writes,
    "fallocate": operand_writes,
}
