"""Programs known not to modify files (when their output is not redirected)."""

from __future__ import annotations


def names(text: str) -> frozenset[str]:
    """The whitespace-separated names in ``text``."""
    return frozenset(text.split())


READ_ONLY_PROGRAMS = names(
    """
    ls ll la dir vdir cat tac head tail less more wc grep egrep fgrep rg ag ack stat file du df
    ps pgrep pidof top htop which whereis type pwd echo printf jq diff cmp comm sha256sum sha1sum
    sha512sum md5sum md5 cksum b2sum shasum tree env printenv true false test [ [[ : cd pushd popd
    export unset set shopt alias unalias read sleep date whoami id groups uname hostname basename
    dirname realpath readlink nproc free uptime cut tr paste column nl rev fold fmt expand
    unexpand od hexdump strings seq yes expr bc dc numfmt tput clear history declare local
    typeset readonly hash ulimit umask wait jobs fg bg lsof netstat ss ifconfig ip ping host dig
    nslookup getent locale arch sw_vers system_profiler vm_stat iostat vmstat lscpu lsblk
    findstr tasklist where zcat bzcat xzcat zgrep zless look join fc trap shift getopts
    let logname break continue return exit users who w last tty stty cal factor sha224sum
    sha384sum base32 xmllint
    """
)

# `git <sub>` that only read the repository.
GIT_READ_ONLY = names(
    """
    status log diff show rev-parse ls-files blame grep shortlog describe ls-tree ls-remote
    cat-file rev-list check-ignore check-attr cherry whatchanged reflog show-ref show-branch
    name-rev for-each-ref merge-base var help version count-objects fsck verify-commit
    verify-tag range-diff diff-tree diff-files diff-index
    """
)
