"""Package managers: installs write to an environment the analysis cannot locate."""

from __future__ import annotations

from orchestrator_boundary.bash.installers_data import (
    CONDA_CONFIG,
    CONDA_CONFIG_WRITES,
    NODE_CONFIG,
    NODE_PACK,
    NODE_READ,
    NODE_VERSION_FLAGS,
    PIP_READ,
    PIP_SHOW,
    PIP_VERSION_FLAGS,
    SYS_READ,
    UV_LOCK_FREE,
    UV_READ,
)
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.options import parse
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    checked,
    opaque,
    read_only,
    writes,
)
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
_NODE_INSTALL = frozenset(
    {
        "install",
        "i",
        "ci",
        "add",
        "remove",
        "rm",
        "uninstall",
        "un",
        "update",
        "up",
        "upgrade",
        "link",
        "unlink",
        "prune",
        "dedupe",
    }
)
_NODE_READ = frozenset(
    {
        "ls",
        "list",
        "view",
        "info",
        "show",
        "outdated",
        "why",
        "explain",
        "search",
        "whoami",
        "audit",
        "root",
        "bin",
        "prefix",
        "help",
        "licenses",
    }
)
_PIP_WRITE = frozenset({"install", "uninstall", "download", "wheel"})
_PIP_READ = frozenset({"list", "freeze", "check", "search", "index", "inspect", "help"})
_PIP_READ |= {"debug", "hash", "show", "cache"}
_SYS = frozenset(
    {
        "install",
        "remove",
        "purge",
        "upgrade",
        "dist-upgrade",
        "autoremove",
        "reinstall",
        "uninstall",
        "update",
        "tap",
        "link",
        "unlink",
        "cleanup",
    }
)
_SYS_READ = frozenset(
    {
        "search",
        "show",
        "list",
        "info",
        "policy",
        "depends",
        "rdepends",
        "madison",
        "outdated",
        "deps",
        "leaves",
        "--prefix",
        "doctor",
    }
)


def _env_write(source: str) -> Fx:
    return Fx(W, "", None, source)


def _first(args: list[Word]) -> str | None:
    for arg in args:
        if arg.value is None:
            return None
        if not arg.value.startswith("-"):
            return arg.value
    return None


def _node_files(prog: str, sub: str, args: list[Word], env: Env) -> Outcome | None:
    """npm pack / config / pkg / version: what they write, None for other subcommands."""
    words = [a.value for a in args if a.value is not None and not a.value.startswith("-")]
    action = words[1] if len(words) > 1 else None
    if sub == "pack":
        return _pack(prog, args, env)
    if sub in ("config", "c"):
        if action in (None, "get", "list", "ls"):
            found = parse(args, NODE_CONFIG).unknown
            return checked(prog, found, read_only(prog, f"{prog} config {action or ''}".strip()))
        return writes(prog, [Fx(W, "", None, f"{prog} config {action}: an npmrc file")])
    if sub == "pkg":
        if action == "get":
            found = parse(args, NODE_CONFIG).unknown
            return checked(prog, found, read_only(prog, f"{prog} pkg get"))
        return writes(prog, [env.fx(W, lit("package.json"), f"{prog} pkg {action}")])
    if sub == "version" and len(words) > 1:
        return writes(
            prog,
            [
                env.fx(W, lit("package.json"), f"{prog} version"),
                env.fx(W, lit(".git"), f"{prog} version tag"),
            ],
        )
    if sub == "version":
        found = parse(args, NODE_CONFIG).unknown
        return checked(prog, found, read_only(prog, f"{prog} version lists versions"))
    return None


def _pack(prog: str, args: list[Word], env: Env) -> Outcome:
    """npm pack runs the package's prepack and prepare scripts, --dry-run or not."""
    parsed = parse(args, NODE_PACK)
    into = parsed.last("--pack-destination") or lit(".")
    tarball = [] if parsed.has("--dry-run") else [env.fx(W, into, f"{prog} pack tarball")]
    if not parsed.has("--ignore-scripts"):
        return opaque(prog, f"{prog} pack runs the package's prepack and prepare scripts", tarball)
    return checked(prog, parsed.unknown, writes(prog, tarball, f"{prog} pack --dry-run"))


def _node_install(prog: str, sub: str, args: list[Word], env: Env) -> Outcome:
    if any(a.value in ("-g", "--global", "--location=global") for a in args) or (
        prog == "yarn" and args and args[0].value == "global"
    ):
        return writes(prog, [_env_write(f"{prog} {sub} --global")])
    lock = {"npm": "package-lock.json", "yarn": "yarn.lock", "pnpm": "pnpm-lock.yaml"}
    lock["bun"] = "bun.lockb"
    fx = [env.fx(W, lit("node_modules"), f"{prog} {sub}")]
    fx += [
        env.fx(W, lit(name), f"{prog} {sub} manifest")
        for name in ("package.json", lock.get(prog, "package-lock.json"))
    ]
    return writes(prog, fx)


def node_pm(prog: str, args: list[Word], env: Env) -> Outcome:
    """npm, yarn, pnpm, bun. Observed (ADR 0049): npm keeps a debug log of every run but a
    lone ``--version`` (in ~/.npm/_logs, or where an .npmrc's ``logs-dir`` says, the project's
    own included); an install runs the project's and the packages' install scripts and fills a
    cache in HOME. Neither is in sight of the text: never better than ``opaque``."""
    outcome = _node_pm(prog, args, env)
    if outcome.status not in (Status.READ_ONLY, Status.WRITES):
        return outcome
    values = [a.value for a in args]
    if prog == "npm" and not (len(values) == 1 and values[0] in NODE_VERSION_FLAGS):
        note = "npm keeps a debug log (~/.npm/_logs, or an .npmrc's logs-dir)"
        return Outcome(prog, Status.OPAQUE, outcome.fx, note)
    if outcome.fx and outcome.fx[0].source.startswith(f"{prog} ") and _installs(prog, args):
        note = f"{prog} installs: runs install scripts, fills a cache in HOME"
        return Outcome(prog, Status.OPAQUE, outcome.fx, note)
    return outcome


def _installs(prog: str, args: list[Word]) -> bool:
    sub = _first(args)
    return (sub is None and prog in ("yarn", "bun")) or sub in _NODE_INSTALL


def _node_pm(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    files = _node_files(prog, sub, args, env) if sub else None
    if files is not None:
        return files
    values = [a.value for a in args]
    if len(values) == 1 and values[0] in NODE_VERSION_FLAGS:
        return read_only(prog, f"{prog} {values[0]}")
    if sub is None and prog in ("yarn", "bun") and not [a for a in args if a.value]:
        sub = "install"  # bare `yarn` / `bun` installs
    if sub in _NODE_READ:
        parsed = parse(args, NODE_READ)
        action = parsed.pos[1].value if sub == "audit" and len(parsed.pos) > 1 else None
        if action == "fix":
            return _node_install(prog, "audit fix", args, env)
        if action not in (None, "signatures"):
            return opaque(prog, f"{prog} audit {action}")
        logs = [v for v in parsed.values("--logs-dir") if v is not None]
        fx = env.fx_many(W, logs, f"{prog} --logs-dir: its debug log")
        return checked(prog, parsed.unknown, writes(prog, fx, f"{prog} {sub} reads only"))
    if sub in _NODE_INSTALL:
        return _node_install(prog, sub, args, env)
    return opaque(prog, f"{prog} {sub or ''}: runs project scripts".replace("  ", " "))


def pip(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    values = [a.value for a in args]
    if len(values) == 1 and values[0] in PIP_VERSION_FLAGS:
        return read_only(prog, f"pip {values[0]}")
    if sub == "config":
        words = [a.value for a in args if a.value is not None and not a.value.startswith("-")]
        if len(words) < 2 or words[1] in ("get", "list", "debug"):
            return _pip_read(prog, "config", args, env)
        return writes(prog, [Fx(W, "", None, f"pip config {words[1]}: a pip config file")])
    if sub == "cache":
        words = [a.value for a in args if a.value is not None and not a.value.startswith("-")]
        if len(words) > 1 and words[1] in ("purge", "remove"):
            return writes(prog, [_env_write(f"pip cache {words[1]}: the pip cache")])
    if sub in _PIP_READ:
        return _pip_read(prog, sub, args, env)
    if sub in _PIP_WRITE:
        return writes(prog, [_env_write(f"pip {sub} into the Python environment")])
    return opaque(prog, f"pip {sub}")


def _pip_read(prog: str, sub: str, args: list[Word], env: Env) -> Outcome:
    """A reading pip subcommand: read-only with options from its table; ``--log FILE``
    writes FILE."""
    parsed = parse(args, PIP_SHOW if sub == "show" else PIP_READ)
    logs = env.fx_many(W, [v for v in parsed.values("--log") if v], f"pip {sub} --log")
    cached = _pip_cache_note(sub, parsed)
    if cached:
        return opaque(prog, cached, logs)
    return checked(prog, parsed.unknown, writes(prog, logs, f"pip {sub} reads only"))


def _pip_cache_note(sub: str, parsed: Parsed) -> str:
    """Why a reading pip command writes pip's cache in HOME, or "". `pip list` and `pip index`
    check for a newer pip and record the answer in ``selfcheck/`` (observed with a local
    index); `pip index` and `pip list --outdated|--uptodate` keep the index pages in the HTTP
    cache. The flags that turn these off make the command read-only again."""
    if sub not in ("list", "index") or parsed.has("--no-index"):
        return ""
    if not parsed.has("--disable-pip-version-check"):
        return f"pip {sub}: its version check writes pip's cache"
    fetches = sub == "index" or parsed.has("-o", "--outdated", "-u", "--uptodate")
    if fetches and not parsed.has("--no-cache-dir"):
        return f"pip {sub}: index pages go to pip's HTTP cache"
    return ""


def uv(prog: str, args: list[Word], env: Env) -> Outcome:
    """uv keeps a cache in HOME (what it learnt of each interpreter) on every run that looks
    at an environment, `uv pip list` included (observed, ADR 0049): only its version, its help
    and where its cache is are read-only."""
    outcome = _uv(prog, args, env)
    values = [a.value for a in args]
    if outcome.status not in (Status.READ_ONLY, Status.WRITES) or values in (
        ["--version"],
        ["-V"],
        ["cache", "dir"],
    ):
        return outcome
    if _first(args) == "help":
        return outcome
    return Outcome(prog, Status.OPAQUE, outcome.fx, "uv keeps a cache in HOME")


def _uv(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    values = [a.value for a in args]
    if sub == "pip":
        return pip("uv", args[1:], env)
    if sub in ("add", "remove", "sync", "lock", "init", "venv", "install", "tool", "python"):
        return writes(prog, [_env_write(f"uv {sub}: project environment and lock file")])
    if sub is None and values in (["--version"], ["-V"]):
        return read_only(prog, "uv --version")
    if sub == "cache":
        action = values[1] if len(values) > 1 and values[0] == "cache" else None
        if action == "dir" and len(values) == 2:
            return read_only(prog, "uv cache dir")
        return writes(prog, [_env_write(f"uv cache {action}: the uv cache")])
    if sub in ("tree", "version", "help"):
        parsed = parse(args, UV_READ)
        if sub == "version" and len(parsed.pos) > 1:
            return writes(prog, [env.fx(W, lit("pyproject.toml"), "uv version VALUE")])
        if sub == "tree" and not parsed.has(*UV_LOCK_FREE):
            # uv tree locks the project first: uv.lock is written when it is out of date
            return checked(
                prog, parsed.unknown, writes(prog, [env.fx(W, lit("uv.lock"), "uv tree")])
            )
        return checked(prog, parsed.unknown, read_only(prog, f"uv {sub}"))
    return opaque(prog, f"uv {sub}")


def system_pm(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    if sub == "config" and prog in ("conda", "mamba"):
        parsed = parse(args, CONDA_CONFIG)
        if parsed.has(*CONDA_CONFIG_WRITES):
            return writes(prog, [_env_write(f"{prog} config: a .condarc file")])
        return checked(prog, parsed.unknown, read_only(prog, f"{prog} config shows settings"))
    if sub == "config" and prog == "brew":
        return checked(prog, parse(args, SYS_READ).unknown, read_only(prog, "brew config"))
    if sub in _SYS_READ:
        parsed = parse(args, SYS_READ)
        return checked(prog, parsed.unknown, read_only(prog, f"{prog} {sub} reads only"))
    if sub in _SYS or sub is None:
        return writes(prog, [_env_write(f"{prog} {sub or ''} changes the system".strip())])
    return opaque(prog, f"{prog} {sub}")


HANDLERS = {
    "npm": node_pm,
    "yarn": node_pm,
    "pnpm": node_pm,
    "bun": node_pm,
    "pip": pip,
    "uv": uv,
    **{
        name: system_pm
        for name in (
            "apt",
            "apt-get",
            "brew",
            "dnf",
            "yum",
            "apk",
            "pacman",
            "gem",
            "cargo-install",
            "conda",
            "mamba",
            "port",
            "snap",
            "choco",
            "winget",
            "scoop",
        )
    },
}
