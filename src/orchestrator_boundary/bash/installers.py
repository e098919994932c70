"""Package managers: installs write to an environment the analysis cannot locate."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, read_only, writes
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
        "doctor",
        "root",
        "bin",
        "prefix",
        "help",
        "licenses",
    }
)
_PIP_WRITE = frozenset({"install", "uninstall", "download", "wheel"})
_PIP_READ = frozenset(
    {
        "list",
        "show",
        "freeze",
        "check",
        "search",
        "index",
        "inspect",
        "help",
        "debug",
        "cache",
        "hash",
    }
)
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
        "config",
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
        if "--dry-run" in [a.value for a in args]:
            return read_only(prog, f"{prog} pack --dry-run")
        return writes(prog, [env.fx(W, lit("."), f"{prog} pack tarball")])
    if sub in ("config", "c"):
        if action in (None, "get", "list", "ls"):
            return read_only(prog, f"{prog} config {action or ''}".strip())
        return writes(prog, [Fx(W, "", None, f"{prog} config {action}: an npmrc file")])
    if sub == "pkg":
        if action == "get":
            return read_only(prog, f"{prog} pkg get")
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
        return read_only(prog, f"{prog} version lists versions")
    return None


def node_pm(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    files = _node_files(prog, sub, args, env) if sub else None
    if files is not None:
        return files
    if sub is None and prog in ("yarn", "bun") and not [a for a in args if a.value]:
        sub = "install"  # bare `yarn` / `bun` installs
    if sub in _NODE_READ:
        return read_only(prog, f"{prog} {sub} reads only")
    if sub in _NODE_INSTALL:
        if any(a.value in ("-g", "--global", "--location=global") for a in args) or (
            prog == "yarn" and args and args[0].value == "global"
        ):
            return writes(prog, [_env_write(f"{prog} {sub} --global")])
        fx = [env.fx(W, lit("node_modules"), f"{prog} {sub}")]
        fx += [
            env.fx(W, lit(name), f"{prog} {sub} manifest")
            for name in (
                "package.json",
                {
                    "npm": "package-lock.json",
                    "yarn": "yarn.lock",
                    "pnpm": "pnpm-lock.yaml",
                    "bun": "bun.lockb",
                }.get(prog, "package-lock.json"),
            )
        ]
        return writes(prog, fx)
    return opaque(prog, f"{prog} {sub or ''}: runs project scripts".replace("  ", " "))


def pip(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    if sub == "config":
        words = [a.value for a in args if a.value is not None and not a.value.startswith("-")]
        if len(words) < 2 or words[1] in ("get", "list", "debug"):
            return read_only(prog, "pip config read")
        return writes(prog, [Fx(W, "", None, f"pip config {words[1]}: a pip config file")])
    if sub in _PIP_READ:
        return read_only(prog, f"pip {sub} reads only")
    if sub in _PIP_WRITE:
        return writes(prog, [_env_write(f"pip {sub} into the Python environment")])
    return opaque(prog, f"pip {sub}")


def uv(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    if sub == "pip":
        return pip("uv", args[1:], env)
    if sub in ("add", "remove", "sync", "lock", "init", "venv", "install", "tool", "python"):
        return writes(prog, [_env_write(f"uv {sub}: project environment and lock file")])
    if sub in ("tree", "version", "help", "--version", "cache"):
        return read_only(prog, f"uv {sub}")
    return opaque(prog, f"uv {sub}")


def system_pm(prog: str, args: list[Word], env: Env) -> Outcome:
    sub = _first(args)
    if sub in _SYS_READ:
        return read_only(prog, f"{prog} {sub} reads only")
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
