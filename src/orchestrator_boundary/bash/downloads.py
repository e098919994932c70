"""Downloaders: curl and wget write the files their options name (issue 12, point 1).

Both are read with the option model: an option not in ``downloads_data`` makes the command
``opaque``. curl prints to stdout unless an option names a file; wget saves what it fetches
unless it only checks (``--spider``) or prints (``-O -``).
"""

from __future__ import annotations

from orchestrator_boundary.bash.downloads_data import (
    CURL,
    CURL_CONFIG,
    CURL_WRITES,
    WGET,
    WGET_LOGS,
    WGET_N_LETTERS,
    WGET_OPAQUE,
    WGET_WRITES,
)
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import Spec, long_name, parse
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, checked, opaque, writes
from orchestrator_boundary.bash.words import Word, lit, unknown

W = EffectKind.WRITE
_STDOUT = ("-", "%")  # curl: "-" stdout, "%" stderr (curl 8)
# `wget -e COMMAND` runs a .wgetrc command; these only change what is fetched
_WGET_HARMLESS_SETTINGS = frozenset({"robots=off", "robots=on"})


def _url_name(url: Word, index: str = "") -> Word | None:
    """The file name a download of ``url`` is saved as: the last segment of its path (wget
    keeps the query, curl does not); ``index`` for a URL that ends in ``/``."""
    value = url.literal
    if not value:
        return None
    rest = value.split("://", 1)[1] if "://" in value else value
    path = rest.partition("/")[2].split("#", 1)[0]
    path = path if index else path.split("?", 1)[0]
    name = path.rsplit("/", 1)[-1] or index
    return lit(name) if name else None


def normalized(args: list[Word], known: Spec, *, expand: bool = False) -> list[Word]:
    """``args`` with ``--no-FLAG`` of a known flag left out (it can only switch a flag off, and
    the flag, if given, is still seen), and curl's ``--expand-OPT VALUE`` read as ``--OPT`` with
    a value that is not literal (``{{var}}`` is filled in by curl)."""
    out: list[Word] = []
    unknown_next = False
    for arg in args:
        value = arg.value
        if unknown_next:
            out.append(unknown(arg.text))
            unknown_next = False
            continue
        if value and value.startswith("--") and long_name(value, known) is None:
            bare = "--" + value[2:].removeprefix("no-")
            if value.startswith("--no-") and bare in known.long_flags:
                continue
            plain = "--" + value[2:].removeprefix("expand-")
            if expand and value.startswith("--expand-") and long_name(plain, known):
                out.append(Word(arg.text, plain))
                unknown_next = long_name(plain, known) in known.long_valued
                continue
        out.append(arg)
    return out


def _write_out(parsed: Parsed, env: Env, prog: str) -> list[Fx] | None:
    """Files curl's ``-w '%output{FILE}'`` writes (curl 8.3); None: the format is not known."""
    fx: list[Fx] = []
    for fmt in parsed.values("-w", "--write-out"):
        text = fmt.value if fmt is not None else None
        if text is None or text.startswith("@"):
            return None
        for part in text.split("%output{")[1:]:
            name = part.partition("}")[0].removeprefix(">>")
            fx.append(env.fx(W, lit(name) if name else None, f"{prog} -w %output file"))
    return fx


def _uploads(parsed: Parsed, urls: list[Word], env: Env, prog: str) -> list[Fx]:
    """``-T FILE file:///path``: an upload to a file: URL writes that file."""
    if not parsed.has("-T", "--upload-file"):
        return []
    fx: list[Fx] = []
    for url in urls:
        value = url.literal
        if value is None:
            fx.append(env.fx(W, None, f"{prog} -T upload to a URL that is not literal"))
        elif value.lower().startswith("file:"):
            path = value[5:].removeprefix("//")
            path = path[path.find("/") :] if "/" in path else ""  # file://HOST/PATH
            fx.append(env.fx(W, lit(path) if path else None, f"{prog} -T upload to a file: URL"))
    return fx


def _curl(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(normalized(args, CURL, expand=True), CURL)
    outdir = parsed.last("--output-dir")  # for -o and -O only
    here = env.at(env.resolve(outdir)) if outdir is not None else env
    fx: list[Fx] = []
    urls = parsed.pos + [v for v in parsed.values("--url") if v]
    if parsed.has("-O", "--remote-name", "--remote-name-all"):
        if parsed.has("-J", "--remote-header-name"):
            fx.append(Fx(W, "", None, f"{prog} -OJ: name from the server"))
        for url in urls[: max(1, len(urls) - len(parsed.values("-o", "--output")))]:
            fx.append(here.fx(W, _url_name(url), f"{prog} -O remote name"))
    for name in CURL_WRITES:
        place = here if name in ("-o", "--output") else env
        for out in parsed.values(name):
            if out is None or out.value not in _STDOUT:
                fx += place.fx_many(W, [out] if out else [], f"{prog} {name} file")
    fx += _uploads(parsed, urls, env, prog)
    if parsed.has(*CURL_CONFIG):  # its -o files are written all the same (ADR 0077)
        return opaque(prog, f"{prog} -K reads more options from a file", fx)
    formats = _write_out(parsed, env, prog)
    if formats is None:
        return checked(prog, parsed.unknown, opaque(prog, f"{prog} -w format not known", fx))
    fx += formats
    return checked(prog, parsed.unknown, writes(prog, fx, "" if fx else "output to stdout"))


def _wget(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(normalized(args, WGET), WGET)
    for letters in parsed.values("-n"):
        if letters is None or not letters.value or not set(letters.value) <= WGET_N_LETTERS:
            parsed.unknown.append(f"-n{letters.value if letters and letters.value else ''}")
    settings = [v.value for v in parsed.values("-e", "--execute") if v is not None]
    if all(s in _WGET_HARMLESS_SETTINGS for s in settings) and settings:
        parsed.opts = [(n, v) for n, v in parsed.opts if n not in ("-e", "--execute")]
    fx: list[Fx] = []
    for name in (*WGET_LOGS, *WGET_WRITES):
        fx += env.fx_many(W, [v for v in parsed.values(name) if v], f"{prog} {name} file")
    if parsed.has("-b", "--background") and not parsed.has(*WGET_LOGS):
        fx.append(env.fx(W, lit("wget-log"), f"{prog} -b log file"))
    prefix = parsed.last("-P", "--directory-prefix")
    doc = parsed.last("-O", "--output-document")
    here = env.at(env.resolve(prefix)) if prefix is not None else env
    if parsed.has(*WGET_OPAQUE):  # the files the text names are written all the same (0077)
        shown = [doc] if doc is not None and doc.value != "-" else []
        fx += env.fx_many(W, shown, f"{prog} -O output")
        return opaque(prog, f"{prog} -e / --config / --use-askpass: commands not in the text", fx)
    if doc is not None:
        if doc.value != "-":  # -O opens (and empties) the file first, --spider or not
            fx += env.fx_many(W, [doc], f"{prog} -O output")
    elif parsed.has("--spider"):
        pass
    elif parsed.has(
        "-r", "--recursive", "-m", "--mirror", "-x", "--force-directories", "-p",
        "--page-requisites", "--protocol-directories",
    ):  # fmt: skip
        fx += here.fx_many(W, [lit(".")], f"{prog} download directory tree")
    elif parsed.has(
        "-i", "--input-file", "--content-disposition", "--trust-server-names"
    ):  # fmt: skip
        fx.append(Fx(W, "", None, f"{prog}: names not in the text"))
    else:
        for url in parsed.pos:
            fx.append(here.fx(W, _url_name(url, "index.html"), f"{prog} download"))
    note = "wget --spider" if parsed.has("--spider") else "wget -O -"
    return checked(prog, parsed.unknown, writes(prog, fx, note))


HANDLERS = {"curl": _curl, "wget": _wget}
