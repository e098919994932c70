"""coreutils-style programs that write, delete or change the files they are given."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.opts import split
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, read_only, writes
from orchestrator_boundary.bash.words import Word

W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE
_TARGET_DIR = frozenset({"--target-directory", "-t"})


def _copy_like(prog: str, args: list[Word], env: Env) -> Outcome:
    """cp, mv, install, ln: sources then destination (or -t DIR)."""
    short = {"cp": "tS", "mv": "tS", "install": "tSgmo", "ln": "tS"}[prog]
    long_ = frozenset(
        {
            "--target-directory",
            "--suffix",
            "--backup",
            "--owner",
            "--group",
            "--mode",
            "--sparse",
            "--reflink",
        }
    )
    parsed = split(args, short, long_)
    if prog == "install" and parsed.has("-d", "--directory"):
        return writes(prog, env.fx_many(W, parsed.pos, "install -d directory"))
    target = parsed.last("-t", "--target-directory")
    sources = parsed.pos
    if target is None:
        if prog == "ln" and len(sources) == 1:
            name = (sources[0].literal or "").rstrip("/").rsplit("/", 1)[-1]
            target = Word(sources[0].text, name or None)
        elif len(sources) >= 2:
            target, sources = sources[-1], sources[:-1]
        else:
            return read_only(prog, "no destination")
    kind = C if prog == "ln" else W
    fx = env.fx_many(kind, [target], f"{prog} destination")
    if prog == "mv":
        fx = env.fx_many(D, sources, "mv source") + fx
    return writes(prog, fx)


def _operands(
    kind: EffectKind,
    short: str = "",
    long_: frozenset[str] = frozenset(),
    skip: int = 0,
    label: str = "operand",
) -> Callable[[str, list[Word], Env], Outcome]:
    def handler(prog: str, args: list[Word], env: Env) -> Outcome:
        parsed = split(args, short, long_)
        skip_n = 0 if kind == C and parsed.has("--reference") else skip
        return writes(prog, env.fx_many(kind, parsed.pos[skip_n:], f"{prog} {label}"))

    return handler


def _chmod(prog: str, args: list[Word], env: Env) -> Outcome:
    # chmod -x f: "-x" is a mode, not an option
    mode_chars = set("rwxXstugoa+-=,0123456789")
    known = {
        "-R",
        "-f",
        "-v",
        "-c",
        "-h",
        "-H",
        "-L",
        "-P",
        "--recursive",
        "--silent",
        "--quiet",
        "--verbose",
        "--changes",
        "--no-dereference",
        "--dereference",
    }
    operands: list[Word] = []
    has_ref = False
    for arg in args:
        value = arg.value
        if value is not None and value.startswith("--reference"):
            has_ref = True
        elif value is not None and value in known:
            continue
        elif value is None or not value.startswith("-") or value == "-":
            operands.append(arg)
        elif len(value) > 1 and set(value) <= mode_chars and not operands and prog == "chmod":
            operands.append(arg)  # a mode such as -x
    targets = operands if has_ref else operands[1:]
    return writes(prog, env.fx_many(C, targets, f"{prog} target"))


def _touch(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "drt", frozenset({"--date", "--reference", "--time"}))
    kind = C if parsed.has("-c", "--no-create") else W
    return writes(prog, env.fx_many(kind, parsed.pos, "touch target"))


def _dd(prog: str, args: list[Word], env: Env) -> Outcome:
    targets = [Word(a.text, a.value[3:]) for a in args if a.value and a.value.startswith("of=")]
    return writes(prog, env.fx_many(W, targets, "dd of="))


def _tee(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "", frozenset({"--output-error"}))
    return writes(prog, env.fx_many(W, [p for p in parsed.pos if p.value != "-"], "tee output"))


def _sort(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(
        args,
        "oktSTy",
        frozenset(
            {
                "--output",
                "--key",
                "--field-separator",
                "--buffer-size",
                "--temporary-directory",
                "--parallel",
                "--files0-from",
                "--sort",
            }
        ),
    )
    return writes(
        prog, env.fx_many(W, [v for v in parsed.values("-o", "--output") if v], f"{prog} -o output")
    )


def _uniq(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(
        args,
        "fsw",
        frozenset({"--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"}),
    )
    out = parsed.pos[1:2]
    return writes(prog, env.fx_many(W, [o for o in out if o.value != "-"], "uniq output file"))


def _split(prog: str, args: list[Word], env: Env) -> Outcome:
    short = "lbnCadf" if prog == "csplit" else "lbnCaet"
    parsed = split(
        args,
        short,
        frozenset(
            {
                "--lines",
                "--bytes",
                "--number",
                "--line-bytes",
                "--suffix-length",
                "--prefix",
                "--additional-suffix",
                "--suffix-format",
            }
        ),
    )
    if prog == "csplit":
        prefix = parsed.last("-f", "--prefix") or Word("xx", "xx")
    else:
        prefix = parsed.pos[1] if len(parsed.pos) > 1 else Word("x", "x")
    # the files are PREFIX + generated suffixes: no single path is known
    pattern = (prefix.value or prefix.text) + "*"
    return writes(prog, [Fx(W, pattern, None, f"{prog} output prefix")])


def _xxd(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "cglosn", frozenset())
    return writes(prog, env.fx_many(W, parsed.pos[1:2], "xxd output file"))


def _tree(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "oLPIH", frozenset({"--filelimit", "--charset", "--timefmt"}))
    return writes(prog, env.fx_many(W, [v for v in parsed.values("-o") if v], "tree -o output"))


def _mktemp(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "pt", frozenset({"--tmpdir", "--suffix"}))
    if parsed.has("-u", "--dry-run"):
        return read_only(prog, "mktemp -u only prints a name")
    # the directory comes from $TMPDIR or -p: not knowable by string math
    return writes(prog, [Fx(W, "", None, "mktemp creates a temporary file")])


HANDLERS = {
    "cp": _copy_like,
    "mv": _copy_like,
    "install": _copy_like,
    "ln": _copy_like,
    "rm": _operands(D, label="operand"),
    "rmdir": _operands(D, label="operand"),
    "unlink": _operands(D, label="operand"),
    "shred": _operands(W, "nsz", frozenset({"--iterations", "--size", "--random-source"})),
    "mkdir": _operands(W, "m", frozenset({"--mode", "--context"}), label="directory"),
    "mkfifo": _operands(W, "m", frozenset({"--mode"})),
    "touch": _touch,
    "chmod": _chmod,
    "chown": _chmod,
    "chgrp": _chmod,
    "truncate": _operands(W, "sr", frozenset({"--size", "--reference"}), label="target"),
    "dd": _dd,
    "tee": _tee,
    "sort": _sort,
    "shuf": _sort,
    "uniq": _uniq,
    "split": _split,
    "csplit": _split,
    "xxd": _xxd,
    "tree": _tree,
    "mktemp": _mktemp,
}
