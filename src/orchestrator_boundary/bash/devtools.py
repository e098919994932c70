"""Developer tools with documented write flags: formatters, compilers, generators, editors.

A formatter writes its operands (or the current folder) unless a check-only flag is given;
compilers and generators write their ``-o``/``-out``/``-d`` targets. An option a tool's table
does not know makes the command opaque (the effects found are kept) (ADR 0021).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from orchestrator_boundary.bash.model import EffectKind
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
from orchestrator_boundary.bash.words import Word, lit

W, D = EffectKind.WRITE, EffectKind.DELETE


@dataclass(frozen=True, slots=True)
class Formatter:
    writes_by_default: bool  # black, rustfmt: rewrite files unless told to check
    write: frozenset[str]  # flags that make it rewrite files (prettier --write, gofmt -w)
    check: frozenset[str]  # flags that make it only report (black --check)
    valued: frozenset[str] = frozenset()  # options that take the next word as a value
    harmless: frozenset[str] = frozenset()  # other options known to change no file
    folder_default: bool = True  # with no operand it formats the current folder


def _f(default: bool, write: str, check: str, valued: str = "", harmless: str = "") -> Formatter:
    return Formatter(
        default,
        frozenset(write.split()),
        frozenset(check.split()),
        frozenset(valued.split()),
        frozenset(harmless.split()),
    )


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
        f"{_COMMON} --no-cache --isolated --preview --no-preview --force-exclude",
    ),
    "ruff check": _f(
        False,
        "--fix --unsafe-fixes --add-noqa",
        "--no-fix --diff",
        "--select --ignore --extend-select --config --target-version --output-format",
        f"{_COMMON} --statistics --show-fixes --no-cache --exit-zero --isolated --preview",
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
        f"{_COMMON} --single-quote --no-semi",
    ),
    "eslint": _f(False, "--fix --fix-dry-run", "", "--ext -c --config --format -f", _COMMON),
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


def _format(name: str, args: list[Word], env: Env) -> Outcome:
    spec = FORMATTERS[name]
    operands: list[Word] = []
    flags: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or not value.startswith("-") or value == "-":
            operands.append(args[i])
        else:
            flag = value.partition("=")[0]
            flags.append(flag)
            if flag in spec.valued and "=" not in value:
                i += 1
            elif flag not in spec.write | spec.check | spec.valued | spec.harmless:
                unknown.append(flag)
        i += 1
    program = name.split()[0]
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
    rest = args[[a.value for a in args].index(sub) + 1 :] if sub else []
    if f"{prog} {sub}" in FORMATTERS:
        return _format(f"{prog} {sub}", rest, env)
    if prog == "cargo":
        return _cargo(sub, rest, env)
    if prog == "ruff" and sub in ("version", "rule", "config", "linter"):
        return read_only(prog, f"ruff {sub}")
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


def _value(args: list[Word], *names: str) -> list[Word]:
    """Values of ``-o FILE`` / ``-oFILE`` / ``--output=FILE`` style options in ``names``."""
    found: list[Word] = []
    for i, arg in enumerate(args):
        value = arg.value or ""
        for name in names:
            if value == name and i + 1 < len(args):
                found.append(args[i + 1])
            elif name.startswith("--") and value.startswith(name + "="):
                found.append(lit(value[len(name) + 1 :]))
            elif len(name) == 2 and value.startswith(name) and len(value) > 2 and value[1] != "-":
                found.append(lit(value[2:]))
    return found


def compiler(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if any(v is None for v in values):
        return opaque(prog, "an argument is not a literal")
    outputs = _value(args, "-o", "-MF")
    if outputs:
        return writes(prog, env.fx_many(W, outputs, f"{prog} -o output"))
    if any(
        v in ("-fsyntax-only", "-E", "-M", "-MM", "-v", "--version", "-dumpversion") for v in values
    ):
        return read_only(prog, f"{prog} writes no file")
    sources = [a for a in args if not (a.value or "-").startswith("-")]
    if "-c" in values or "-S" in values:
        suffix = ".s" if "-S" in values else ".o"
        objects = [
            lit((a.value or "").rsplit("/", 1)[-1].rsplit(".", 1)[0] + suffix) for a in sources
        ]
        return writes(prog, env.fx_many(W, objects, f"{prog} object file"))
    return writes(prog, [env.fx(W, "a.out", f"{prog} executable")])


def javac(prog: str, args: list[Word], env: Env) -> Outcome:
    into = _value(args, "-d", "-s", "-h")
    if into:
        return writes(prog, env.fx_many(W, into, "javac output folder"))
    classes = [
        lit((a.value or "")[:-5] + ".class") for a in args if (a.value or "").endswith(".java")
    ]
    return writes(prog, env.fx_many(W, classes, "javac class file"), "nothing compiled")


def tsc(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if "--noEmit" in values or any(
        v in ("--help", "--version", "-v", "--showConfig") for v in values
    ):
        return read_only(prog, "tsc --noEmit")
    out = _value(args, "--outDir", "--outFile", "--declarationDir")
    return writes(prog, env.fx_many(W, out, "tsc output") or [Fx(W, "", None, "tsc emits files")])


def openssl(prog: str, args: list[Word], env: Env) -> Outcome:
    out = _value(args, "-out", "-keyout", "-writerand", "-signature")
    return writes(prog, env.fx_many(W, out, f"{prog} output file"), "output to stdout")


def ssh_keygen(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value or "" for a in args]
    flags = "".join(v[1:] for v in values if v.startswith("-") and not v.startswith("--"))
    if set(flags) & set("lyFBLeiQ") and not set(flags) & set("HRpctA"):
        return read_only(prog, "ssh-keygen reads a key")
    files = _value(args, "-f")
    if not files:
        return writes(prog, [Fx(W, "~/.ssh", env.resolve(lit("~/.ssh")), "ssh-keygen key file")])
    pub = [lit((f.value or "") + ".pub") for f in files if f.value]
    return writes(prog, env.fx_many(W, files + pub, "ssh-keygen key file"))


def output_option(prog: str, args: list[Word], env: Env) -> Outcome:
    """iconv -o, sdiff -o: standard output unless an output file is named."""
    out = _value(args, "-o", "--output")
    return writes(prog, env.fx_many(W, out, f"{prog} -o output"), "output to stdout")


def ar(prog: str, args: list[Word], env: Env) -> Outcome:
    if not args or args[0].value is None:
        return opaque(prog, "ar mode is not a literal")
    mode = args[0].value.lstrip("-")
    operands = args[1:]
    if set(mode) & set("dmqrs") and operands:
        return writes(prog, env.fx_many(W, operands[:1], "ar archive"))
    if "x" in mode:
        return writes(prog, env.fx_many(W, operands[1:] or [lit(".")], "ar extracted member"))
    return read_only(prog, "ar lists or prints members")


_CMAKE_WRITES = {
    "touch": W, "touch_nocreate": W, "copy": W, "copy_if_different": W, "copy_directory": W,
    "make_directory": W, "remove": D, "remove_directory": D, "rm": D, "rename": W,
    "create_symlink": W, "create_hardlink": W, "tar": W, "true": W,
}  # fmt: skip
_CMAKE_READS = frozenset({"echo", "echo_append", "cat", "md5sum", "sha256sum", "capabilities"})


def cmake(prog: str, args: list[Word], env: Env) -> Outcome:
    if not args or args[0].value != "-E" or len(args) < 2:
        return opaque(prog, "cmake configures or builds: runs project code")
    sub = args[1].value or ""
    operands = [a for a in args[2:] if not (a.value or "-").startswith("-")]
    if sub in _CMAKE_READS:
        return read_only(prog, f"cmake -E {sub}")
    if sub not in _CMAKE_WRITES or sub == "true":
        return opaque(prog, f"cmake -E {sub}")
    kind = _CMAKE_WRITES[sub]
    if sub in (
        "copy",
        "copy_if_different",
        "copy_directory",
        "rename",
        "create_symlink",
        "create_hardlink",
    ):
        operands = operands[-1:]
    return writes(prog, env.fx_many(kind, operands, f"cmake -E {sub}"))


_ED_WRITES = re.compile(r"^[\s\d,.$;+\-']*[wW]", re.MULTILINE)  # `w`, `1,$w out`, `wq`


def editor(prog: str, args: list[Word], env: Env) -> Outcome:
    """vim -es, ex, ed, nano, emacs: they may write every file they open; ed with a literal
    script on stdin writes only when the script has a w command (or runs one with !)."""
    files = [a for a in args if a.value is None or not a.value.startswith(("-", "+"))]
    fx = env.fx_many(W, files, prog)
    script = env.stdin
    if prog == "ed" and script is not None and "!" not in script:
        if not _ED_WRITES.search(script):
            return read_only(prog, "ed script without a w command")
        return writes(prog, fx or [Fx(W, "", None, "ed w")])
    return opaque(prog, f"{prog} may write the files it opens", fx)


_SQL_READS = ("select", "explain", "with", ".tables", ".schema", ".indexes", ".headers", ".mode")


def sqlite3(prog: str, args: list[Word], env: Env) -> Outcome:
    operands = [a for a in args if a.value is None or not a.value.startswith("-")]
    if not operands:
        return read_only(prog, "in-memory database")
    db = env.fx_many(W, operands[:1], "sqlite3 database")
    sql = [a.value for a in operands[1:]]
    if not sql or any(s is None for s in sql):
        return opaque(prog, "sqlite3 reads statements it cannot see", db)
    statements = [s.strip().lower() for text in sql for s in (text or "").split(";") if s.strip()]
    if statements and all(s.startswith(_SQL_READS) for s in statements):
        return read_only(prog, "sqlite3 queries only")
    return writes(prog, db)


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


def time_(prog: str, args: list[Word], env: Env) -> Outcome:
    out = _value(args, "-o", "--output")
    rest = list(args)
    while rest and (rest[0].value or "").startswith("-"):
        rest = rest[2:] if rest[0].value in ("-o", "-f", "--output", "--format") else rest[1:]
    inner = env.nested.dispatch(rest, env) if rest else read_only(prog, "time alone")
    return with_effects(env.fx_many(W, out, "time -o output"), inner)


def operand_writes(prog: str, args: list[Word], env: Env) -> Outcome:
    """mknod NAME, fallocate ... FILE: the file operand is created."""
    files = [a for a in args if a.value is None or not a.value.startswith("-")]
    target = files[-1:] if prog == "fallocate" else files[:1]
    return writes(prog, env.fx_many(W, target, f"{prog} creates"), "no file named")


HANDLERS = {
    **dict.fromkeys(("black", "isort", "autopep8", "prettier", "eslint", "gofmt"), formatter),
    **dict.fromkeys(("goimports", "rustfmt", "clang-format", "shfmt"), formatter),
    **dict.fromkeys(("ruff", "biome", "cargo"), formatter),
    **dict.fromkeys(("gcc", "cc", "clang", "g++", "c++", "clang++"), compiler),
    "javac": javac,
    "tsc": tsc,
    "openssl": openssl,
    "ssh-keygen": ssh_keygen,
    "iconv": output_option,
    "sdiff": output_option,
    "ar": ar,
    "cmake": cmake,
    **dict.fromkeys(("vim", "vi", "nvim", "ex", "ed", "nano", "emacs"), editor),
    "sqlite3": sqlite3,
    "script": script,
    "time": time_,
    "mknod": operand_writes,
    "fallocate": operand_writes,
}
