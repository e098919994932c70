"""Rows for issue 12's table from attack round eleven (ADR 0077), each observed in a throwaway
folder with git 2.39, GNU tar 1.34 and Bash 5.2. ``tests/test_bash_r11_reality.py`` checks them
against reality and the analysis (``reality_cases`` does not list them: that file is shared).

Observed here: ``git status``, ``git diff``, ``git ls-files`` and ``git blame`` run the
repository's ``core.fsmonitor`` (with two arguments, ``2`` and a token: the hook's files are
named so), and ``git config --rename-section user core`` turns a harmless-looking
``user.fsmonitor`` into one; no pager starts without a terminal, even with ``git -p``. GNU tar
opens a ``host:file`` archive by running ``/usr/bin/rsh`` (absent here: label-only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reality_cases import Row

# the hook runs with two arguments; `; false` keeps git from reading its answer
FSM = "'touch x; false'"
ZSH = ("zsh",)
WIN = "Windows only: Git Bash runs cmd.exe and the System32 programs"
RSH = "Debian's GNU tar runs /usr/bin/rsh (often ssh, which runs ~/.ssh/config's ProxyCommand)"


def rows() -> list[Row]:
    """The rows (the helpers come from ``reality_cases``, imported when it exists)."""
    from reality_cases import GIT, NO_NET, TAR, O, R, W

    return [
        # --- 1. a setting git runs later, planted by `git config` ---------------------------
        W(
            "1",
            "g-git-config-fsmonitor-status",
            f"git config core.fsmonitor {FSM} && git status",
            "x",
            ".git/config",
            seed=GIT,
        ),
        W(
            "1",
            "g-git-config-set-fsmonitor-diff",
            f"git config core.fsmonitor {FSM}; git diff",
            "x",
            seed=GIT,
        ),
        W(
            "1",
            "g-git-config-textconv",
            "echo 'f diff=t' > .gitattributes && echo z >> f && "
            "git config diff.t.textconv 'touch x; cat' && git diff",
            "x",
            seed=GIT,
        ),
        W(
            "1",
            "g-git-config-alias-bang",
            "git config alias.st '!touch x' && git st",
            "x",
            seed=GIT,
        ),
        O(
            "1",
            "g-git-config-rename-section",
            f"git config user.fsmonitor {FSM} && git config --rename-section user core && "
            "git status",
            seed=GIT,
        ),
        O(
            "1",
            "g-git-config-include",
            "printf '[core]\\n\\tfsmonitor = touch x; false\\n' > c "
            "&& git config include.path ../c && git status",
            seed=GIT,
        ),
        R(
            "1",
            "g-git-p-log-no-tty",
            "git -c core.pager='touch x' -p log | cat",
            seed=GIT,
            provable=False,
        ),  # opaque: the analysis does not know there is no terminal
        R("1", "g-git-status-plain", "git status --porcelain", seed=GIT),
        # --- 4. a link made earlier in the command, in a folder (d is a folder, a a file) ---
        W("4", "g-ln-into-folder-slash", "ln -s ../a d/ && echo x > d/a", "a"),
        W("4", "g-ln-into-folder", "ln -s ../a d && echo x > d/a", "a"),
        W("4", "g-ln-t-folder", "ln -s -t d ../a && echo x > d/a", "a"),
        W("4", "g-ln-relative-r", "ln -sr a d/l && echo x > d/l", "a"),
        W("4", "g-ln-hard-into-folder", "ln a d/ && echo x >> d/a", "a"),
        # --- 4. a glob that matches (or passes through) a link made earlier ---------------
        W("4", "g-ln-then-glob", "ln -s ../a d/l && echo x | tee d/*", "a"),
        W("4", "g-ln-then-glob-redirect", "mkdir e && ln -s ../a e/l && echo x > e/*", "a"),
        W("4", "g-ln-folder-then-glob", "ln -s d e && echo x | tee e/*"),
        W("4", "g-ln-folder-then-glob-below", "ln -s d e && echo x | tee e/*.txt"),
        # --- 1. values run as code inside `bash -c`, and the shells' command tables --------
        W("1", "g-bash-c-value-run", "bash -c 'x=touch; $x p'", "p"),
        W("1", "g-sh-c-value-run", "sh -c 'x=touch; $x p'", "p"),
        W("1", "g-bash-c-eval-value", 'bash -c \'c="touch p"; eval "$c"\'', "p"),
        W("1", "g-bash-cmds", "BASH_CMDS[ls]=/usr/bin/touch; ls p", "p"),
        W("1", "g-bash-c-bash-cmds", "bash -c 'BASH_CMDS[ls]=/usr/bin/touch; ls p'", "p"),
        W("1", "g-zsh-commands", "zsh -fc 'commands[ls]=/usr/bin/touch; ls p'", "p", needs=ZSH),
        W("1", "g-zsh-functions", "zsh -fc 'functions[ls]=\"touch p\"; ls'", "p", needs=ZSH),
        R("1", "g-bash-cmds-ls", "BASH_CMDS[ls]=/bin/ls; ls f", provable=False),
        # --- 1. zsh's modules that write (the Bash tool runs zsh on macOS) ----------------
        W("1", "g-zsh-mapfile-write", "zsh -fc 'zmodload zsh/mapfile; mapfile[x]=y'", needs=ZSH),
        W(
            "1",
            "g-zsh-mapfile-unset",
            "zsh -fc 'zmodload zsh/mapfile; unset \"mapfile[a]\"'",
            needs=ZSH,
        ),
        W(
            "1",
            "g-zsh-mapfile-features",
            "zsh -fc 'zmodload -F zsh/mapfile p:mapfile; mapfile[x]=y'",
            needs=ZSH,
        ),
        R(
            "1", "g-zsh-mapfile-absent", "zsh -fc 'mapfile[x]=y' || true", needs=ZSH, provable=False
        ),  # without the module: an ordinary array, which zsh refuses
        R(
            "1",
            "g-zsh-zmodload-datetime",
            "zsh -fc 'zmodload zsh/datetime; echo $EPOCHSECONDS'",
            needs=ZSH,
        ),
        R("1", "g-zsh-zmodload-list", "zsh -fc 'zmodload -L'", needs=ZSH),
        # --- 1. sort's compressor: the output file was dropped -----------------------------
        W("1", "g-sort-compress-output", "sort --compress-program=gzip -o out f", "out"),
        W(
            "1",
            "g-sort-compress-big-output",
            "seq 1 200000 > big; sort --compress-program=gzip -S 64K -T . -o out big",
            "out",
        ),
        # --- 1. an opaque part no longer drops the write the text shows ---------------------
        W("1", "g-git-c-pager-output", "git -c core.pager=cat log --output=x", "x", seed=GIT),
        W(
            "1",
            "g-curl-K-output",
            "curl -K /dev/null -s -o x file:///etc/passwd",
            "x",
            needs=("curl",),
        ),
        W(
            "1",
            "g-wget-config-output",
            f"touch w.rc; wget --config=w.rc -q --spider -O x {NO_NET}",
            "x",
            needs=("wget",),
        ),
        W("1", "g-sed-e-then-w", "sed -e '1e true' -e 'w x' f", "x"),
        W("1", "g-perl-M-in-place", "perl -MPOSIX -i -pe 's/a/A/' f", "f"),
        # --- 1. /dev/fd is /proc/self/fd: its `..` is the process, its cwd the folder -------
        W("1", "g-dev-fd-dotdot-cwd", "echo x > /dev/fd/../cwd/f", "f"),
        W("1", "g-dev-fd-dotdot-cwd-cp", "cp a /dev/fd/../cwd/d/g.txt", "d/g.txt"),
        # --- 1. cmd.exe's lines: commands after for/if/@/(, sort /o, certutil -decode ------
        W("1", "g-cmd-for-do-del", 'cmd //c "for %i in (a b) do del %i"', label_only=WIN),
        W("1", "g-cmd-if-del", 'cmd //c "if exist f del f"', "f", label_only=WIN),
        W("1", "g-cmd-at-del", 'cmd //c "@del f"', "f", label_only=WIN),
        W("1", "g-cmd-paren-del", 'cmd //c "(del f)"', "f", label_only=WIN),
        W("1", "g-cmd-sort-o", 'cmd //c "sort f /o x"', "x", label_only=WIN),
        W("1", "g-cmd-certutil-decode", 'cmd //c "certutil -decode a x"', "x", label_only=WIN),
        # --- 1. a `<<-` heredoc body: Bash expands it, the grammar reads it as text ----------
        W("1", "g-heredoc-dash-substitution", "cat <<-EOF\n\t$(touch x)\n\tEOF", "x"),
        W("1", "g-heredoc-dash-subscript", "a=(1); cat <<-EOF\n\t${a[$(touch x)]}\n\tEOF", "x"),
        R("1", "g-heredoc-dash-plain", "cat <<-EOF\n\thello $HOME\n\tEOF"),
        R("1", "g-heredoc-dash-quoted", "cat <<-'EOF'\n\t$(touch x)\n\tEOF"),
        # --- 4. a function that moves the shell, zsh's last pipeline part (each writes
        # d/g.txt; the analysis leaves the folder unknown after them, the write unplaced) ---
        W("4", "g-function-cd-then-write", "f() { cd d; }; f; echo x > g.txt"),
        W("4", "g-source-cd-then-write", "echo 'cd d' > s.sh; . ./s.sh; echo x > g.txt"),
        W(
            "4",
            "g-alias-cd-then-write",
            "bash -O expand_aliases -c $'alias go=\"cd d\"\\ngo; echo x > g.txt'",
        ),
        W("4", "g-function-chain-cd", "g() { f; }; f() { cd d; }; g; echo x > g.txt"),
        W("4", "g-zsh-pipeline-cd", "zsh -fc 'true | cd d; echo x > g.txt'", needs=ZSH),
        # --- 1. node: a writer bound to another name ------------------------------------
        W(
            "1",
            "g-node-destructured-writer",
            "node -e \"const {writeFileSync: w} = require('fs'); w('x', '')\"",
            needs=("node",),
        ),
        W(
            "1",
            "g-node-aliased-writer",
            "node -e \"const w = require('fs').writeFileSync; w('x', '')\"",
            needs=("node",),
        ),
        R(
            "1",
            "g-node-destructured-reader",
            "node -e \"const {readFileSync: r} = require('fs'); r('f')\"",
            needs=("node",),
            provable=False,
        ),
        # --- 3. GNU tar's remote archives ---------------------------------------------------
        O("3", "g-tar-t-host", "tar -tf host:a.tar", label_only=RSH),
        O("3", "g-tar-t-host-old-style", "tar tf u@host:a.tar", label_only=RSH),
        R("3", "g-tar-t-force-local", "tar -tf x.tar --force-local", seed=TAR),
        R("3", "g-tar-t-dot-slash", "tar -tf ./x.tar", seed=TAR),
        # --- brace expansion changes how many words there are (ADR 0081) -------------------
        W("2", "g-brace-mv-suffix", "mv f{,.bak}", "f", "f.bak"),
        W("2", "g-brace-cp-suffix", "cp f{,.orig}", "f.orig"),
        W("2", "g-brace-mv-alternatives", "mv {f,g}", "f", "g"),
        W("2", "g-brace-touch-sequence", "touch x{1..3}", "x1", "x2", "x3"),
        W("2", "g-brace-touch-padded", "touch x{08..10}", "x08", "x09", "x10"),
        W("2", "g-brace-nested", "touch q{,.{a,b}}", "q", "q.a", "q.b"),
        W("2", "g-brace-echo-to-sh", "echo {touch,x} | sh", "x"),
        O("2", "g-brace-quoted-part", 'mv "f"{,.bak}'),
        O("2", "g-brace-too-many", "touch x{1..100}"),
        R("2", "g-brace-ls", "ls f{,}"),
        R("2", "g-brace-not-one", "cat {f} {} 2>/dev/null; true"),
    ]
