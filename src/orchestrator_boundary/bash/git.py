"""git: read-only subcommands vs the ones that change the repository or the working tree."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.opts import Parsed, split
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    opaque,
    read_only,
    runs_code,
    writes,
)
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.readonly_data import GIT_READ_ONLY, GIT_SAFE_CONFIG_PREFIXES, names
from orchestrator_boundary.bash.words import Word, lit

W, D = EffectKind.WRITE, EffectKind.DELETE
_REPO_STATE = names(
    """
    add commit merge rebase cherry-pick revert am pull fetch push switch reset gc prune notes
    update-index update-ref symbolic-ref replace bisect filter-branch sparse-checkout
    maintenance repack commit-tree mktag mktree write-tree read-tree pack-refs stage
    """
)
# git's own options, before the subcommand (git takes no abbreviation of them; one not known
# could take a value and hide the subcommand: opaque)
_GIT_TOP = spec(
    "pPvh",
    "Cc",
    """exec-path[=] html-path man-path info-path paginate no-pager git-dir= work-tree=
    namespace= bare no-replace-objects no-lazy-fetch no-optional-locks no-advice
    literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs list-cmds= attr-source=
    config-env= super-prefix= version help""",
)
_SUB_VAL = "mbBFCSUOXsjfnu"  # short options that take a value in common subcommands
_SUB_LONG = frozenset(
    {
        "--message",
        "--file",
        "--author",
        "--date",
        "--branch",
        "--depth",
        "--origin",
        "--template",
        "--reference",
        "--separate-git-dir",
        "--config",
        "--orphan",
        "--upstream",
        "--onto",
        "--strategy",
        "--strategy-option",
        "--reuse-message",
        "--fixup",
        "--squash",
        "--output",
        "--output-directory",
    }
)


Sub = Callable[[str, Parsed, list[Word], Env], Outcome]


def _repo(env: Env, source: str) -> Fx:
    return env.fx(W, lit(".git"), source)


def _first(p: Parsed) -> str | None:
    return p.pos[0].value if p.pos else None


# Options of git's reading subcommands that write a file or run a command. git accepts any
# unambiguous abbreviation of a long option, so a word that abbreviates one of these counts
# (ADR 0021: the reading subcommands have hundreds of harmless options; these are the others).
_WRITING_OPTIONS = (
    "--output",
    "--output-directory",
    "--open-files-in-pager",
    "--upload-pack",
    "--exec",
    "--lost-found",
)


def _writing_option(sub: str, args: list[Word]) -> str | None:
    for arg in args:
        value = arg.value
        if value is None or value == "--":
            break
        name = value.partition("=")[0]
        if name.startswith("--") and len(name) > 2:
            if any(option.startswith(name) for option in _WRITING_OPTIONS):
                return name
        elif sub == "grep" and name.startswith("-") and "O" in name[1:]:
            return "-O"
    return None


def _reads(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    option = _writing_option(sub, args)
    if option is None:
        return read_only("git", f"git {sub} reads only")
    outputs = [v for v in p.values("--output", "--output-directory", "-o") if v]
    named = [v for name, v in p.opts if v is not None and "--output".startswith(name)]
    fx = env.fx_many(W, outputs or named, f"git {sub} {option}")
    if option in ("--upload-pack", "--exec", "-O") or "--open-files-in-pager".startswith(option):
        # the program runs on files the analysis cannot name: a write somewhere
        fx = fx or [Fx(W, "", None, f"git {sub} {option}: a program run on the matches")]
        return opaque("git", f"git {sub} {option} runs a command", fx)
    if not fx:
        fx = [Fx(W, "", None, f"git {sub} {option}")]
    return writes("git", fx)


def _reflog(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if _first(p) in ("expire", "delete"):
        return writes("git", [_repo(env, f"git reflog {_first(p)}")])
    return _reads(sub, p, args, env)


def _format_patch(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--stdout"):
        return read_only("git", "git format-patch --stdout")
    into = split(args, _SUB_VAL + "ov", _SUB_LONG).last("-o", "--output-directory")
    return writes("git", [env.fx(W, into or lit("."), "git format-patch files")])


def _archive(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--remote", "--exec"):
        return opaque("git", "git archive --remote runs a command")
    outputs = [v for v in split(args, _SUB_VAL + "o", _SUB_LONG).values("-o", "--output") if v]
    return writes("git", env.fx_many(W, outputs, "git archive output"), "archive to stdout")


def _bundle(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if first in ("verify", "list-heads"):
        return read_only("git", f"git bundle {first}")
    if first == "create":
        return writes(
            "git", env.fx_many(W, p.pos[1:2], "git bundle file") or [Fx(W, "", None, "git bundle")]
        )
    return writes("git", [_repo(env, f"git bundle {first}")])


def _repo_state(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    return writes("git", [_repo(env, f"git {sub}")])


_BRANCH_CHANGING = (
    *("-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy", "-u"),
    *("--set-upstream-to", "--unset-upstream", "--edit-description", "-f", "--force"),
)
_BRANCH_LISTING = (
    *("--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"),
    *("-a", "-r", "--all", "--remotes", "--show-current", "-v", "-vv"),
)


def _branch(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has(*_BRANCH_CHANGING) or (p.pos and not p.has(*_BRANCH_LISTING)):
        return writes("git", [_repo(env, "git branch change")])
    return read_only("git", "git branch listing")


def _tag(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("-l", "--list", "-v", "--verify", "--contains", "--points-at") or not p.pos:
        return read_only("git", "git tag listing")
    return writes("git", [_repo(env, "git tag")])


def _remote(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if first in (None, "show", "get-url"):
        return read_only("git", "git remote listing")
    return writes("git", [env.fx(W, lit(".git/config"), f"git remote {first}")])


_CONFIG_READING = (
    *("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list"),
    *("--show-origin", "--show-scope", "--get-color", "--get-colorbool"),
)
_CONFIG_CHANGING = (
    *("--unset", "--unset-all", "--add", "--replace-all", "--remove-section"),
    *("--rename-section", "-e", "--edit"),
)


def _config(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if (
        p.has(*_CONFIG_READING)
        or first in ("get", "list")
        or (len(p.pos) == 1 and first not in ("set", "unset", "edit"))
    ):
        return read_only("git", "git config read")
    if not p.pos and not p.has(*_CONFIG_CHANGING):
        return read_only("git", "git config without a key")
    if p.has("--global"):
        target = Fx(W, "~/.gitconfig", resolve(".gitconfig", env.home), "git config --global")
    elif p.has("--system") or p.has("--file", "-f"):
        target = Fx(W, "", None, "git config --system / --file")
    else:
        target = env.fx(W, lit(".git/config"), "git config set")
    return writes("git", [target])


def _stash(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if _first(p) in ("list", "show"):
        return read_only("git", "git stash listing")
    return writes("git", [_repo(env, "git stash (index and working tree)")])


def _paths_after_dashdash(args: list[Word]) -> list[Word] | None:
    for i, arg in enumerate(args):
        if arg.value == "--":
            return args[i + 1 :]
    return None


def _checkout(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    """checkout and restore: the paths they restore, and the index / HEAD."""
    dashdash = _paths_after_dashdash(args)
    paths = dashdash
    if paths is None and sub == "restore":
        paths = p.pos
    if paths is None and sub == "checkout" and p.pos:
        # `git checkout REV PATH...` restores the PATHs; a lone word is a branch or a
        # file, and both readings count
        paths = p.pos[1:] or p.pos
    fx = env.fx_many(W, paths, f"git {sub} path") if paths else []
    if not paths or p.has("--staged", "-S") or (sub == "checkout" and dashdash is None):
        fx.append(_repo(env, f"git {sub}"))
    return writes("git", fx)


def _rm(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--cached"):
        return writes("git", [_repo(env, "git rm --cached (index)")])
    return writes("git", [*env.fx_many(D, p.pos, "git rm path"), _repo(env, "git rm index")])


def _mv(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if len(p.pos) < 2:
        return writes("git", [_repo(env, "git mv")])
    return writes(
        "git",
        env.fx_many(D, p.pos[:-1], "git mv source")
        + env.fx_many(W, p.pos[-1:], "git mv destination")
        + [_repo(env, "git mv")],
    )


def _clean(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("-n", "--dry-run"):
        return read_only("git", "git clean dry run")
    targets = _paths_after_dashdash(args) or p.pos or [lit(".")]
    return writes("git", env.fx_many(D, targets, "git clean untracked files"))


def _apply(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--check", "--stat", "--numstat", "--summary"):
        return read_only("git", "git apply check")
    if p.has("--cached"):
        return writes("git", [_repo(env, "git apply --cached")])
    return writes("git", [env.fx(W, lit("."), "git apply: files named in the patch")])


def _init(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if not p.pos:
        return writes("git", [_repo(env, "git init")])
    named = p.pos[0].literal
    return writes("git", [env.fx(W, lit(named + "/.git") if named else None, "git init")])


def _clone(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if len(p.pos) >= 2:
        return writes("git", env.fx_many(W, p.pos[1:2], "git clone destination"))
    url = p.pos[0].literal if p.pos else None
    name = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1] if url else ""
    name = name[:-4] if name.endswith(".git") else name
    return writes("git", [env.fx(W, lit(name) if name else None, "git clone destination")])


def _worktree(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if first == "list":
        return read_only("git", "git worktree list")
    kind = D if first == "remove" else W
    fx = (
        env.fx_many(kind, p.pos[1:2], f"git worktree {first}")
        if first in ("add", "remove", "move")
        else []
    )
    return writes("git", [*fx, _repo(env, f"git worktree {first}")])


def _submodule(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if first in (None, "status", "summary"):
        return read_only("git", "git submodule status")
    if first == "foreach":
        return opaque("git", "git submodule foreach runs commands")
    return writes("git", [env.fx(W, lit("."), f"git submodule {first}")])


SUBCOMMANDS: dict[str, Sub] = {
    **dict.fromkeys(GIT_READ_ONLY, _reads),
    **dict.fromkeys(_REPO_STATE, _repo_state),
    "branch": _branch,
    "tag": _tag,
    "remote": _remote,
    "config": _config,
    "stash": _stash,
    "checkout": _checkout,
    "restore": _checkout,
    "rm": _rm,
    "mv": _mv,
    "clean": _clean,
    "apply": _apply,
    "init": _init,
    "clone": _clone,
    "worktree": _worktree,
    "submodule": _submodule,
    "reflog": _reflog,
    "format-patch": _format_patch,
    "archive": _archive,
    "bundle": _bundle,
}


def git(prog: str, args: list[Word], env: Env) -> Outcome:
    top = parse(args, _GIT_TOP, stop_at_positional=True)
    if top.unknown:
        return opaque("git", f"git: option {top.unknown[0]} is not known")
    for name, value in top.opts:
        if name in ("--config-env", "--exec-path") and value is not None:
            return opaque("git", f"git {name} may run a command")
        if name == "-c" and (
            value is None
            or value.value is None
            or not value.value.lower().startswith(GIT_SAFE_CONFIG_PREFIXES)
        ):
            # core.pager, diff.external, alias.x=!cmd, ...: the value may be a command line
            setting = value.value if value is not None else None
            code = setting.partition("=")[2].removeprefix("!") if setting else None
            return runs_code("git", code or None, env, "git -c setting may run a command")
        if name == "-C":
            env = replace(env, cwd=resolve(value.literal if value else None, env.cwd))
        elif name in ("--git-dir", "--work-tree"):
            env = replace(env, cwd=None)
    if top.has("--version", "--help", "-h") or not top.rest:
        return read_only("git", "git without a subcommand")
    sub = top.rest[0].value
    sub_args = top.rest[1:]
    if sub is None:
        return opaque("git", "git subcommand is not a literal")
    p = split(sub_args, _SUB_VAL, _SUB_LONG)
    if p.has("-h", "--help"):
        return read_only("git", "help")
    handler = SUBCOMMANDS.get(sub)
    if handler is None:
        return opaque("git", f"git {sub}: unknown subcommand or alias")
    return handler(sub, p, sub_args, env)


HANDLERS = {"git": git}
