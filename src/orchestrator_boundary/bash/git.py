"""git: read-only subcommands vs the ones that change the repository or the working tree."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash.git_modes import (
    APPLY_CHECK,
    BRANCH,
    BRANCH_CHANGING,
    BRANCH_LISTING,
    BUNDLE_READ,
    CLEAN,
    CONFIG,
    CONFIG_CHANGING,
    CONFIG_READING,
    FORMAT_PATCH_STDOUT,
    REMOTE,
    STASH_SHOW,
    SUBMODULE_STATUS,
    TAG,
    TAG_CHANGING,
    TAG_LISTING,
    TAG_LISTING_MORE,
    WORKTREE_LIST,
    config_files,
    global_config,
    rewrites_tree,
)
from orchestrator_boundary.bash.git_options import READING, RUNS_TEXT, WRITING, Judged, judge
from orchestrator_boundary.bash.git_pathspec import pathspecs
from orchestrator_boundary.bash.git_settings import hidden_setting, planted, setting, with_settings
from orchestrator_boundary.bash.git_transport import transport
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.opts import Parsed, split
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    checked,
    opaque,
    read_only,
    writes,
)
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.words import Word, lit
from orchestrator_boundary.values import replace

W, D = EffectKind.WRITE, EffectKind.DELETE
_REPO_STATE = names(
    """
    add commit merge rebase cherry-pick revert am pull fetch push switch reset gc prune notes
    update-index update-ref symbolic-ref replace bisect filter-branch sparse-checkout
    maintenance repack commit-tree mktag mktree write-tree read-tree pack-refs stage
    """
)
# git's own options (no abbreviations); one not known could hide the subcommand: opaque
_GIT_TOP = spec(
    "pPvh",
    "Cc",
    """exec-path[=] html-path man-path info-path paginate no-pager git-dir= work-tree=
    namespace= bare no-replace-objects no-lazy-fetch no-optional-locks no-advice
    literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs list-cmds= attr-source=
    config-env= super-prefix= version help""",
)
_SUB_VAL = "mbBFCSUOXsjfnu"  # short options that take a value in common subcommands
_SUB_LONG = names(
    """
    --message --file --author --date --branch --depth --origin --template --reference
    --separate-git-dir --config --orphan --upstream --onto --strategy --strategy-option
    --reuse-message --fixup --squash --output --output-directory
    """
)


Sub = Callable[[str, Parsed, list[Word], Env], Outcome]


def _repo(env: Env, source: str) -> Fx:
    return env.fx(W, lit(".git"), source)


def _first(p: Parsed) -> str | None:
    return p.pos[0].value if p.pos else None


def _verdict(sub: str, j: Judged, env: Env, note: str, fx: list[Fx] | None = None) -> Outcome:
    """read_only only when every option of ``git SUB`` is in its harmless table (ADR 0038)."""
    found = list(fx or ())
    if j.writing:
        named = [v for name, v in j.parsed.opts if name in WRITING[:2] and v is not None]
        if j.parsed.has("--lost-found"):
            named.append(lit(".git/lost-found"))
        found += env.fx_many(W, named, f"git {sub} {j.writing}") or [
            Fx(W, "", None, f"git {sub} {j.writing}")
        ]
    if j.running and (j.running == "-O" or any(n.startswith(j.running) for n in RUNS_TEXT)):
        # the program runs on files the analysis cannot name: a write somewhere
        found.append(Fx(W, "", None, f"git {sub} {j.running}: a program run by git"))
        return opaque("git", f"git {sub} {j.running} runs a command", found)
    if j.running or _verifies(j):
        why = j.running or "%G (gpg)"
        return opaque("git", f"git {sub} {why} runs a program the configuration names", found)
    if j.unknown:
        return opaque("git", f"git {sub}: option {j.unknown[0]} is not known", found)
    return writes("git", found, note)


def _verifies(j: Judged) -> bool:
    """A pretty format with %G verifies signatures: it runs gpg (gpg.program)."""
    formats = j.parsed.values("--format", "--pretty")
    return any(v is None or v.value is None or "%G" in v.value for v in formats if v is not None)


def _reads(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    return _verdict(sub, judge(sub, args, READING[sub]), env, f"git {sub} reads only")


def _reflog(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if _first(p) in ("expire", "delete"):
        return writes("git", [_repo(env, f"git reflog {_first(p)}")])
    return _reads(sub, p, args, env)


def _format_patch(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--stdout"):
        j = judge(sub, args, FORMAT_PATCH_STDOUT)
        if j.parsed.has("--stdout"):
            return _verdict(sub, j, env, "git format-patch --stdout")
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
        return _verdict(sub, judge(sub, args, BUNDLE_READ), env, f"git bundle {first}")
    if first == "create":
        return writes(
            "git", env.fx_many(W, p.pos[1:2], "git bundle file") or [Fx(W, "", None, "git bundle")]
        )
    return writes("git", [_repo(env, f"git bundle {first}")])


def _gpg(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    return opaque("git", f"git {sub} runs gpg (gpg.program), which keeps its own files")


def _tree(env: Env, sub: str) -> Fx:  # the working tree, as the folder the command runs in
    return env.fx(W, lit("."), f"git {sub} rewrites the working tree")


def _repo_state(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    tree = [_tree(env, sub)] if rewrites_tree(sub, [a.value for a in args]) else []
    home = [env.fx(W, w, "git global configuration") for w in global_config(sub, args, env.home)]
    return writes("git", [_repo(env, f"git {sub}"), *tree, *home])


def _branch(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    j = judge(sub, args, BRANCH)
    q = j.parsed
    if q.has(*BRANCH_CHANGING) or (q.pos and not q.has(*BRANCH_LISTING)):
        return checked("git", j.unknown, writes("git", [_repo(env, "git branch change")]))
    return _verdict(sub, j, env, "git branch listing")


def _tag(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    j = judge(sub, args, TAG)
    q = j.parsed
    if q.has("-v", "--verify"):
        return _gpg("tag --verify", q, args, env)
    if q.has(*TAG_CHANGING) or (q.pos and not q.has(*TAG_LISTING, *TAG_LISTING_MORE)):
        return checked("git", j.unknown, writes("git", [_repo(env, "git tag")]))
    return _verdict(sub, j, env, "git tag listing")


def _remote(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    j = judge(sub, args, REMOTE)
    first = _first(j.parsed)
    if first in (None, "show", "get-url"):
        return _verdict(sub, j, env, "git remote listing")
    return writes("git", [env.fx(W, lit(".git/config"), f"git remote {first}")])


def _config(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    j = judge(sub, args, CONFIG)
    q = j.parsed
    first = _first(q)
    if not q.has(*CONFIG_CHANGING) and (
        q.has(*CONFIG_READING)
        or first in ("get", "list")
        or (len(q.pos) == 1 and first not in ("set", "unset", "edit"))
        or not q.pos
    ):
        return _verdict(sub, j, env, "git config read")
    files = config_files(args)  # `--fil=F` too, which the danger list reads as --filters
    if q.has("--global"):
        targets = [Fx(W, "~/.gitconfig", resolve(".gitconfig", env.home), "git config --global")]
    elif q.has("--system") or files:
        targets = env.fx_many(W, files, "git config --file") or [Fx(W, "", None, "--system")]
    else:
        targets = [env.fx(W, lit(".git/config"), "git config set")]
    unplaced, later = planted(q, env)  # a program git runs later: its writes (ADR 0077)
    found = replace(writes("git", [*targets, *unplaced]), inner=later)
    return checked("git", [*j.unknown, *filter(None, [j.running])], found)


def _stash(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    first = _first(p)
    if first in ("list", "show") and args and args[0].value == first:
        known = READING["log"] if first == "list" else STASH_SHOW
        return _verdict(sub, judge(sub, args[1:], known), env, f"git stash {first}")
    if first in ("drop", "clear", "create", "store"):  # the stash list only
        return writes("git", [_repo(env, f"git stash {first}")])
    return writes("git", [_repo(env, "git stash (index)"), _tree(env, "stash")])


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
    fx = pathspecs(env, W, paths, f"git {sub} path") if paths and not _index_only(sub, p) else []
    if not paths or p.has("--staged", "-S") or (sub == "checkout" and dashdash is None):
        fx.append(_repo(env, f"git {sub}"))
    if sub == "checkout" and dashdash is None and len(p.pos) == 1:  # a branch or a commit
        fx.append(_tree(env, sub))
    return writes("git", fx)


def _index_only(sub: str, p: Parsed) -> bool:  # restore --staged (-S may hide -W: not taken)
    names = {name for name, _ in p.opts} - {"--source", "--quiet", "-s", "-q"}
    return sub == "restore" and names == {"--staged"}


def _rm(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    if p.has("--cached"):
        return writes("git", [_repo(env, "git rm --cached (index)")])
    return writes("git", [*pathspecs(env, D, p.pos, "git rm path"), _repo(env, "git rm index")])


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
    j = judge(sub, args, CLEAN)
    if j.parsed.has("-n", "--dry-run"):
        return _verdict(sub, j, env, "git clean dry run")
    targets = _paths_after_dashdash(args) or p.pos or [lit(".")]
    return writes("git", pathspecs(env, D, targets, "git clean untracked files"))


def _apply(sub: str, p: Parsed, args: list[Word], env: Env) -> Outcome:
    j = judge(sub, args, APPLY_CHECK)
    if j.parsed.has("--check", "--stat", "--numstat", "--summary") and not j.unknown:
        return _verdict(sub, j, env, "git apply check")
    if p.has("--cached") and not p.has("--index"):
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
        return _verdict(sub, judge(sub, args, WORKTREE_LIST), env, "git worktree list")
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
        return _verdict(sub, judge(sub, args, SUBMODULE_STATUS), env, "git submodule status")
    if first == "foreach":
        return opaque("git", "git submodule foreach runs commands")
    return writes("git", [env.fx(W, lit("."), f"git submodule {first}")])


SUBCOMMANDS: dict[str, Sub] = {
    **dict.fromkeys(READING, _reads),
    **dict.fromkeys(("verify-commit", "verify-tag"), _gpg),
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
    ran: list[Outcome] = []  # core.fsmonitor, core.pager, diff.external, ...
    for name, value in top.opts:
        if name == "--exec-path" and value is not None:
            return opaque("git", f"git {name} may run a command")
        found = setting(name, value, env) if name in ("-c", "--config-env") else None
        ran += [found] if found is not None else []
        if name == "-C":
            env = replace(env, cwd=resolve(value.literal if value else None, env.cwd))
        elif name in ("--git-dir", "--work-tree"):
            env = replace(env, cwd=None)
    if top.has("--version", "--help", "-h") or not top.rest:
        return with_settings(ran, read_only("git", "git without a subcommand"))
    outcome = with_settings(ran, _git_sub(top.rest, env))  # --output kept (ADR 0077)
    if top.has("--git-dir") and outcome.status in (Status.READ_ONLY, Status.WRITES):
        # another repository's configuration: its core.fsmonitor, hooks, pager and drivers
        # run (observed: `git --git-dir=x.git --work-tree=. status` ran x.git's fsmonitor),
        # as with GIT_DIR (attack round C)
        note = "git --git-dir: that repository's configuration may run programs"
        return Outcome("git", Status.OPAQUE, outcome.fx, note, outcome.inner, outcome.script)
    return outcome


def _git_sub(rest: list[Word], env: Env) -> Outcome:
    sub = rest[0].value
    sub_args = rest[1:]
    if sub is None:
        return hidden_setting(rest[0]) or opaque("git", "git subcommand is not a literal")
    first = sub_args[0].value if sub_args else None
    if first == "--help" or (first == "-h" and len(sub_args) == 1):
        # git turns `git SUB --help` into `git help SUB`, and `-h` alone prints the usage; a
        # `-h` among other options is parsed with them (`git diff --output=f -h` writes f)
        return read_only("git", "help")
    p = split(sub_args, _SUB_VAL, _SUB_LONG)
    handler = SUBCOMMANDS.get(sub)
    if handler is None:
        return opaque("git", f"git {sub}: unknown subcommand or alias")
    return transport(sub, sub_args, env, handler(sub, p, sub_args, env))


HANDLERS = {"git": git}
