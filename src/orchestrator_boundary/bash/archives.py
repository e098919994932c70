"""Archivers and compressors."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.opts import Parsed
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
from orchestrator_boundary.bash.words import Word, lit

W, D = EffectKind.WRITE, EffectKind.DELETE
_SUFFIX = {
    "gzip": ".gz",
    "bzip2": ".bz2",
    "xz": ".xz",
    "lzma": ".lzma",
    "zstd": ".zst",
    "lz4": ".lz4",
    "compress": ".Z",
}
_UNPACK = {
    "gunzip": "gzip",
    "bunzip2": "bzip2",
    "unxz": "xz",
    "unlzma": "lzma",
    "unzstd": "zstd",
    "uncompress": "compress",
}


_TAR = spec(
    "AcdrtuxjzJaZvkmopOPSWhiBGMUwnlR",
    "fCTXbHKNgLVFI",
    """create extract get list diff compare append update concatenate catenate delete
    test-label verbose gzip gunzip ungzip bzip2 xz lzma lzip lzop zstd auto-compress compress
    uncompress keep-old-files keep-newer-files skip-old-files overwrite overwrite-dir
    unlink-first recursive-unlink remove-files to-stdout preserve-permissions
    same-permissions no-same-owner same-owner no-same-permissions preserve-order same-order
    numeric-owner absolute-names dereference hard-dereference sparse verify ignore-zeros
    ignore-failed-read no-recursion recursion wildcards no-wildcards anchored no-anchored
    ignore-case no-ignore-case totals[=] show-transformed-names show-stored-names check-links
    no-overwrite-dir touch multi-volume one-file-system exclude-vcs exclude-vcs-ignores
    exclude-backups exclude-caches exclude-caches-all exclude-caches-under null no-null
    unquote no-unquote full-time utc checkpoint[=] force-local interactive confirmation seek
    no-seek warning= posix read-full-records block-number delay-directory-restore
    no-delay-directory-restore acls no-acls selinux no-selinux xattrs no-xattrs
    blocking-factor= file= directory= files-from= exclude-from= exclude= format= transform=
    xform= owner= group= mode= mtime= newer= after-date= newer-mtime= strip-components=
    label= tape-length= record-size= exclude-tag= exclude-tag-all= exclude-tag-under= sort=
    occurrence[=] quoting-style= quote-chars= no-quote-chars= backup[=] suffix= level=
    listed-incremental= incremental atime-preserve[=] index-file= hole-detection=
    sparse-version= owner-map= group-map= clamp-mtime pax-option= help usage version
    show-defaults use-compress-program= checkpoint-action= to-command= info-script=
    new-volume-script= rsh-command= rmt-command=""",
)
# options whose value is a command tar runs
_TAR_RUNS = ("-I", "-F", "--use-compress-program", "--to-command", "--info-script")
_TAR_RUNS_MORE = ("--new-volume-script", "--rsh-command", "--rmt-command")


def _tar_old_style(args: list[Word]) -> list[Word]:
    """`tar czf out.tgz dir`: the letters are options; valued ones take the next words."""
    letters = args[0].value or ""
    out: list[Word] = []
    rest = args[1:]
    for letter in letters:
        out.append(lit("-" + letter))
        if letter in _TAR.valued and rest:
            out.append(rest[0])
            rest = rest[1:]
    return out + rest


def _tar(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and args[0].value and not args[0].value.startswith("-"):
        args = _tar_old_style(args)
    parsed = parse(args, _TAR)
    outcome = _tar_effects(prog, parsed, env)
    commands = [v for v in parsed.values(*_TAR_RUNS, *_TAR_RUNS_MORE)]
    for action in parsed.values("--checkpoint-action"):
        text = "exec" if action is None or action.value is None else action.value
        if "exec" in text:
            commands.append(lit(text.partition("exec=")[2]) if action and action.value else None)
    if commands:
        code = "; ".join(c.value for c in commands if c is not None and c.value is not None)
        literal = all(c is not None and c.value is not None for c in commands)
        return runs_code(prog, code if literal else None, env, "tar runs a command", outcome.fx)
    if _remote(parsed):
        return opaque(prog, "tar runs rsh (ssh) for a host: archive", list(outcome.fx))
    return checked(prog, parsed.unknown, outcome)


def _remote(parsed: Parsed) -> bool:
    """An archive GNU tar opens on another host through ``rsh`` (``/usr/bin/rsh``, often ssh,
    which reads ~/.ssh/config's ProxyCommand): a name with a ``:`` after its first character
    and no ``/`` before it (tar's ``_remdev``), or a name the text does not fix (ADR 0077)."""
    if parsed.has("--force-local"):
        return False
    for word in parsed.values("-f", "--file"):
        name = word.value if word is not None else None
        if name is None:
            return True
        colon = name.find(":")
        if colon > 0 and "/" not in name[:colon]:
            return True
    return False


def _tar_effects(prog: str, parsed: Parsed, env: Env) -> Outcome:
    archive = parsed.last("-f", "--file")
    into = parsed.last("-C", "--directory")
    fx = env.fx_many(W, [v for v in parsed.values("--index-file", "-g") if v], "tar log file")
    fx += env.fx_many(W, [v for v in parsed.values("--listed-incremental") if v], "tar snapshot")
    if parsed.has("-t", "--list", "-d", "--diff", "--compare", "--test-label"):
        return writes(prog, fx, "tar list / compare")
    if parsed.has("-x", "--extract", "--get"):
        if parsed.has("-O", "--to-stdout"):
            return writes(prog, fx, "tar extracts to stdout")
        base = into if into is not None else lit(".")
        return writes(prog, fx + env.fx_many(W, [base], "tar extract directory"))
    if parsed.has(
        "-c", "--create", "-r", "--append", "-u", "--update", "-A", "--concatenate", "--delete"
    ):
        if archive is not None and archive.value != "-":
            fx += env.fx_many(W, [archive], "tar archive")
        if parsed.has("--remove-files"):
            fx += env.fx_many(D, parsed.pos, "tar --remove-files")
        return writes(prog, fx, "" if fx else "tar writes the archive to stdout")
    return writes(prog, fx, "tar without a mode")


_UNZIP = spec("lvtTzZpcfuonjCXKaqbMLVsUW2", "dxP")


def _unzip(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _UNZIP)
    if parsed.has("-l", "-t", "-v", "-Z", "-p", "-c", "-z"):
        return checked(prog, parsed.unknown, read_only(prog, "unzip list / test / to stdout"))
    base = parsed.last("-d") or lit(".")
    fx = env.fx_many(W, [base], "unzip destination directory")
    return checked(prog, parsed.unknown, writes(prog, fx))


_COMPRESS = spec(
    "cdfhklLnNqrtvVzk0123456789FTeHQmMUgD",
    "bSTo",
    """stdout to-stdout decompress uncompress force help keep list license no-name name quiet
    recursive suffix= test verbose version fast best rsyncable synchronous rm threads=
    output= format= memlimit= no-sparse sparse ultra long[=] adapt[=] no-check check=
    single-stream no-progress progress extreme block-size= small no-adjust""",
)


def _compress(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _COMPRESS)
    if parsed.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"):
        return checked(prog, parsed.unknown, read_only(prog, f"{prog} to stdout / list / test"))
    family = _UNPACK.get(prog, prog)
    unpack = prog in _UNPACK or parsed.has("-d", "--decompress", "--uncompress")
    keep = parsed.has("-k", "--keep") or (family == "zstd" and not parsed.has("--rm"))
    suffix = _SUFFIX.get(family, "")
    fx: list[Fx] = []
    for operand in parsed.pos:
        value = operand.literal
        if value is None or value == "-":
            fx.append(env.fx(W, operand, f"{prog} output"))
            continue
        if unpack:
            out = value[: -len(suffix)] if suffix and value.endswith(suffix) else None
        else:
            out = value + suffix
        fx.append(env.fx(W, lit(out) if out else None, f"{prog} output"))
        if not keep:
            fx.append(env.fx(D, operand, f"{prog} replaces its input"))
    outputs = [v for v in parsed.values("-o", "--output") if v]
    fx += env.fx_many(W, outputs, f"{prog} -o output")
    return checked(prog, parsed.unknown, writes(prog, fx))


HANDLERS = {
    "tar": _tar,
    "unzip": _unzip,
    **{
        name: _compress
        for name in (
            "gzip",
            "gunzip",
            "bzip2",
            "bunzip2",
            "xz",
            "unxz",
            "lzma",
            "unlzma",
            "zstd",
            "unzstd",
            "lz4",
            "compress",
            "uncompress",
        )
    },
}
