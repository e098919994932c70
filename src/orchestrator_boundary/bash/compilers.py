"""Compilers and generators: what their output options write, and the forms that write nothing.

A compiler or generator is ``read_only`` only in a form that stops before writing (``gcc -E``,
``tsc --noEmit``, ``ssh-keygen -l``, ``ar t``) with every option from its table (ADR 0038);
an option outside the table makes it ``opaque``, keeping the writes found.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, checked, opaque, read_only, writes
from orchestrator_boundary.bash.words import Word, lit

W, D = EffectKind.WRITE, EffectKind.DELETE


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def value_of(args: list[Word], *names: str) -> list[Word]:
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


# --- gcc / clang ------------------------------------------------------------------------------
_CC_STOPS = frozenset({"-fsyntax-only", "-E", "-M", "-MM"})  # no object, no executable
_CC_INFO = frozenset({"--version", "-dumpversion", "-dumpfullversion", "-dumpmachine", "--help"})
_CC_FLAGS = frozenset(
    {"-P", "-C", "-CC", "-dM", "-dD", "-H", "-w", "-pedantic", "-pedantic-errors", "-ansi"}
    | {"-nostdinc", "-nostdinc++", "-v", "-MG", "-MP", "-pthread", "-fPIC", "-fpic"}
    | _CC_STOPS
)
_CC_VALUED: tuple[str, ...] = (
    "-I",
    "-D",
    "-U",
    "-x",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
)
_CC_VALUED += ("-MT", "-MQ")
_CC_PREFIXES: tuple[str, ...] = (
    "-std=",
    "-O",
    "-g",
    "-m",
    "-fdiagnostics-",
    "-fno-diagnostics-",
    "-fmax-errors=",
)
_CC_PREFIXES += ("-fcolor-diagnostics", "-fno-color-diagnostics", "-ferror-limit=")
_CC_PASS_ON = ("-Wl,", "-Wa,", "-Wp,", "-Xlinker", "-Xassembler", "-Xpreprocessor")


def _cc_unknown(args: list[Word]) -> list[str]:
    """The options of a gcc/clang command line outside the harmless table."""
    unknown: list[str] = []
    i = 0
    while i < len(args):
        value = args[i].value or ""
        if not value.startswith("-") or value == "-" or value in _CC_FLAGS:
            pass
        elif value in _CC_VALUED:
            i += 1
        elif value.startswith(_CC_PASS_ON):
            unknown.append(value)  # -Wp,-MD,file writes; the linker's options are its own
        elif value.startswith(_CC_VALUED + _CC_PREFIXES) or value.startswith("-W"):
            pass
        else:
            unknown.append(value)
        i += 1
    return unknown


def _side_files(args: list[Word], sources: list[Word]) -> tuple[list[Word], set[str]]:
    """Files written beside the main output: dependency files (``-MD``, ``-Wp,-MD,f``) and
    ``-save-temps`` intermediates; and the option words that asked for them."""
    files: list[Word] = []
    handled: set[str] = set()
    stems = [(a.value or "").rsplit("/", 1)[-1].rsplit(".", 1)[0] for a in sources]
    for arg in args:
        value = arg.value or ""
        if value.startswith("-Wp,"):
            parts = value.split(",")[1:]
            named = [parts[k + 1] for k, p in enumerate(parts[:-1]) if p in ("-MD", "-MMD", "-MF")]
            files += [lit(f) for f in named]
            handled.update([value] if named else [])
        elif value in ("-MD", "-MMD"):
            files += [lit(stem + ".d") for stem in stems]
            handled.add(value)
        elif value.startswith("-save-temps"):
            files += [lit(stem + suffix) for stem in stems for suffix in (".i", ".s")]
            handled.add(value)
    return files, handled


def compiler(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if any(v is None for v in values):
        return opaque(prog, "an argument is not a literal")
    if any((v or "").startswith("@") for v in values):
        return opaque(prog, f"{prog} reads options from a file")
    sources = [a for a in args if not (a.value or "-").startswith("-")]
    side, handled = _side_files(args, sources)
    extra = env.fx_many(W, side, f"{prog} dependency or intermediate file")
    outputs = value_of(args, "-o", "-MF")
    if outputs:
        return writes(prog, env.fx_many(W, outputs, f"{prog} -o output") + extra)
    if len(values) == 1 and values[0] in _CC_INFO | {"-v"}:
        return read_only(prog, f"{prog} {values[0]}")
    if _CC_STOPS & set(values):
        unknown = [u for u in _cc_unknown(args) if u not in handled]
        return checked(prog, unknown, writes(prog, extra, f"{prog} writes no file"))
    if "-c" in values or "-S" in values:
        suffix = ".s" if "-S" in values else ".o"
        objects = [
            lit((a.value or "").rsplit("/", 1)[-1].rsplit(".", 1)[0] + suffix) for a in sources
        ]
        return writes(prog, env.fx_many(W, objects, f"{prog} object file") + extra)
    return writes(prog, [env.fx(W, "a.out", f"{prog} executable"), *extra])


# --- javac, tsc -----------------------------------------------------------------------------
_JAVAC_INFO = frozenset({"-version", "--version", "-help", "--help", "-X", "--help-extra"})


def javac(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if values and all(v in _JAVAC_INFO for v in values):
        return read_only(prog, f"javac {values[0]}")
    into = value_of(args, "-d", "-s", "-h")
    classes = [
        lit((a.value or "")[:-5] + ".class") for a in args if (a.value or "").endswith(".java")
    ]
    fx = env.fx_many(W, into, "javac output folder") or env.fx_many(W, classes, "javac class")
    if any(v is None or v.startswith("@") for v in values):
        return opaque(prog, "javac reads arguments the analysis cannot see", fx)
    if not fx:
        return opaque(prog, "javac: what it compiles is not named")
    return writes(prog, fx)


_TSC_INFO = frozenset({"help", "h", "?", "version", "v", "showconfig", "all", "listfilesonly"})
_TSC_FLAGS = _words(
    """noemit pretty skiplibcheck skipdefaultlibcheck strict noimplicitany esmoduleinterop
    allowjs checkjs resolvejsonmodule isolatedmodules nounusedlocals nounusedparameters
    allowsyntheticdefaultimports strictnullchecks strictfunctiontypes strictbindcallapply
    strictpropertyinitialization noerrortruncation listfiles explainfiles traceresolution
    diagnostics extendeddiagnostics noimplicitreturns nofallthroughcasesinswitch
    forceconsistentcasinginfilenames experimentaldecorators emitdecoratormetadata
    downleveliteration nolib noresolve nouncheckedindexedaccess exactoptionalpropertytypes
    noimplicitoverride noimplicitthis alwaysstrict allowunreachablecode allowunusedlabels
    useunknownincatchvariables verbatimmodulesyntax allowimportingtsextensions declaration
    sourcemap noimplicitusestrict preserveconstenums allowarbitraryextensions
    resolvepackagejsonexports resolvepackagejsonimports erasablesyntaxonly
    noemitonerror"""
)
_TSC_VALUED = _words(
    """p project t target m module lib jsx moduleresolution baseurl rootdir rootdirs types
    typeroots locale maxnodemodulejsdepth outdir outfile declarationdir moduledetection
    customconditions jsxfactory jsxfragmentfactory jsximportsource"""
)


def tsc(prog: str, args: list[Word], env: Env) -> Outcome:
    """tsc's options are case-blind, take one dash or two, and booleans an optional
    true/false; read-only with --noEmit (or an informational flag) and known options."""
    no_emit, info, unknown = False, False, []
    project, files = False, False
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "an argument is not a literal")
        name = value.lstrip("-").lower() if value.startswith("-") else ""
        following = args[i + 1].value if i + 1 < len(args) else None
        explicit = following in ("true", "false")
        files = files or not name
        if name in _TSC_VALUED:
            project = project or name in ("p", "project")
            i += 1
        elif name in _TSC_FLAGS:
            if name == "noemit":
                no_emit = following != "false"
            i += 1 if explicit else 0
        elif name in _TSC_INFO:
            info = True
        elif name:
            unknown.append(value)
        i += 1
    if info:
        return checked(prog, unknown, read_only(prog, "tsc prints information"))
    if no_emit and (project or not files):
        # tsconfig.json may ask for `incremental` / `composite`: --noEmit still writes the
        # .tsbuildinfo file (observed, ADR 0049); files named on the line ignore tsconfig.json
        return opaque(prog, "tsc --noEmit with tsconfig.json: may write build info")
    if no_emit:
        return checked(prog, unknown, read_only(prog, "tsc --noEmit"))
    out = value_of(args, "--outDir", "--outFile", "--declarationDir")
    fx = env.fx_many(W, out, "tsc output") or [Fx(W, "", None, "tsc emits files")]
    return checked(prog, unknown, writes(prog, fx))


# --- openssl, ssh-keygen ----------------------------------------------------------------------
_OPENSSL_WRITES: tuple[str, ...] = (
    "-out",
    "-keyout",
    "-writerand",
    "-signature",
    "-sess_out",
    "-keylogfile",
)
_OPENSSL_WRITES += ("-msgfile", "-CAserial")
# subcommands that print, with the options they take harmlessly ("name=" takes a value)
_OPENSSL_READ: dict[str, frozenset[str]] = {
    "version": _words("-a -v -b -o -f -p -d -e -m -r -c"),
    "x509": _words(
        """-in= -inform= -noout -text -subject -issuer -dates -startdate -enddate -fingerprint
        -sha1 -sha256 -sha512 -md5 -serial -hash -subject_hash -issuer_hash -pubkey -modulus
        -email -purpose -ext= -nameopt= -certopt= -checkend= -ocspid -ocsp_uri -alias
        -nocert"""
    ),
    "dgst": _words("-sha1 -sha256 -sha384 -sha512 -md5 -r -hex -c -list"),
    "rand": _words("-hex -base64"),
    "list": _words(
        """-commands -digest-commands -cipher-commands -digest-algorithms -cipher-algorithms
        -public-key-algorithms -1"""
    ),
    "help": frozenset(),
}


def openssl(prog: str, args: list[Word], env: Env) -> Outcome:
    out = value_of(args, *_OPENSSL_WRITES)
    fx = env.fx_many(W, out, f"{prog} output file")
    sub = args[0].value if args else "help"
    known = _OPENSSL_READ.get(sub or "")
    if known is None or sub is None:
        return writes(prog, fx) if fx else opaque(prog, f"openssl {sub}: effects not known")
    unknown: list[str] = []
    words = iter(args[1:])
    for word in words:
        if word.value is None:
            unknown.append(word.text)
            continue
        if not word.value.startswith("-"):
            continue
        value = word.value.removeprefix("-").removeprefix("-")
        if "-" + value + "=" in known:
            next(words, None)
        elif "-" + value not in known and value not in (o.lstrip("-") for o in _OPENSSL_WRITES):
            unknown.append(word.value)
    return checked(prog, unknown, writes(prog, fx, f"openssl {sub} prints"))


_SSH_KEYGEN = spec("ABceHhiKkLlpQqUuvyg", "abCDEFfIMmNnOPRrstVwYZz", "help")
_SSH_READ_MODES = frozenset({"-l", "-y", "-B", "-L", "-e", "-i", "-F", "-Q"})
_SSH_READ_OPTS = _SSH_READ_MODES | {"-f", "-E", "-m", "-v", "-q", "-g", "-P"}


def ssh_keygen(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _SSH_KEYGEN)
    names = {name for name, _ in parsed.opts}
    if names & _SSH_READ_MODES and names <= _SSH_READ_OPTS and not parsed.unknown:
        return read_only(prog, "ssh-keygen reads a key")
    if names & {"-D", "-w"}:
        return opaque(prog, "ssh-keygen loads a provider library")
    files = [v for v in parsed.values("-f") if v is not None]
    if not files:
        fx = [Fx(W, "~/.ssh", env.resolve(lit("~/.ssh")), "ssh-keygen key file")]
        return checked(prog, parsed.unknown, writes(prog, fx))
    pub = [lit((f.value or "") + ".pub") for f in files if f.value]
    return checked(prog, parsed.unknown, writes(prog, env.fx_many(W, files + pub, "key file")))


# --- iconv, sdiff, ar, cmake -----------------------------------------------------------------
_OUTPUT_OPTION = {
    "iconv": spec("cls?", "fto", "from-code= to-code= list output= silent verbose help usage"),
    "sdiff": spec(
        "abBdEZHilstWv",
        "Iwo",
        """output= ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change
        ignore-all-space ignore-blank-lines ignore-matching-lines= strip-trailing-cr text
        expand-tabs tabsize= width= left-column suppress-common-lines minimal
        speed-large-files diff-program= help version""",
    ),
}


def output_option(prog: str, args: list[Word], env: Env) -> Outcome:
    """iconv -o, sdiff -o: standard output unless an output file is named (any abbreviation
    of --output counts)."""
    parsed = parse(args, _OUTPUT_OPTION[prog])
    out = [v for v in parsed.values("-o", "--output") if v is not None]
    fx = env.fx_many(W, out, f"{prog} -o output")
    if parsed.has("--diff-program"):
        return opaque(prog, "sdiff --diff-program runs a program", fx)
    return checked(prog, parsed.unknown, writes(prog, fx, "output to stdout"))


_AR_LETTERS = frozenset("dmpqrstxabcDfilNoOPSTuUvV")


def ar(prog: str, args: list[Word], env: Env) -> Outcome:
    if not args or any(a.value is None for a in args):
        return opaque(prog, "ar argument is not a literal")
    mode = (args[0].value or "").removeprefix("-")
    operands = args[1:]
    if args[0].value == "--version" and not operands:
        return read_only(prog, "ar --version")
    if not set(mode) <= _AR_LETTERS or any(
        (a.value or "").startswith(("-", "@")) for a in args[1:]
    ):
        return opaque(prog, "ar: an option the analysis does not know (--plugin, --output, @file)")
    if set(mode) & set("dmqrs") and operands:
        return writes(prog, env.fx_many(W, operands[:1], "ar archive"))
    if "x" in mode:
        return writes(prog, env.fx_many(W, operands[1:] or [lit(".")], "ar extracted member"))
    if set(mode) & set("tp") and set(mode) <= set("tpvODUTP"):
        return read_only(prog, "ar lists or prints members")
    return opaque(prog, f"ar {mode}")


_CMAKE_WRITES = {
    "touch": W, "touch_nocreate": W, "copy": W, "copy_if_different": W, "copy_directory": W,
    "make_directory": W, "remove": D, "remove_directory": D, "rm": D, "rename": W,
    "create_symlink": W, "create_hardlink": W, "tar": W, "true": W,
}  # fmt: skip
_CMAKE_READS = frozenset({"echo", "echo_append", "cat", "md5sum", "sha256sum", "capabilities"})
_CMAKE_LAST_ONLY = ("copy", "copy_if_different", "copy_directory", "rename", "create_symlink")


def cmake(prog: str, args: list[Word], env: Env) -> Outcome:
    if [a.value for a in args] in (["--version"], ["--help"]):
        return read_only(prog, f"cmake {args[0].value}")
    if not args or args[0].value != "-E" or len(args) < 2:
        return opaque(prog, "cmake configures or builds: runs project code")
    sub = args[1].value or ""
    operands = [a for a in args[2:] if not (a.value or "-").startswith("-")]
    if sub in _CMAKE_READS:
        return read_only(prog, f"cmake -E {sub}")
    if sub not in _CMAKE_WRITES or sub == "true":
        return opaque(prog, f"cmake -E {sub}")
    if sub in (*_CMAKE_LAST_ONLY, "create_hardlink"):
        operands = operands[-1:]
    return writes(prog, env.fx_many(_CMAKE_WRITES[sub], operands, f"cmake -E {sub}"))


HANDLERS = {
    **dict.fromkeys(("gcc", "cc", "clang", "g++", "c++", "clang++"), compiler),
    "javac": javac,
    "tsc": tsc,
    "openssl": openssl,
    "ssh-keygen": ssh_keygen,
    "iconv": output_option,
    "sdiff": output_option,
    "ar": ar,
    "cmake": cmake,
}
