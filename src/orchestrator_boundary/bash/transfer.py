"""rsync, scp, patch and zip, read with the option model (issue 12, point 1).

An option these tables do not hold makes the command ``opaque``. What writes: rsync and scp the
destination (and rsync's log and batch files), patch the files it patches, zip the archive.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import long_name, parse, spec
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

W, D = EffectKind.WRITE, EffectKind.DELETE

# rsync 3.2 (popt; a long option's unambiguous prefix is read as the option, erring to a write)
_RSYNC = spec(
    "vqcarRbulLkKHpEAXogDtOJUNSnWxCyIPzFhi0s468mdV",
    "BeTfM",
    """verbose info= debug= stderr= msgs2stderr quiet no-motd checksum archive recursive relative
    no-implied-dirs backup backup-dir= suffix= update inplace append append-verify dirs old-dirs
    mkpath links copy-links copy-unsafe-links safe-links munge-links copy-dirlinks keep-dirlinks
    hard-links perms executability chmod= acls xattrs owner group devices copy-devices
    write-devices specials times atimes open-noatime crtimes omit-dir-times omit-link-times
    super fake-super sparse preallocate dry-run whole-file checksum-choice= one-file-system
    block-size= rsh= rsync-path= existing ignore-existing remove-source-files del delete
    delete-before delete-during delete-delay delete-after delete-excluded ignore-missing-args
    delete-missing-args ignore-errors force max-delete= max-size= min-size= max-alloc= partial
    partial-dir= delay-updates prune-empty-dirs numeric-ids usermap= groupmap= chown= timeout=
    contimeout= ignore-times size-only modify-window= temp-dir= fuzzy compare-dest= copy-dest=
    link-dest= compress compress-choice= compress-level= skip-compress= cvs-exclude filter=
    exclude= exclude-from= include= include-from= files-from= from0 old-args secluded-args
    protect-args trust-sender copy-as= address= port= sockopts= blocking-io outbuf= stats
    8-bit-output human-readable progress itemize-changes remote-option= out-format= log-file=
    log-file-format= password-file= early-input= list-only bwlimit= stop-after= stop-at= fsync
    write-batch= only-write-batch= read-batch= protocol= iconv= ipv4 ipv6 version help daemon
    config= dparam= no-detach""",
)
_RSYNC_FILES = ("--log-file", "--write-batch", "--only-write-batch")


def _remote(word: Word) -> bool:
    """``host:path``, ``user@host:path``, ``host::module``, ``rsync://``: not a local path."""
    value = word.value
    if value is None:
        return False
    head = value.split("/", 1)[0]
    return ":" in head and not (len(head) >= 2 and head[1] == ":" and head[0].isalpha())


def _rsync(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _RSYNC)
    if parsed.has("--daemon", "--config", "--dparam"):
        return opaque(prog, "rsync --daemon serves what its configuration says")
    fx = env.fx_many(EffectKind.WRITE, [v for v in parsed.values(*_RSYNC_FILES) if v], "rsync log")
    remote = any(_remote(w) for w in parsed.pos)
    shell = parsed.last("-e", "--rsh")
    if remote and (shell is not None or parsed.has("--rsync-path")):
        code = shell.value if shell is not None and not parsed.has("--rsync-path") else None
        outcome = runs_code(prog, code, env, "rsync -e runs a remote shell program", fx)
        return checked(prog, parsed.unknown, outcome)
    dry = parsed.has("-n", "--dry-run", "--list-only") or len(parsed.pos) < 2
    if dry or parsed.has("--only-write-batch"):
        return checked(prog, parsed.unknown, writes(prog, fx, f"{prog} dry run / listing"))
    dest = parsed.pos[-1]
    if _remote(dest):
        fx.append(Fx(W, dest.text, None, f"{prog} remote destination"))
    else:
        fx += env.fx_many(W, [dest], f"{prog} destination")
    backups = parsed.last("--backup-dir")  # relative to the destination folder
    if backups is not None and parsed.has("-b", "--backup") and not _remote(dest):
        folder = env.resolve(dest) if (dest.value or "").endswith("/") else None
        fx += env.at(folder).fx_many(W, [backups], f"{prog} --backup-dir")
    if any(name.startswith("--del") for name, _ in parsed.opts) and not _remote(dest):
        fx += env.fx_many(D, [dest], f"{prog} --delete in destination")
    if parsed.has("--remove-source-files"):
        fx += env.fx_many(D, parsed.pos[:-1], f"{prog} --remove-source-files")
    return checked(prog, parsed.unknown, writes(prog, fx))


# OpenSSH scp 9
_SCP = spec("346ABCOpqRrsTv", "cDFiJloPSX")
# `scp -o KEY=VALUE` settings that run nothing (ProxyCommand, LocalCommand, ... do)
_SSH_TEXT = """stricthostkeychecking userknownhostsfile connecttimeout batchmode port user
    identityfile
    identitiesonly loglevel compression serveraliveinterval serveralivecountmax
    passwordauthentication pubkeyauthentication preferredauthentications"""
_SSH_SETTINGS = frozenset(_SSH_TEXT.split())


def _scp(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _SCP)
    settings = [
        v.value.partition("=")[0].strip().lower() if v and v.value else ""
        for v in parsed.values("-o")
    ]
    if parsed.has("-S", "-F", "-J") or not set(settings) <= _SSH_SETTINGS:
        # a program, an ssh configuration or setting that may run one (ProxyCommand), a jump
        return opaque(prog, "scp -S / -F / -o / -J may run a program")
    if len(parsed.pos) < 2:
        return checked(prog, parsed.unknown, read_only(prog, "scp without a destination"))
    dest = parsed.pos[-1]
    if _remote(dest):
        fx = [Fx(W, dest.text, None, f"{prog} remote destination")]
    else:
        fx = env.fx_many(W, [dest], f"{prog} destination")
    return checked(prog, parsed.unknown, writes(prog, fx))


# GNU patch 2.7 (and BSD patch's -C/--check, a dry run)
_PATCH = spec(
    "bcCeEflnNRstuvZ",
    "BdDFgioprVxYz",
    """backup prefix= backup-if-mismatch no-backup-if-mismatch context directory= ifdef= dry-run
    ed remove-empty-files force fuzz= get= help input= ignore-whitespace merge[=] normal forward
    output= strip= posix quoting-style= reject-file= read-only= reverse quiet silent batch
    set-time unified version version-control= verbose debug= basename-prefix= suffix= set-utc
    follow-symlinks reject-format= binary check""",
)


def _patch(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _PATCH)
    gets = [v.value for v in parsed.values("-g", "--get") if v is not None]
    if (
        parsed.has("-e", "--ed")
        or any(g != "0" for g in gets)
        or len(gets) < len(parsed.values("-g", "--get"))
    ):
        return checked(prog, parsed.unknown, opaque(prog, "patch runs ed or a version control"))
    out = parsed.last("-o", "--output")
    if parsed.has("--dry-run", "-C", "--check"):
        # a dry run still writes its -o file (observed, ADR 0049)
        named = env.fx_many(W, [out], "patch -o output") if out is not None else []
        return checked(prog, parsed.unknown, writes(prog, named, "patch dry run"))
    into = parsed.last("-d", "--directory")
    here = env.at(env.resolve(into)) if into is not None else env
    fx = here.fx_many(W, [v for v in parsed.values("-r", "--reject-file") if v], "patch rejects")
    if out is not None:
        fx += here.fx_many(W, [out], "patch -o output")
    elif parsed.pos:
        fx += here.fx_many(W, parsed.pos[:1], "patch target file")
    else:  # the files named inside the patch, anywhere below here: the folder, as `git
        # apply` and `tar -x` name it (not "somewhere", which a subagent's scope does not
        # check: `patch -p0 < x.diff` could rewrite .claude/settings.json, ADR 0070)
        fx.append(here.fx(W, ".", "patch: files named in the patch"))
    return checked(prog, parsed.unknown, writes(prog, fx))


HANDLERS = {"rsync": _rsync, "scp": _scp, "patch": _patch}


# Info-ZIP zip 3.0: one-letter options cluster (`-rq`); two-letter ones (`-sf`, `-TT`) stand
# alone. `-i` and `-x` take every following word up to the next option as a pattern.
_ZIP_FLAGS = frozenset("0123456789qrRjDXyufFgklLhvoeJAzcS@TwmdUN$!p")
_ZIP_VALUED = frozenset("bnPtsZOix")
_ZIP_TWO = "sf sc sd so su sU sp sv sb FF FS MM nw db dc dd dg du dv la li ws ic AC AS ll h2"
_ZIP_MULTI = {name: False for name in _ZIP_TWO.split()} | {
    name: True
    for name in ("tt", "TT", "ds", "lf", "UN")  # these take a value
}
_ZIP_LONG = spec(
    longs="""recurse-paths recurse-patterns quiet verbose junk-paths no-dir-entries move delete
    update freshen fix fixfix grow test unzip-command= output-file= temp-path= password=
    show-files show-command sf-pipe suffixes= exclude= include= from-date= before-date=
    split-size= split-pause split-bell split-verbose display-dots display-bytes display-counts
    display-usize display-volume dot-size= logfile-path= log-append log-info copy-entries
    filesync must-match no-wild wild-stop-dirs symlinks encrypt help version
    compression-method= adjust-sfx junk-sfx entry-comments archive-comment names-stdin
    latest-time license no-extra to-crlf from-crlf dos-names hidden-system dot-version
    fix-fix translate-eol"""
)
_ZIP_SHOW = ("-sf", "-so", "-sc", "-h", "-h2", "-L", "--show-files", "--help", "--license")


def _named(word: Word, suffix: str) -> Word:
    """zip adds ``.zip`` to an archive name, and ``.log`` to a log name, without a suffix."""
    value = word.literal
    if value is None or value == "-" or "." in value.replace("\\", "/").rsplit("/", 1)[-1]:
        return word
    return Word(word.text + suffix, value + suffix)


def _zip_words(args: list[Word]) -> tuple[list[tuple[str, Word | None]], list[Word], list[str]]:
    """(options, operands, unknown options) of a zip command line."""
    opts: list[tuple[str, Word | None]] = []
    pos: list[Word] = []
    bad: list[str] = []
    i, listing = 0, False
    while i < len(args):
        value = args[i].value
        nxt = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if value is None or value == "-" or not value.startswith("-"):
            (opts.append(("-x", args[i - 1])) if listing else pos.append(args[i - 1]))
            continue
        listing = False
        if value == "--":
            pos += args[i:]
            break
        if value.startswith("--"):
            given, eq, attached = value.partition("=")
            name = long_name(given, _ZIP_LONG)
            if name is None:
                bad.append(given)
            elif eq or name not in _ZIP_LONG.long_valued:
                opts.append((name, Word(attached, attached) if eq else None))
            else:
                opts.append((name, nxt))
                i += 1
            listing = name in ("--include", "--exclude")
            continue
        body = value[1:]
        if body in _ZIP_MULTI:
            opts.append(("-" + body, nxt if _ZIP_MULTI[body] else None))
            i += 1 if _ZIP_MULTI[body] else 0
            continue
        if any(body[j : j + 2] in _ZIP_MULTI for j in range(len(body) - 1)):
            bad.append(value)  # a cluster that spells a two-letter option: not read here
            continue
        for j, letter in enumerate(body):
            if letter in _ZIP_VALUED:
                attached = body[j + 1 :]
                opts.append(("-" + letter, Word(attached, attached) if attached else nxt))
                i += 0 if attached else 1
                listing = letter in "ix"
                break
            if letter not in _ZIP_FLAGS:
                bad.append("-" + letter)
                break
            opts.append(("-" + letter, None))
    return opts, pos, bad


def _zip(prog: str, args: list[Word], env: Env) -> Outcome:
    opts, pos, bad = _zip_words(args)
    names = {name for name, _ in opts}
    values = [(n, v) for n, v in opts if v is not None]
    commands = [v for n, v in opts if n in ("-TT", "--unzip-command")]
    logs = [_named(v, ".log") for n, v in values if n in ("-lf", "--logfile-path")]
    fx = env.fx_many(W, logs, "zip log")
    if not pos or names & set(_ZIP_SHOW) or (names <= {"-T", "--test", "-q"} and len(pos) == 1):
        if not commands:
            return checked(prog, bad, writes(prog, fx, "zip lists, tests or shows help"))
    else:
        out = [v for n, v in values if n in ("-O", "--output-file")]
        archive = _named(out[-1] if out else pos[0], ".zip")
        if archive.value != "-":
            fx += env.fx_many(W, [archive], "zip archive")
        if names & {"-m", "--move"}:
            fx += env.fx_many(D, pos[1:], "zip -m source")
    if commands:
        code = commands[-1].value if commands[-1] is not None else None
        return checked(prog, bad, runs_code(prog, code, env, "zip -TT runs a command", fx))
    return checked(prog, bad, writes(prog, fx, "zip writes the archive to stdout"))


HANDLERS["zip"] = _zip
