"""The options of git's subcommands whose mode or first operand decides whether they write
(``branch``, ``tag``, ``config``, ``stash``, ...): every option they take, and which of them
change the repository (ADR 0038). An option outside a table makes a listing ``opaque``."""

from __future__ import annotations

from orchestrator_boundary.bash.git_options import (
    DIFF_FLAGS,
    DIFF_LONGS,
    DIFF_OPTIONAL,
    DIFF_VALUED,
    REV_FLAGS,
    REV_LONGS,
    REV_VALUED,
    table,
)
from orchestrator_boundary.bash.words import Word

BRANCH = table(
    "aCcDdfilMmqrtv",
    "u",
    """list all remotes show-current verbose quiet abbrev[=] no-abbrev color[=] no-color
    column[=] no-column sort= merged[=] no-merged[=] contains[=] no-contains[=] points-at=
    format= ignore-case omit-empty delete move copy force create-reflog set-upstream-to=
    unset-upstream edit-description track[=] no-track recurse-submodules""",
)
BRANCH_CHANGING = (
    *("-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy", "-u"),
    *("--set-upstream-to", "--unset-upstream", "--edit-description", "-f", "--force", "-t"),
    *("--track", "--no-track", "--create-reflog", "--recurse-submodules"),
)
BRANCH_LISTING = (
    *("--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"),
    *("-a", "-r", "--all", "--remotes", "--show-current"),
)  # not -v: `git branch -v NAME` creates NAME (git lists only without names, or with these)
TAG = table(
    "lidafsev",
    "umF",
    """list sort= contains[=] no-contains[=] merged[=] no-merged[=] points-at= column[=]
    no-column format= color[=] no-color ignore-case omit-empty annotate sign no-sign local-user=
    force delete message= file= cleanup= create-reflog verify""",
    "n",
)
TAG_CHANGING = (
    *("-a", "-s", "-u", "-f", "-d", "-m", "-F", "-e", "--annotate", "--sign", "--local-user"),
    *("--force", "--delete", "--message", "--file", "--cleanup", "--create-reflog"),
)
TAG_LISTING = ("-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged")
TAG_LISTING_MORE = ("--points-at", "-n")
CONFIG = table(
    "lze",
    "f",
    """get get-all get-regexp get-urlmatch list show-origin show-scope get-color get-colorbool
    name-only null includes no-includes global system local worktree file= blob= type= no-type
    bool int bool-or-int path expiry-date default= fixed-value unset unset-all add replace-all
    remove-section rename-section edit""",
)
CONFIG_READING = (
    *("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list"),
    *("--get-color", "--get-colorbool"),
)
CONFIG_CHANGING = (
    *("--unset", "--unset-all", "--add", "--replace-all", "--remove-section"),
    *("--rename-section", "-e", "--edit"),
)
REMOTE = table("vn", "", "verbose push all")
STASH_SHOW = table(
    DIFF_FLAGS + "u",
    DIFF_VALUED,
    DIFF_LONGS + "include-untracked only-untracked no-include-untracked",
    DIFF_OPTIONAL,
)
CLEAN = table("ndxXqf", "e", "dry-run quiet exclude= force")
APPLY_CHECK = table(
    "vqzR",
    "p",
    """check stat numstat summary verbose quiet recount unidiff-zero allow-empty
    ignore-space-change ignore-whitespace whitespace= reverse exclude= include= directory=
    cached index no-add inaccurate-eof allow-overlap""",
    "C",
)
FORMAT_PATCH_STDOUT = table(
    DIFF_FLAGS + REV_FLAGS + "nNksv",
    DIFF_VALUED + REV_VALUED,
    DIFF_LONGS
    + REV_LONGS
    + """stdout numbered no-numbered start-number= numbered-files keep-subject signoff
    no-signoff cover-letter no-cover-letter subject-prefix= rfc reroll-count= to= no-to cc=
    no-cc from[=] no-from in-reply-to= attach[=] no-attach inline[=] thread[=] no-thread
    signature= no-signature signature-file= suffix= no-binary zero-commit base= no-base root
    interdiff= range-diff= creation-factor= cover-from-description= add-header= no-add-header
    ignore-if-in-upstream always no-stat force-in-body-from encode-email-headers
    no-encode-email-headers""",
    DIFF_OPTIONAL,
)
WORKTREE_LIST = table("vz", "", "porcelain verbose expire=")
SUBMODULE_STATUS = table("qn", "", "quiet cached recursive files summary-limit= for-status")
BUNDLE_READ = table("q", "", "quiet")


# Subcommands that rewrite the working tree: every tracked file may change (a branch switch, a
# hard reset, a merge), `.claude/settings.json` among them. `git checkout REV` and `git stash`
# are decided where they are parsed (git.py).
_TREE = frozenset(["merge", "rebase", "cherry-pick", "revert", "am", "pull", "filter-branch"])
_TREE_READS = {
    "bisect": ("log", "view", "visualize", "terms", "help"),
    "sparse-checkout": ("list",),
}
_CREATING = frozenset({"-c", "-C", "--create", "--force-create"})


def rewrites_tree(sub: str, values: list[str | None]) -> bool:
    """``git SUB`` with these argument values rewrites the working tree."""
    words = [v for v in values if v is None or v == "-" or not v.startswith("-")]
    flags = {v for v in values if v}
    if sub == "reset":
        return bool({"--hard", "--merge", "--keep"} & flags)
    if sub == "switch":  # `switch -c NEW` alone starts a branch where HEAD is
        return len(words) > (1 if _CREATING & flags else 0)
    if sub == "read-tree":
        return "-u" in flags
    if sub in _TREE_READS:
        return bool(words) and words[0] not in _TREE_READS[sub]
    return sub in _TREE


# `git maintenance register/unregister/start/stop` edit the user's global configuration (and
# start/stop a scheduler): a write in HOME besides the repository
_MAINTENANCE_GLOBAL = frozenset({"register", "unregister", "start", "stop"})


def global_config(sub: str, args: list[Word], home: str | None) -> list[Word]:
    """The files in HOME a repository-state subcommand writes (`~/.gitconfig`)."""
    words = [a.value for a in args if a.value is None or not a.value.startswith("-")]
    if sub == "maintenance" and words and (words[0] is None or words[0] in _MAINTENANCE_GLOBAL):
        return [Word("~/.gitconfig", home.rstrip("/") + "/.gitconfig" if home else None)]
    return []


def config_files(args: list[Word]) -> list[Word]:
    """The files `git config -f F`, `-zfF`, `--file=F` name; git takes any abbreviation from
    `--fil` (`--fil=F` writes F, observed), which the danger list reads as `--filters`."""
    found: list[Word] = []
    for i, arg in enumerate(args):
        value = arg.value or ""
        following = args[i + 1] if i + 1 < len(args) else Word(arg.text, None)
        name, eq, attached = value.partition("=")
        if len(name) >= 5 and "--file".startswith(name):
            found.append(Word(arg.text, attached) if eq else following)
        elif value.startswith("-") and not value.startswith("--"):
            letters = value[1:].lstrip("lze")  # the flags git config clusters before -f
            if letters[:1] == "f":
                found.append(Word(letters[1:], letters[1:]) if letters[1:] else following)
    return found
