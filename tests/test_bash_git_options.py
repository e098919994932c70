"""git's subcommand options (ADR 0038): a reading subcommand is read_only only with options from
its harmless table; writing and running options are found under every abbreviation, stuck
value and negation git's parse-options accepts; anything else is opaque."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator_boundary.bash import EffectKind, Status, analyze
from orchestrator_boundary.bash.explain import explain
from orchestrator_boundary.bash.git_modes import (
    APPLY_CHECK,
    BRANCH,
    CLEAN,
    CONFIG,
    FORMAT_PATCH_STDOUT,
    TAG,
)
from orchestrator_boundary.bash.git_options import READING, REV_PARSE, RUNNING, WRITING

R, WR, OP = Status.READ_ONLY, Status.WRITES, Status.OPAQUE
GIT = (EffectKind.WRITE, "/w/p/.git")


def W(path: str | None) -> tuple[EffectKind, str | None]:
    return (EffectKind.WRITE, path)


SOMEWHERE = W(None)

CASES: list[tuple[str, str, Status, tuple[Any, ...]]] = [
    # --- harmless options, in every spelling git takes -------------------------------------
    ("status-short", "git status --short", R, ()),
    ("status-cluster", "git status -sb", R, ()),
    ("status-u-stuck", "git status -uno", R, ()),
    ("status-porcelain-v2", "git status --porcelain=v2 -z", R, ()),
    ("status-abbrev-unique", "git status --porc", R, ()),
    ("log-oneline-count", "git log --oneline -5", R, ()),
    ("log-n-stuck", "git log -n5", R, ()),
    ("log-n-separate", "git log -n 5 main", R, ()),
    ("log-author-separate", "git log --author alice --since '2 weeks ago'", R, ()),
    ("log-format", "git log --format='%h %s' --graph --all", R, ()),
    ("log-pickaxe", "git log -S needle -Gre -L 1,5:a.py", R, ()),
    ("log-negated", "git log --no-merges --no-decorate --no-walk", R, ()),
    ("log-negation-of-known", "git log --no-stat --no-abbrev-commit", R, ()),
    ("log-text-is-not-textconv", "git log -p --text", R, ()),
    ("diff-stat-width", "git diff --stat=100 -U5 -M90% --cached", R, ()),
    ("diff-abbrev-name-status", "git diff --name-st HEAD~1", R, ()),
    ("diff-no-ext-diff", "git diff --no-ext-diff --no-textconv", R, ()),
    ("diff-order-file-reads", "git diff -Oorder.txt", R, ()),
    ("diff-after-dashdash", "git diff -- --output=x", R, ()),
    ("diff-end-of-options", "git log --end-of-options --output=x", R, ()),
    ("show-stat", "git show --stat HEAD", R, ()),
    ("grep-options", "git grep -n -i -e TODO -3 --untracked -- src", R, ()),
    ("grep-h-is-a-flag", "git grep -h TODO", R, ()),
    ("ls-files-exclude", "git ls-files -o --exclude-standard -x '*.pyc'", R, ()),
    ("blame-contents-reads", "git blame --contents a.py -w -M -C a.py", R, ()),
    ("rev-parse", "git rev-parse --abbrev-ref HEAD --show-toplevel", R, ()),
    ("cat-file-batch", "git cat-file --batch-check='%(objectname)'", R, ()),
    ("for-each-ref", "git for-each-ref --format='%(refname)' --sort=-committerdate", R, ()),
    ("describe-tags", "git describe --tags --always --dirty", R, ()),
    ("shortlog-sn", "git shortlog -sne HEAD", R, ()),
    ("rev-list-count", "git rev-list --count --all", R, ()),
    ("reflog-show", "git reflog show --date=iso -n 3", R, ()),
    ("help-alone", "git diff -h", R, ()),
    ("help-long", "git log --help", R, ()),
    # --- writing options -----------------------------------------------------------------------
    ("diff-output", "git diff --output=o", WR, (W("/w/p/o"),)),
    ("diff-output-abbrev", "git diff --outp=x", WR, (W("/w/p/x"),)),
    ("log-output-abbrev-separate", "git log --outpu x", WR, (W("/w/p/x"),)),
    ("show-output-separate", "git show --output o HEAD", WR, (W("/w/p/o"),)),
    ("range-diff-output", "git range-diff --output=o a...b", WR, (W("/w/p/o"),)),
    ("stash-show-output", "git stash show --output=o", WR, (W("/w/p/o"),)),
    ("stash-list-output", "git stash list --outp=o", WR, (W("/w/p/o"),)),
    ("fsck-lost-found", "git fsck --lost", WR, (W("/w/p/.git/lost-found"),)),
    # a -h among other options is parsed with them: git writes the file, then prints usage
    ("help-after-output", "git diff --output=o -h", OP, (W("/w/p/o"),)),
    # --- options that run a program ------------------------------------------------------------
    ("show-ext-abbrev", "git show --ext", OP, ()),
    ("diff-ext-diff", "git diff --ext-diff", OP, ()),
    ("log-textconv", "git log -p --textconv", OP, ()),
    ("log-textconv-abbrev", "git log -p --textc", OP, ()),
    ("cat-file-filters", "git cat-file --filters HEAD:a", OP, ()),
    ("log-show-signature", "git log --show-sig", OP, ()),
    ("log-format-gpg", "git log --format='%h %G?'", OP, ()),
    ("log-pretty-gpg", "git log --pretty=format:%GS", OP, ()),
    ("grep-O", "git grep -Otouch alpha", OP, (SOMEWHERE,)),
    ("grep-O-in-cluster", "git grep -nO alpha", OP, (SOMEWHERE,)),
    ("grep-h-then-O", "git grep -h -Otouch alpha", OP, (SOMEWHERE,)),
    ("grep-open-abbrev", "git grep --open=vi alpha", OP, (SOMEWHERE,)),
    ("ls-remote-upload-pack", "git ls-remote --upload-pack=x origin", OP, (SOMEWHERE,)),
    ("ls-remote-exec-abbrev", "git ls-remote --exe=x origin", OP, (SOMEWHERE,)),
    ("verify-commit", "git verify-commit HEAD", OP, ()),
    ("tag-verify", "git tag -v v1", OP, ()),
    # --- unknown options -----------------------------------------------------------------------
    ("diff-unknown", "git diff --frobnicate", OP, ()),
    ("diff-ambiguous", "git diff --no-col", OP, ()),
    ("log-unknown-short", "git log -Y", OP, ()),
    ("status-unknown-in-cluster", "git status -sY", OP, ()),
    ("status-flag-with-value", "git status --short=yes", OP, ()),
    ("log-value-missing", "git log --author", OP, ()),
    ("log-remerge-diff", "git log --remerge-diff", OP, ()),
    ("branch-unknown", "git branch --frobnicate", OP, ()),
    ("config-unknown", "git config --frobnicate --get a.b", OP, ()),
    ("stash-list-unknown", "git stash list --frobnicate", OP, ()),
    ("clean-n-interactive", "git clean -n -i", OP, ()),
    ("help-web", "git help -w log", OP, ()),
    # --- a positional or a mode decides ------------------------------------------------------
    ("branch-list", "git branch -a -vv --sort=-committerdate", R, ()),
    ("branch-list-pattern", "git branch --list 'feat*'", R, ()),
    ("branch-contains", "git branch --contains HEAD", R, ()),
    ("branch-create", "git branch feature", WR, (GIT,)),
    ("branch-delete-abbrev", "git branch --del old", WR, (GIT,)),
    ("branch-move-cluster", "git branch -fm a b", WR, (GIT,)),
    ("branch-create-unknown", "git branch --frob new", OP, (GIT,)),
    ("tag-list", "git tag -l 'v*' -n3", R, ()),
    ("tag-create", "git tag v1", WR, (GIT,)),
    ("tag-delete", "git tag -d v1", WR, (GIT,)),
    ("tag-annotate-abbrev", "git tag --anno -mmsg v2", WR, (GIT,)),
    ("remote-v", "git remote -v", R, ()),
    ("remote-get-url", "git remote get-url --push origin", R, ()),
    ("remote-add", "git remote add o https://x", WR, (W("/w/p/.git/config"),)),
    ("config-get", "git config --get user.name", R, ()),
    ("config-key", "git config --type=bool core.bare", R, ()),
    ("config-list", "git config --global --list --show-origin", R, ()),
    ("config-set", "git config user.name bob", WR, (W("/w/p/.git/config"),)),
    ("config-unset-abbrev", "git config --unset-a user.name", WR, (W("/w/p/.git/config"),)),
    ("config-edit", "git config --edit", WR, (W("/w/p/.git/config"),)),
    ("stash-list", "git stash list --oneline", R, ()),
    ("stash-show", "git stash show -p stash@{0}", R, ()),
    ("stash-push", "git stash push -m wip", WR, (GIT, (EffectKind.WRITE, "/w/p"))),
    ("clean-dry-run", "git clean -nd", R, ()),
    ("clean-force", "git clean -fd", WR, ((EffectKind.DELETE, "/w/p"),)),
    ("apply-check", "git apply --check -p1 p.diff", R, ()),
    ("apply-stat-apply", "git apply --stat --apply p.diff", WR, (W("/w/p"),)),
    ("format-patch-stdout", "git format-patch --stdout -1", R, ()),
    ("format-patch-stdout-o", "git format-patch --stdout -o out -1", OP, ()),
    ("worktree-list", "git worktree list --porcelain", R, ()),
    ("submodule-status", "git submodule status --recursive", R, ()),
    ("bundle-verify", "git bundle verify -q b.bundle", R, ()),
]


@pytest.mark.parametrize(
    ("case_id", "command", "status", "effects"), CASES, ids=[c[0] for c in CASES]
)
def test_git_option(case_id: str, command: str, status: Status, effects: tuple[Any, ...]) -> None:
    result = analyze(command, cwd="/w/p", home="/home/u")
    got = (result.status, tuple((e.kind, e.resolved) for e in result.effects))
    assert got == (status, effects), explain(result)


TABLES = {
    **READING,
    "rev-parse": REV_PARSE,
    "branch": BRANCH,
    "tag": TAG,
    "config": CONFIG,
    "clean": CLEAN,
    "apply": APPLY_CHECK,
    "format-patch": FORMAT_PATCH_STDOUT,
}


@pytest.mark.parametrize("sub", sorted(TABLES))
def test_no_harmless_table_holds_a_writing_or_running_option(sub: str) -> None:
    known = TABLES[sub]
    names = known.long_flags | known.long_valued | known.long_optional
    assert not names & {*WRITING, *RUNNING} - {"--edit"}, sub
    if sub == "grep":
        assert "O" not in known.flags + known.valued + known.optional


def test_every_reading_subcommand_is_read_only_bare_and_opaque_with_an_unknown_option() -> None:
    for sub in READING:
        assert analyze(f"git {sub}", cwd="/w/p").status is R, sub
        assert analyze(f"git {sub} --frobnicate", cwd="/w/p").status is OP, sub
