"""Rows for issue 12's table from attack round ten (ADR 0070), each observed in a throwaway
folder: what zsh (the shell macOS runs the Bash tool in) reads differently from Bash, run here
as ``zsh -f -c`` (the rows need zsh), and macOS's ``arch``, which runs its program (label-only:
Linux's arch refuses operands). ``reality_cases`` adds them to its ``ROWS``.

Observed here (zsh 5.9, Bash 5.2): zsh evaluates the count of shift, exit, return, break and
continue, and printf's numeric arguments (``%d``, ``%x``, ``%f``, a ``*`` width), as arithmetic,
and runs the command substitutions of a subscript in it (``path`` and ``argv`` are arrays in
every zsh); Bash refuses such a count. zsh's ``>!``, ``>>!``, ``&>!``, ``>&!`` write the word after
the ``!``; Bash writes a file named ``!`` (or ``!out``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reality_cases import Row

ZSH = ("zsh",)
# Bash refuses `shift 'path[$(touch x)]'` (numeric argument required) and runs nothing; the
# analysis answers for zsh as well, so that twin is no row here (a read-only row finds no write)
# inside the double quotes of `zsh -fc "..."`: zsh gets 'path[$(touch x)]'
ZSUB = "'path[\\$(touch x)]'"
WIN = "Windows only: Git Bash runs cmd.exe and the System32 programs"
MAC = "macOS only: arch(1) there runs its program (Linux's arch refuses operands)"


def rows() -> list[Row]:
    """The rows; ``reality_cases`` calls this once its helpers exist (it imports this module)."""
    from reality_cases import GIT, PATCH, R, W

    return [
        # --- 1. zsh evaluates a count or a number as arithmetic -----------------------------
        W("1", "f-zsh-shift-subscript", f'zsh -fc "shift {ZSUB}"', "x", needs=ZSH),
        W("1", "f-zsh-exit-argv", "zsh -fc \"exit 'argv[\\$(touch x)]'\"", "x", needs=ZSH),
        W("1", "f-zsh-return-subscript", f'zsh -fc "f() {{ return {ZSUB}; }}; f"', "x",
          needs=ZSH),
        W("1", "f-zsh-break-subscript", f'zsh -fc "for i in 1; do break {ZSUB}; done"', "x",
          needs=ZSH),
        W("1", "f-zsh-continue-subscript", f'zsh -fc "for i in 1; do continue {ZSUB}; done"',
          "x", needs=ZSH),
        W("1", "f-zsh-printf-d", f"zsh -fc \"printf %d {ZSUB}\"", "x", needs=ZSH),
        W("1", "f-zsh-printf-star", f"zsh -fc \"printf '%*s' {ZSUB} a\"", "x", needs=ZSH),
        W("1", "f-zsh-printf-x", f"zsh -fc \"printf -v n %x {ZSUB}\"", "x", needs=ZSH),
        W("1", "f-zsh-read-t", f'zsh -fc "read -t {ZSUB} x < /dev/null"', "x", needs=ZSH),
        W("1", "f-zsh-dollar-subscript", "zsh -fc \"a=(1 2); echo \\$a['path[\\$(touch x)]']\"",
          "x", needs=ZSH),
        W("1", "f-zsh-dollar-value-subscript",
          "zsh -fc \"x='path[\\$(touch x)]'; a=(1 2); echo \\$a[x]\"", needs=ZSH),
        R("1", "f-zsh-dollar-number-subscript", "zsh -fc 'a=(1 2); echo $a[1] $a[-1]'",
          needs=ZSH),
        R("1", "f-zsh-read-t-number", "zsh -fc 'read -t 0.1 x < /dev/null'", needs=ZSH),
        R("1", "f-zsh-printf-s", f"zsh -fc \"printf '%s\\n' {ZSUB}\"", needs=ZSH),
        R("1", "f-zsh-printf-c", f"zsh -fc \"printf '%c' {ZSUB}\"", needs=ZSH),
        R("1", "f-zsh-exit-status", "zsh -fc 'true; exit $?'", needs=ZSH),
        R("1", "f-zsh-printf-d-literal", "zsh -fc \"printf '%d %x\\n' 5 10\"", needs=ZSH),
        # --- 1. zsh's clobbering redirects write the word after the `!` ---------------------
        W("1", "f-zsh-gt-bang", "zsh -fc 'echo hi >! out'", "out", needs=ZSH),
        W("1", "f-zsh-gt-bang-glued", "zsh -fc 'echo hi >!out'", "out", needs=ZSH),
        W("1", "f-zsh-append-bang", "zsh -fc 'echo hi >>! out'", "out", needs=ZSH),
        W("1", "f-zsh-amp-gt-bang", "zsh -fc 'echo hi &>! out'", "out", needs=ZSH),
        W("1", "f-zsh-gt-amp-bang", "zsh -fc 'echo hi >&! out'", "out", needs=ZSH),
        W("1", "f-zsh-fd-gt-bang", "zsh -fc 'ls nothing 2>! err'", "err", needs=ZSH),
        W("1", "f-zsh-escaped-bang", "zsh -fc 'echo hi >\\! out'", "!", needs=ZSH),
        W("1", "f-zsh-bang-first", "zsh -fc '>! out echo hi'", "out", needs=ZSH),
        W("1", "f-zsh-bang-alone", "zsh -fc '>! out' < /dev/null", "out", needs=ZSH),
        W("1", "f-zsh-fd-bang-first", "zsh -fc '2>! err ls nothing'", "err", needs=ZSH),
        W("1", "f-bash-bang-first", ">! out echo hi", "!"),
        W("1", "f-bash-gt-bang", "echo hi >! out", "!"),
        W("1", "f-bash-gt-bang-glued", "echo hi >!out", "!out"),
        # --- 1. zsh's precommand modifiers run the command after them ------------------------
        W("1", "f-zsh-noglob", "zsh -fc 'noglob touch x'", "x", needs=ZSH),
        W("1", "f-zsh-nocorrect", "zsh -fc 'nocorrect touch x'", "x", needs=ZSH),
        W("1", "f-zsh-dash", "zsh -fc ': ; - touch x'", "x", needs=ZSH),
        R("1", "f-zsh-noglob-ls", "zsh -fc 'noglob ls'", needs=ZSH),
        # --- 1. wrappers that run a command after their options (and chrt/taskset's number) -
        W("1", "f-chrt", "chrt -o 0 touch x", "x", needs=("chrt",)),
        W("1", "f-taskset", "taskset 0x1 touch x", "x", needs=("taskset",)),
        W("1", "f-taskset-cpu-list", "taskset -c 0 touch x", "x", needs=("taskset",)),
        W("1", "f-setsid", "setsid -w touch x", "x", needs=("setsid",)),
        R("1", "f-chrt-max", "chrt -m", needs=("chrt",)),
        R("1", "f-taskset-ls", "taskset -c 0 ls", needs=("taskset",)),
        R("1", "f-setsid-ls", "setsid -w ls", needs=("setsid",)),
        # --- 2. git config writes the file --file names, abbreviated or clustered ----------
        W("2", "f-git-config-fil", "git config --fil=x a.b c", "x", seed=GIT),
        W("2", "f-git-config-fil-separate", "git config --fil x a.b c", "x", seed=GIT),
        W("2", "f-git-config-zf", "git config -zf x a.b c", "x", seed=GIT),
        W("2", "f-git-config-f-glued", "git config -fx a.b c", "x", seed=GIT),
        R("2", "f-git-config-f-get", "git config -f f --get a.b", seed=GIT),
        # --- 2. git in a subfolder writes the repository above -------------------------------
        W("2", "f-git-cd-config", "cd src && git config a.b c", ".git/config", seed=GIT),
        W("2", "f-git-C-config", "git -C src config a.b c", ".git/config", seed=GIT),
        R("2", "f-git-C-status", "git -C src log --oneline", seed=GIT),
        # --- 6. sqlite3 statements that write the file they name ----------------------------
        W("6", "f-sqlite-vacuum-into-readonly", "sqlite3 -readonly :memory: \"VACUUM INTO 'v'\"",
          "v", needs=("sqlite3",)),
        W("6", "f-sqlite-attach", "sqlite3 :memory: \"ATTACH 'x.db' AS y\"", "x.db",
          needs=("sqlite3",)),
        R("6", "f-sqlite-readonly-select", "sqlite3 -readonly :memory: 'select 1'",
          needs=("sqlite3",)),
        # --- 6. python -m: standard modules that write what their arguments name ------------
        W("6", "f-py-m-zipfile-create", "python3 -I -m zipfile -c z.zip f", "z.zip"),
        W("6", "f-py-m-tarfile", "python3 -I -m tarfile -c t.tar f && "
          "python3 -I -m tarfile -e t.tar d", "t.tar", "d"),
        W("6", "f-py-m-gzip", "python3 -I -m gzip f", "f.gz"),
        W("6", "f-py-m-zipapp", "python3 -I -m zipapp src -m main:x", "src.pyz"),
        W("6", "f-py-m-pydoc-w", "python3 -I -m pydoc -w json", "json.html"),
        W("6", "f-py-m-cprofile-o", "python3 -I -m cProfile -o prof.out src/main.py", "prof.out"),
        R("6", "f-py-m-pydoc-read", "python3 -I -m pydoc json", provable=False),
        R("6", "f-py-m-zipfile-list", "python3 -I -m zipfile -l src/main.py || true",
          provable=False),
        # --- 1. patch writes the files its diff names, below the folder it runs in ----------
        W("1", "f-patch-i", "patch -s -p0 -i p.diff", "f", seed=PATCH, needs=("patch",)),
        # --- 1. history -w FILE writes (an empty list truncates) FILE ------------------------
        W("1", "f-history-w", "history -w f", "f"),
        W("1", "f-history-a", "history -s x; history -a h", "h"),
        R("1", "f-history-list", "history"),
        # --- 1. Windows programs in Git Bash, cmd.exe's file commands -----------------------
        W("1", "f-cmd-del", "cmd //c del x", "x", label_only=WIN),
        W("1", "f-cmd-copy", "cmd //c copy a b", "b", label_only=WIN),
        W("1", "f-robocopy", "robocopy a b //E", "b", label_only=WIN),
        W("1", "f-xcopy", "xcopy a b //E //I", "b", label_only=WIN),
        R("1", "f-cmd-type", "cmd //c type f", label_only=WIN, provable=False),
        # --- 1. less -o FILE copies a piped input it shows to FILE (with a terminal) --------
        W("1", "f-less-o", "cat f | less -E -o l", "l", tty=True, needs=("less",)),
        W("1", "f-less-O-glued", "cat f | less -E -Ol", "l", tty=True, needs=("less",)),
        # --- 1. macOS arch runs its program --------------------------------------------------
        W("1", "f-arch-touch", "arch -x86_64 touch x", "x", label_only=MAC),
        W("1", "f-arch-shell", "arch -arm64 /bin/bash -c 'touch x'", "x", label_only=MAC),
        W("1", "f-arch-arch-name", "arch -arch arm64 tee out < f", "out", label_only=MAC),
        R("1", "f-arch", "arch"),
        R("1", "f-arch-ls", "arch -x86_64 ls", label_only=MAC),
    ]  # fmt: skip
