"""Rows for issue 12's table from attack round twelve (ADR 0082), each observed in a throwaway
folder with git 2.39, GNU coreutils and Bash 5.2. ``tests/test_bash_r12_reality.py`` checks
them against reality and the analysis (``reality_cases`` does not list them: that file is
shared).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reality_cases import Row

# a hook the template folder gives every repository git makes from it
TEMPLATE = (
    "mkdir -p t/hooks && printf '#!/bin/sh\\ntouch pwned\\n' > t/hooks/post-checkout && "
    "chmod +x t/hooks/post-checkout && "
)
DRIVER = "printf '#!/bin/sh\\ntouch x\\n' > d.sh && chmod +x d.sh && "


def rows() -> list[Row]:
    """The rows (the helpers come from ``reality_cases``, imported when it exists)."""
    from reality_cases import GIT, GIT_DIRTY, O, R, W

    return [
        # --- 1. the one table of git's program keys ---------------------------------------
        W(
            "1",
            "h-git-config-diff-external",
            DRIVER + "git config diff.external ./d.sh && echo z >> f && git diff",
            ".git/config",
            "d.sh",
            seed=GIT,
        ),
        O(
            "1",
            "h-git-c-template-clone",
            TEMPLATE + 'git -c init.templateDir="$PWD/t" clone -q . c',
            seed=GIT,
        ),
        # --- 4. a wrapper's or a tracer's own writes --------------------------------------
        W("4", "h-strace-o", "strace -o o true", "o", needs=("strace",)),
        W("4", "h-strace-cluster", "strace -fo o true", "o", needs=("strace",)),
        W("4", "h-strace-long", "strace --output=o true", "o", needs=("strace",)),
        W("4", "h-strace-ff", "strace -ff -o t sh -c true", needs=("strace",)),
        W("4", "h-strace-pipe", "strace -o '|cat > o' true", "o", needs=("strace",)),
        W("4", "h-valgrind-log", "valgrind -q --log-file=v true", "v", needs=("valgrind",)),
        W("4", "h-valgrind-callgrind", "valgrind -q --tool=callgrind true", needs=("valgrind",)),
        W("4", "h-flock-c", "flock L -c 'touch x'", "L", "x"),
        O("4", "h-script-nohup", "script -qc 'nohup true' /dev/null", needs=("script",)),
        O("4", "h-unbuffer-nohup", "unbuffer nohup true", needs=("unbuffer",)),
        R("4", "h-nohup-no-terminal", "nohup true"),
        # --- 2. brace expansion in a word partly quoted ------------------------------------
        W("2", "h-brace-quoted-prefix", 'mv "d/g.txt"{,.bak}', "d/g.txt", "d/g.txt.bak"),
        W("2", "h-brace-single-quoted", "mv 'd'/g.txt{,.x}", "d/g.txt", "d/g.txt.x"),
        W("2", "h-brace-quoted-item", "cp a{,'b'}", "ab"),
        W("2", "h-brace-quoted-comma", 'touch x{a,"b,c"}', "xa", "xb,c"),
        O("2", "h-brace-beside-expansion", "mv d/g.txt$1{,.bak}"),
        R("2", "h-brace-all-quoted", "mv 'a{,.x}' 2>/dev/null || true", provable=False),
        # --- 3. a .git file that points git at another repository -------------------------
        W(
            "3",
            "h-gitlink-fsmonitor",
            "git init -q r2 && git -C r2 config core.fsmonitor 'touch x; false' && mkdir s && "
            "echo 'gitdir: ../r2/.git' > s/.git && cd s && git status",
            "s/.git",
            "s/x",
            seed=GIT,
        ),
        # --- transport programs named on git's command line --------------------------------
        W(
            "1",
            "h-git-fetch-upload-pack",
            "git fetch -q --upload-pack='touch y; git-upload-pack' .",
            "y",
            seed=GIT,
        ),
        W("1", "h-git-clone-u", "git clone -q -u 'touch y; git-upload-pack' . z", "y", seed=GIT),
        W(
            "1",
            "h-git-push-receive-pack",
            "git push -q --receive-pack='touch y; git-receive-pack' . HEAD:refs/heads/x",
            "y",
            seed=GIT,
        ),
        W(
            "1",
            "h-git-ext-remote",
            "GIT_ALLOW_PROTOCOL=ext git fetch -q 'ext::sh -c touch% y' 2>/dev/null || true",
            "y",
            seed=GIT,
        ),
        # --- 5. pathspecs without case, set by the command -------------------------------
        O("5", "h-icase-prefix", "GIT_ICASE_PATHSPECS=1 git checkout -- F", seed=GIT_DIRTY),
        O("5", "h-icase-export", "export GIT_ICASE_PATHSPECS=1; git restore F", seed=GIT_DIRTY),
        O("5", "h-icase-option", "git --icase-pathspecs checkout -- F", seed=GIT_DIRTY),
        # --- a word the grammar splits at a backslash (Bash reads one) -----------------------
        O("0", "h-split-escape-quote", "cp a 'd/'\\g.txt"),
        O("0", "h-split-escape-assignment", "x=''\\b rm a"),
        O("0", "h-escaped-blank-folder", "mkdir ' ' && echo x > \\ /../a"),
        O("0", "h-split-dollar", "mkdir -p e && X=/.. && Y= && cp f e${X}$Y/a"),
    ]
