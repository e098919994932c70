"""Programs that write files they derive or are told to make: split, csplit, xxd, tree, mktemp.

Read with the option model (issue 12, point 1): an option not known makes them ``opaque``.
"""

from __future__ import annotations

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
    writes,
)
from orchestrator_boundary.bash.words import Word

W = EffectKind.WRITE

_SPLIT = spec(
    "dxeuv0123456789",
    "lbCnat",
    """lines= bytes= line-bytes= number= suffix-length= additional-suffix= numeric-suffixes[=]
    hex-suffixes[=] elide-empty-files unbuffered verbose separator= filter= help version""",
)
_CSPLIT = spec(
    "kszq",
    "bfn",
    """suffix-format= prefix= keep-files suppress-matched digits= quiet silent elide-empty-files
    help version""",
)


def _split(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _CSPLIT if prog == "csplit" else _SPLIT)
    command = parsed.last("--filter")
    if command is not None:  # split --filter=CMD: each piece goes to a shell command
        return checked(prog, parsed.unknown, runs_code(prog, command.value, env, "split --filter"))
    if prog == "csplit":
        prefix = parsed.last("-f", "--prefix") or Word("xx", "xx")
    else:
        prefix = parsed.pos[1] if len(parsed.pos) > 1 else Word("x", "x")
    # the files are PREFIX + generated suffixes: no single path is known
    pattern = (prefix.value or prefix.text) + "*"
    return checked(prog, parsed.unknown, writes(prog, [Fx(W, pattern, None, f"{prog} output")]))


# xxd tells its options apart by their first letter (`-c8`, `-cols 8`, `-ps`, `-postscript`)
_XXD_FLAGS = frozenset("abCEehiprudv")
_XXD_VALUED = frozenset("cglosnR")
# xxd reads `-cNUM` as attached, `-c NUM` and `-cols NUM` from the next word (xxd.c)
_XXD_LONG = {"c": "ols", "g": "roupsize", "l": "en", "o": "ffset", "s": "eek", "n": "ame"}


def _xxd(prog: str, args: list[Word], env: Env) -> Outcome:
    operands: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-") or value == "--":
            operands += args[i + 1 :] if value == "--" else [args[i]]
            if value == "--":
                break
        elif value.startswith("-capitalize") or value[1] in _XXD_FLAGS:
            pass
        elif value[1] in _XXD_VALUED:
            # `-l8`, `-l+100` carry their value; `-len 8`, `-cols 8` take the next word
            spelled = _XXD_LONG.get(value[1], "\0")
            i += 1 if len(value) == 2 or value[2:].startswith(spelled) else 0
        else:
            return opaque(prog, f"xxd: option {value} is not known")
        i += 1
    return writes(prog, env.fx_many(W, operands[1:2], "xxd output file"), "xxd to stdout")


_TREE = spec(
    "adlfxRqNQpugshDFvtcUrnCXJSiA",
    "LPIoHTK",
    """gitignore gitfile= ignore-case matchdirs metafirst prune info infofile= noreport charset=
    filelimit= timefmt= si du inodes device dirsfirst filesfirst sort= nolinks hintro= houtro=
    fromfile fromtabfile fflinks condense help version""",
)


def _tree(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _TREE)
    fx = env.fx_many(W, [v for v in parsed.values("-o") if v], "tree -o output")
    if parsed.has("-R") and parsed.has("-H"):  # an 00Tree.html in every folder it lists
        fx += env.fx_many(W, parsed.pos or [Word(".", ".")], "tree -R -H pages")
    return checked(prog, parsed.unknown, writes(prog, fx, "tree prints to stdout"))


_MKTEMP = spec("dqut", "p", "directory dry-run quiet suffix= tmpdir[=] help version")


def _mktemp(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _MKTEMP)
    if parsed.has("-u", "--dry-run"):
        return checked(prog, parsed.unknown, read_only(prog, "mktemp -u only prints a name"))
    # the directory comes from $TMPDIR or -p: not knowable by string math
    return checked(
        prog, parsed.unknown, writes(prog, [Fx(W, "", None, "mktemp creates a temporary file")])
    )


_SPONGE = spec("a", "")


def _sponge(prog: str, args: list[Word], env: Env) -> Outcome:
    """moreutils' sponge [-a] FILE soaks up its input, then writes (or appends to) FILE; with no
    FILE it writes to its output (observed: `sort f | sponge f` rewrote f; attack round C)."""
    parsed = parse(args, _SPONGE)
    fx = [env.fx(W, arg, "sponge file") for arg in parsed.pos[:1]]
    return checked(prog, parsed.unknown, writes(prog, fx, "writes its input to its output"))


HANDLERS = {
    "split": _split,
    "csplit": _split,
    "xxd": _xxd,
    "tree": _tree,
    "mktemp": _mktemp,
    "sponge": _sponge,
}
