"""Downloaders: curl and wget write the files their options name."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.opts import split
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, writes
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE


def _url_name(url: Word) -> Word | None:
    value = url.literal
    if not value:
        return None
    name = value.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return lit(name) if name and "." in value.split("://", 1)[-1] and "/" in value else None


_CURL_VALUED = frozenset(
    {
        "--output",
        "--dump-header",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--data",
        "--data-raw",
        "--data-binary",
        "--header",
        "--request",
        "--user",
        "--user-agent",
        "--referer",
        "--form",
        "--upload-file",
        "--cookie",
        "--proxy",
        "--max-time",
        "--connect-timeout",
        "--output-dir",
        "--config",
        "--retry",
        "--write-out",
        "--data-urlencode",
        "--url",
        "--cacert",
        "--cert",
        "--key",
        "--json",
        "--range",
        "--limit-rate",
        "--resolve",
        "--libcurl",
        "--etag-save",
        "--hsts",
        "--alt-svc",
    }
)


def _curl(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(args, "oDcKdHXuAeEFTbrxmwyYzUQ", _CURL_VALUED)
    outdir = parsed.last("--output-dir")
    env = env.at(env.resolve(outdir)) if outdir is not None else env
    fx: list[Fx] = []
    urls = parsed.pos + [v for v in parsed.values("--url") if v]
    for out in parsed.values("-o", "--output"):
        if out is not None and out.value != "-":
            fx += env.fx_many(W, [out], f"{prog} -o output")
    if parsed.has("-O", "--remote-name", "--remote-name-all"):
        if parsed.has("-J", "--remote-header-name"):
            fx.append(Fx(W, "", None, f"{prog} -OJ: name from the server"))
        for url in urls[: max(1, len(urls) - len(parsed.values("-o", "--output")))]:
            fx.append(env.fx(W, _url_name(url), f"{prog} -O remote name"))
    for name in (
        "-D",
        "--dump-header",
        "-c",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--libcurl",
        "--etag-save",
    ):
        for out in parsed.values(name):
            if out is not None and out.value != "-":
                fx += env.fx_many(W, [out], f"{prog} {name} file")
    return writes(prog, fx, "" if fx else "output to stdout")


def _wget(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(
        args,
        "OoaPleAtTUwQeiBRDIX",
        frozenset(
            {
                "--output-document",
                "--output-file",
                "--append-output",
                "--directory-prefix",
                "--level",
                "--accept",
                "--reject",
                "--tries",
                "--timeout",
                "--user-agent",
                "--header",
                "--user",
                "--password",
                "--input-file",
                "--base",
                "--domains",
                "--post-data",
            }
        ),
    )
    fx: list[Fx] = []
    for name in ("-o", "--output-file", "-a", "--append-output"):
        fx += env.fx_many(W, [v for v in parsed.values(name) if v], f"{prog} log file")
    if parsed.has("--spider"):
        return writes(prog, fx, "wget --spider")
    prefix = parsed.last("-P", "--directory-prefix")
    env = env.at(env.resolve(prefix)) if prefix is not None else env
    doc = parsed.last("-O", "--output-document")
    if doc is not None:
        if doc.value != "-":
            fx += env.fx_many(W, [doc], f"{prog} -O output")
    elif parsed.has("-r", "--recursive", "-m", "--mirror"):
        fx += env.fx_many(W, [lit(".")], f"{prog} recursive download directory")
    else:
        for url in parsed.pos:
            fx.append(env.fx(W, _url_name(url), f"{prog} download"))
    return writes(prog, fx)


HANDLERS = {"curl": _curl, "wget": _wget}
