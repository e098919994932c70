"""coreutils-style programs that write, delete or change the files they are given."""

from __future__ import annotations

import shlex
from collections.abc import Callable

from orchestrator_boundary.bash.links import IN_FOLDER
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import Spec, long_name, parse, spec
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import (
    Env,
    Outcome,
    checked,
    read_only,
    runs_code,
    writes,
)
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.words import Word

W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE
_TARGET_DIR = frozenset({"--target-directory", "-t"})


_COPY_LIKE = {
    "cp": spec(
        "abdfHilLnPpRrsTuvxZcNX",
        "St",
        """archive attributes-only backup[=] copy-contents dereference force interactive link
        no-dereference no-clobber no-preserve= no-target-directory one-file-system parents
        preserve[=] recursive reflink[=] remove-destination sparse= strip-trailing-slashes
        suffix= symbolic-link target-directory= update[=] verbose context[=] debug
        keep-directory-symlink help version""",
    ),
    "mv": spec(
        "bfinTuvZ",
        "St",
        """backup[=] force interactive no-clobber no-copy strip-trailing-slashes suffix=
        target-directory= no-target-directory update[=] verbose context exchange debug help
        version""",
    ),
    "install": spec(
        "bcCdDpsTvZ",
        "gmoSt",
        """backup[=] compare directory group= mode= owner= preserve-timestamps strip
        strip-program= suffix= target-directory= no-target-directory verbose preserve-context
        context[=] debug help version""",
    ),
    "ln": spec(
        "bdFfiLnPrsTv",
        "St",
        """backup[=] directory force interactive logical no-dereference physical relative
        symbolic suffix= target-directory= no-target-directory verbose help version""",
    ),
}


def _copy_like(prog: str, args: list[Word], env: Env) -> Outcome:
    """cp, mv, install, ln: sources then destination (or -t DIR)."""
    parsed = parse(args, _COPY_LIKE[prog])
    return checked(prog, parsed.unknown, _copy_effects(prog, parsed, env))


def _copy_effects(prog: str, parsed: Parsed, env: Env) -> Outcome:
    if prog == "install" and parsed.has("-d", "--directory"):
        return writes(prog, env.fx_many(W, parsed.pos, "install -d directory"))
    target = parsed.last("-t", "--target-directory")
    sources = parsed.pos
    into = target is not None
    if target is None:
        if prog == "ln" and len(sources) == 1:
            name = (sources[0].literal or "").rstrip("/").rsplit("/", 1)[-1]
            target = Word(sources[0].text, name or None)
        elif len(sources) >= 2:
            target, sources = sources[-1], sources[:-1]
            into = len(sources) >= 2 or (target.literal or "").endswith("/")
        else:
            return read_only(prog, "no destination")
    kind = C if prog == "ln" else W
    source = f"{prog} destination"
    if into and not parsed.has("-T", "--no-target-directory", "--parents"):
        dests = [_inside(target, s) for s in sources]
    else:
        dests = [target]
    if prog == "ln" and len(sources) == 1:
        source = f"ln link to {_link_target(parsed, sources[0], dests[0], env) or '?'}"
        source += _link_in_folder(parsed, sources[0], dests[0], env, into)
    elif prog == "cp" and parsed.has("-s", "--symbolic-link", "-l", "--link"):
        # cp -s / -l makes links, not copies: a later write through them lands on the
        # sources (ADR 0049); with several sources, where each link points is not followed
        to = env.resolve(sources[0]) if len(sources) == 1 else None
        source = f"cp link to {to or '?'}"
    fx = env.fx_many(kind, dests, source)
    if parsed.has("-b", "--backup", "-S", "--suffix"):
        fx += env.fx_many(W, _backups(parsed, dests), f"{prog} backup")
    if prog == "mv":
        fx = env.fx_many(D, sources, "mv source") + fx
    return writes(prog, fx)


def _backups(parsed: Parsed, targets: list[Word]) -> list[Word]:
    """Where `-b`/`-S` moves a target that exists: the target's name with the suffix added
    (`cp -S .json x .claude/` moves `.claude/x` to `.claude/x.json`). Without a plain `-S`,
    the suffix is `$SIMPLE_BACKUP_SUFFIX` or `~`: a name the text does not fix."""
    given = parsed.last("-S", "--suffix")
    suffix = given.literal if given is not None else None
    out = []
    for t in targets:
        if suffix is not None and "/" not in suffix and suffix:
            value = t.value + suffix if t.value is not None else None
            out.append(Word(t.text + suffix, value, t.glob))
        else:
            out.append(Word(t.text + "${SIMPLE_BACKUP_SUFFIX}", None))
    return out


def _inside(folder: Word, source: Word) -> Word:
    """What copying ``source`` into the folder ``folder`` writes: the folder's entry of the
    source's name (`cp a b src/` writes `src/a` and `src/b`; a pattern keeps its pattern), or
    the folder itself when the name is not known or the contents may be copied."""
    where = folder.literal
    value = source.value or ""
    name = value.rsplit("/", 1)[-1]
    # `cp -R stuff/ dest/` copies the contents of stuff into dest on macOS (BSD cp): a source
    # spelled with a trailing slash, `.` or `..` may put any name there
    if where is None or name in ("", ".", ".."):
        return folder
    return Word(f"{folder.text.rstrip('/')}/{name}", f"{where.rstrip('/')}/{name}", source.glob)


def _link_target(parsed: Parsed, source: Word, link: Word, env: Env) -> str | None:
    """Where the link ``ln [-s] SOURCE LINK`` makes points: a symbolic link's text is read
    from the link's own folder, a hard link is the file itself."""
    value = source.literal
    if value is None:
        return None
    if not parsed.has("-s", "--symbolic") or value.startswith("/"):
        return env.resolve(source)
    if parsed.has("-r", "--relative"):  # the text is read where ln runs, then made relative
        return env.resolve(source)
    where = env.resolve(link)
    return resolve(value, where.rsplit("/", 1)[0] if where else None)


def _link_in_folder(parsed: Parsed, source: Word, link: Word, env: Env, into: bool) -> str:
    """``ln -s ../a.json src``: when ``src`` is a folder the link is ``src/a.json``, and its
    relative text is read from ``src``, not from the folder above as for a link named ``src``
    (observed: a later ``echo {} > src/a.json`` wrote ``a.json``): where it then points, for
    ``links`` (ADR 0077); "" when that is where the link named ``src`` points."""
    value = source.literal
    name = (value or "").rstrip("/").rsplit("/", 1)[-1]
    if into or value is None or name in ("", ".", "..") or link.literal is None:
        return ""
    inner = Word(f"{link.text.rstrip('/')}/{name}", f"{link.literal.rstrip('/')}/{name}")
    there = _link_target(parsed, source, inner, env)
    return "" if there == _link_target(parsed, source, link, env) else f"{IN_FOLDER}{there}"


def _operands(
    kind: EffectKind, known: Spec, label: str = "operand"
) -> Callable[[str, list[Word], Env], Outcome]:
    def handler(prog: str, args: list[Word], env: Env) -> Outcome:
        parsed = parse(args, known)
        skip = 1 if kind == C and parsed.has("--reference") else 0
        fx = env.fx_many(kind, parsed.pos[skip:], f"{prog} {label}")
        return checked(prog, parsed.unknown, writes(prog, fx))

    return handler


_RM = spec("fiIrRdv", "", "force interactive[=] one-file-system no-preserve-root preserve-root[=]"
           " recursive dir verbose help version")  # fmt: skip
_RMDIR = spec("pv", "", "ignore-fail-on-non-empty parents verbose help version")
_SHRED = spec("fuvxz", "ns", "force iterations= random-source= size= remove[=] verbose exact zero"
              " help version")  # fmt: skip
_MKDIR = spec("pvZ", "m", "mode= parents verbose context[=] help version")
_MKFIFO = spec("Z", "m", "mode= context[=] help version")
_TRUNCATE = spec("co", "rs", "no-create io-blocks reference= size= help version")


_CHMOD_LONG = spec(
    longs="""changes silent quiet verbose no-preserve-root preserve-root reference= recursive
    dereference no-dereference from= help version"""
)


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
    unknown: list[str] = []
    has_ref = False
    for arg in args:
        value = arg.value
        if value is not None and value.startswith("--") and len(value) > 2:
            name = long_name(value.partition("=")[0], _CHMOD_LONG)
            if name is None:
                unknown.append(value)
            has_ref = has_ref or name == "--reference"
        elif value is not None and value in known:
            continue
        elif value is None or not value.startswith("-") or value == "-":
            operands.append(arg)
        elif len(value) > 1 and set(value) <= mode_chars and not operands and prog == "chmod":
            operands.append(arg)  # a mode such as -x
    targets = operands if has_ref else operands[1:]
    return checked(prog, unknown, writes(prog, env.fx_many(C, targets, f"{prog} target")))


_TOUCH = spec("acfhm", "drt", "time= date= reference= no-create no-dereference help version")


def _touch(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _TOUCH)
    kind = C if parsed.has("-c", "--no-create") else W
    return checked(
        prog, parsed.unknown, writes(prog, env.fx_many(kind, parsed.pos, "touch target"))
    )


def _dd(prog: str, args: list[Word], env: Env) -> Outcome:
    # `of=$X`, `of=~user/x`: an unknown target, still a write
    targets = [
        Word(a.text, a.value[3:] if a.value is not None else None)
        for a in args
        if (a.value if a.value is not None else a.text).startswith("of=")
    ]
    return writes(prog, env.fx_many(W, targets, "dd of="))


_TEE = spec("aip", "", "append ignore-interrupts output-error[=] help version")


def _tee(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _TEE)
    fx = env.fx_many(W, [p for p in parsed.pos if p.value != "-"], "tee output")
    return checked(prog, parsed.unknown, writes(prog, fx))


_SORT = {
    "sort": spec(
        "bcCdfghiMmnRrsuVz",
        "koStTy",
        """ignore-leading-blanks dictionary-order ignore-case general-numeric-sort
        ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort
        random-source= reverse sort= version-sort batch-size= check[=] compress-program= debug
        files0-from= key= merge output= stable buffer-size= field-separator=
        temporary-directory= unique zero-terminated parallel= help version""",
    ),
    "shuf": spec(
        "erz",
        "inoR",
        """echo input-range= head-count= output= random-source= repeat zero-terminated help
        version""",
    ),
}


def _sort(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _SORT[prog])
    outputs = [v for v in parsed.values("-o", "--output") if v]
    fx = env.fx_many(W, outputs, f"{prog} -o output")
    if parsed.has("--compress-program"):
        # sort runs the program (by name, no arguments) on its temporary files; its output
        # file is written all the same (it was dropped: ADR 0077)
        named = [v.value if v else None for v in parsed.values("--compress-program")]
        code = None if None in named else "; ".join(shlex.quote(str(n)) for n in named)
        return runs_code(prog, code, env, f"{prog} --compress-program runs a program", fx)
    return checked(prog, parsed.unknown, writes(prog, fx))


_UNIQ = spec(
    "cdDiuz",
    "fsw",
    """count repeated all-repeated[=] skip-fields= ignore-case skip-chars= unique
    zero-terminated check-chars= group[=] help version""",
)


def _uniq(prog: str, args: list[Word], env: Env) -> Outcome:
    # `+N` is GNU uniq's obsolete `-s N` (outside POSIX mode, where it is a file): with one, the
    # output file is the operand after the input file in either reading
    skips = [a for a in args if (a.value or "")[1:].isdigit() and (a.value or "")[:1] == "+"]
    parsed = parse([a for a in args if a not in skips] if skips else args, _UNIQ)
    named = parsed.pos[1:2] + ([a for a in args if a in parsed.pos or a in skips][1:2])
    out = [o for o in dict.fromkeys(named) if o.value != "-"]
    return checked(prog, parsed.unknown, writes(prog, env.fx_many(W, out, "uniq output file")))


HANDLERS = {
    "cp": _copy_like,
    "mv": _copy_like,
    "install": _copy_like,
    "ln": _copy_like,
    "link": lambda prog, args, env: _copy_like("ln", args, env),  # `link A B` is `ln A B`
    "rm": _operands(D, _RM),
    "rmdir": _operands(D, _RMDIR),
    "unlink": _operands(D, spec(longs="help version")),
    "shred": _operands(W, _SHRED),
    "mkdir": _operands(W, _MKDIR, label="directory"),
    "mkfifo": _operands(W, _MKFIFO),
    "touch": _touch,
    "chmod": _chmod,
    "chown": _chmod,
    "chgrp": _chmod,
    "truncate": _operands(W, _TRUNCATE, label="target"),
    "dd": _dd,
    "tee": _tee,
    "sort": _sort,
    "shuf": _sort,
    "uniq": _uniq,
}
