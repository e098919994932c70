"""Attack round ten on the Bash analysis (ADR 0070): what zsh, the shell macOS runs the Bash
tool in, reads differently from Bash, and a macOS wrapper the analysis took for a printer.

- zsh evaluates the count of ``shift``, ``exit``, ``return``, ``break`` and ``continue``, and
  every argument ``printf`` formats as a number, as arithmetic; a subscript in it is expanded
  first, so ``shift 'path[$(touch x)]'`` runs ``touch x``. These were ``read_only``.
- zsh reads ``>!``, ``>>!``, ``&>!``, ``>&!`` as ``>|``: ``cat f >! .claude/settings.json``
  writes the settings; the analysis named a file ``!`` only (Bash's reading).
- macOS's ``arch -x86_64 CMD`` runs CMD; ``arch`` was a read-only printer.

The Bash rows were each observed (zsh 5.9, Bash 5.2; ``arch`` from its macOS manual, label-only
in ``tests/reality_cases_attack_f.py``). Each finding row failed before its fix; each control
row keeps its answer. A ``None`` among the named paths is a write whose target is unknown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_holes import Case, analysed, check, table
from harden_support import bash_violation

from orchestrator_boundary.bash import Status

R, WR, OP = Status.READ_ONLY, Status.WRITES, Status.OPAQUE
SUB = "'path[$(touch /w/p/x)]'"

# --- zsh's arithmetic arguments ----------------------------------------------------------
MATH: list[Case] = [
    ("shift-subscript", f"shift {SUB}", OP, ("/w/p/x",)),
    ("exit-subscript", f"exit {SUB}", OP, ("/w/p/x",)),
    ("return-subscript", f"f() {{ return {SUB}; }}; f", OP, ("/w/p/x",)),
    ("break-subscript", f"for i in 1; do break {SUB}; done", OP, ("/w/p/x",)),
    ("continue-subscript", f"for i in 1; do continue {SUB}; done", OP, ("/w/p/x",)),
    ("argv-subscript-relative", "exit 'argv[$(touch x)]'", OP, ("/w/p/x",)),
    ("printf-d", f"printf '%d' {SUB}", OP, ("/w/p/x",)),
    ("printf-star-width", f"printf '%*s' {SUB} a", OP, ("/w/p/x",)),
    ("printf-v-x", f"printf -v n '%x' {SUB}", OP, ("/w/p/x",)),
    ("printf-dashdash-f", f"printf -- '%.1f' {SUB}", OP, ("/w/p/x",)),
    ("printf-positional", f"printf '%1$d' {SUB}", OP, ("/w/p/x",)),
    ("printf-computed-format", f'printf "$F" {SUB}', OP, ()),
    # a value the text does not show may hold such a subscript (`$(( $x ))` is opaque too)
    ("shift-variable", 'shift "$n"', OP, ()),
    ("exit-substitution", "exit $(cat f)", OP, ()),
    ("printf-d-variable", "printf '%d\\n' \"$n\"", OP, ()),
    ("shift-glob", "shift a[1]", OP, ()),
    # controls: plain counts, numbers the shell gives, formats with no number
    ("shift", "shift", R, ()),
    ("shift-2", "shift 2", R, ()),
    ("exit-status", "exit $?", R, ()),
    ("exit-status-quoted", 'exit "$?"', R, ()),
    ("exit-pipestatus", "exit ${PIPESTATUS[0]}", R, ()),
    ("exit-count", "exit $#", R, ()),
    ("break-2", "for i in 1; do break 2; done", R, ()),
    ("printf-s-subscript", f"printf '%s\\n' {SUB}", R, ()),
    ("printf-s-variable", "printf '%s\\n' \"$n\"", R, ()),
    ("printf-d-literal", "printf '%d %05.2f\\n' 5 3.14", R, ()),
    ("printf-percent-only", "printf '100%%\\n'", R, ()),
    ("printf-c", f"printf '%c' {SUB}", R, ()),
    # zsh's read -t TIMEOUT is arithmetic too; `$NAME[...]` subscripts the parameter
    ("read-t-subscript", f"read -t {SUB} x < /dev/null", OP, ("/w/p/x",)),
    ("read-t-variable", 'read -t "$T" x', OP, ()),
    ("dollar-name-subscript", "a=(1 2); echo $a['path[$(touch /w/p/x)]']", OP, ("/w/p/x",)),
    ("dollar-name-value-subscript", 'echo "$a[i]"', OP, ()),
    ("dollar-name-numbers", "echo $a[1] $a[-1] $a[2,3]", R, ()),
    ("dollar-path-subscript", "echo \"$path['$(touch /w/p/x)']\"", OP, ("/w/p/x",)),
    ("read-t-number", "read -rt 0.5 x", R, ()),
    ("dollar-name-plain-subscript", "echo $a[1] ${a[2]}", R, ()),
    ("quoted-text", "grep 'x[$(y)]' f", R, ()),
]  # fmt: skip

# --- zsh's clobbering redirects --------------------------------------------------------------
CLOBBER: list[Case] = [
    ("gt-bang", "echo hi >! out", WR, ("/w/p/out", "/w/p/!")),
    ("gt-bang-glued", "echo hi >!out", WR, ("/w/p/out", "/w/p/!out")),
    ("append-bang", "echo hi >>! out", WR, ("/w/p/out",)),
    ("amp-gt-bang", "make &>! build.log", OP, ("/w/p/build.log",)),
    ("gt-amp-bang", "echo hi >&! out", WR, ("/w/p/out",)),
    ("fd-gt-bang", "ls 2>! err.txt", WR, ("/w/p/err.txt",)),
    ("bang-quoted-target", 'echo hi >! "a b"', WR, ("/w/p/a b",)),
    ("bang-home", "echo hi >!~/x", WR, ("/home/u/x",)),
    ("bang-variable", 'echo hi >! "$F"', WR, (None,)),
    ("bang-settings", "cat f >! .claude/settings.json", WR, ("/w/p/.claude/settings.json",)),
    # `>! F CMD`: zsh writes F, the word Bash runs, and runs CMD (with none, cat)
    ("bang-first", ">! out ls -la", OP, ("/w/p/out", "/w/p/!")),
    ("bang-first-alone", ">! out", OP, ("/w/p/out",)),
    ("bang-first-fd", "2>! err ls", OP, ("/w/p/err",)),
    ("bang-first-runs", ">! x rm -rf src", OP, ("/w/p/x", "/w/p/src")),
    ("bang-first-program", ">! rm -rf src", OP, ("/w/p/rm", "/w/p/src")),
    # controls: Bash's own forms, a quoted `!`, a device
    ("gt", "echo hi > out", WR, ("/w/p/out",)),
    ("gt-pipe", "echo hi >| out", WR, ("/w/p/out",)),
    ("escaped-bang", "echo hi >\\! out", WR, ("/w/p/!",)),
    ("bang-dev-null", "ls >! /dev/null", WR, ("/w/p/!",)),
    ("dup", "echo hi 1>&2", R, ()),
]  # fmt: skip

# --- zsh's precommand modifiers run the command after them -----------------------------------
PRECOMMAND: list[Case] = [
    ("noglob-touch", "noglob touch x", WR, ("/w/p/x",)),
    ("nocorrect-rm", "nocorrect rm -rf src", WR, ("/w/p/src",)),
    ("dash-touch", ": ; - touch x", WR, ("/w/p/x",)),
    ("noglob-dash-cp", "noglob - cp f .claude/settings.json", WR, ("/w/p/.claude/settings.json",)),
    ("noglob-pattern", "noglob rm *.txt", WR, ()),
    # controls: read-only commands stay read-only
    ("noglob-git-status", "noglob git status", R, ()),
    ("nocorrect-ls", "nocorrect ls -la", R, ()),
    ("dash-ls", ": ; - ls", R, ()),
]  # fmt: skip

# --- wrappers that were opaque with no effect: the write passed with bash.opaque = allow -------
WRAPPERS: list[Case] = [
    ("chrt-priority", "chrt -o 0 touch x", WR, ("/w/p/x",)),
    ("chrt-bare-priority", "chrt 10 rm -rf src", WR, ("/w/p/src",)),
    ("taskset-mask", "taskset 0x1 tee out", WR, ("/w/p/out",)),
    ("taskset-cpu-list", "taskset -c 0,1 cp a src/b", WR, ("/w/p/src/b",)),
    ("setsid", "setsid tee out", WR, ("/w/p/out",)),
    ("setsid-fork", "setsid -f touch x", WR, ("/w/p/x",)),
    ("chronic", "chronic touch x", WR, ("/w/p/x",)),
    ("winpty", "winpty python -c \"open('x', 'w')\"", WR, ("/w/p/x",)),
    ("winpty-unknown-option", "winpty -Xallow-non-tty touch x", OP, ()),
    # controls
    ("chrt-pid", "chrt -p 1234", R, ()),
    ("chrt-max", "chrt -m", R, ()),
    ("taskset-pid", "taskset -p 1234", R, ()),
    ("taskset-ls", "taskset -c 1 ls", R, ()),
    ("setsid-wait-ls", "setsid -w ls", R, ()),
    ("winpty-ls", "winpty ls", R, ()),
]  # fmt: skip

# --- PowerShell: .NET methods that write, called by name (label-only: no PowerShell here) ------
POWERSHELL: list[Case] = [
    ("ps-delete-result", "(Get-Item x).Delete()", OP, (None,)),
    ("ps-moveto", "(gi x).MoveTo('y')", OP, (None,)),
    ("ps-copyto-variable", "$f = gi x; $f.CopyTo('y')", OP, (None,)),
    ("ps-member-name", "gci src | % Delete", OP, (None,)),
    ("ps-member-name-param", "ls | ForEach-Object -MemberName Delete", OP, (None,)),
    ("ps-foreach-alias", "gci *.log | foreach Delete", OP, (None,)),
    ("ps-block-delete", "Get-ChildItem | % { $_.Delete() }", OP, (None,)),
    ("ps-download-file", "(New-Object Net.WebClient).DownloadFile('u', 'x')", OP, (None,)),
    ("ps-xml-save", "$x = [xml](gc a.xml); $x.Save('a.xml')", OP, (None,)),
    # controls: methods and members that only read or make a new value
    ("ps-string-replace", "(gc f).Replace('a', 'b')", OP, ()),
    ("ps-to-string", "(Get-Date).ToString('yyyy')", OP, ()),
    ("ps-member-name-read", "gci | % FullName", OP, ()),
    ("ps-block-read", "gci | % { $_.Name }", R, ()),
]  # fmt: skip

# --- git config's file, however the option is spelled ----------------------------------------
GIT_CONFIG: list[Case] = [
    ("config-fil", "git config --fil=x a.b c", OP, ("/w/p/x",)),
    ("config-fil-separate", "git config --fil x a.b c", OP, ("/w/p/x",)),
    ("config-file", "git config --file=x a.b c", WR, ("/w/p/x",)),
    ("config-f", "git config -f x a.b c", WR, ("/w/p/x",)),
    ("config-f-glued", "git config -fx a.b c", WR, ("/w/p/x",)),
    ("config-zf", "git config -zf x a.b c", WR, ("/w/p/x",)),
    ("config-file-unset", "git config --file=x --unset a.b", WR, ("/w/p/x",)),
    ("config-f-variable", 'git config -f "$F" a.b c', OP, (None,)),
    # controls
    ("config-f-get", "git config -f x --get a.b", R, ()),
    ("config-f-list", "git config -f x -l", R, ()),
    ("config-set", "git config a.b c", WR, ("/w/p/.git/config",)),
    ("config-global", "git config --global a.b c", WR, ("/home/u/.gitconfig",)),
]  # fmt: skip

# --- git in a subfolder writes the repository it finds above -------------------------------
REPOSITORY: list[Case] = [
    ("cd-config", "cd src && git config core.hooksPath h", WR, ("/w/p/.git/config",)),
    ("C-config", "git -C src config core.fsmonitor x", WR, ("/w/p/.git/config",)),
    ("C-deep-commit", "git -C src/a commit -m x", WR, ("/w/p/src/a/.git", "/w/p/src/.git",
                                                      "/w/p/.git")),
    ("cd-add", "cd src && git add a.py", WR, ("/w/p/.git",)),
    ("cd-fsck-lost-found", "cd src && git fsck --lost-found", WR, ("/w/p/.git/lost-found",)),
    # controls: where the command starts, a repository made where it is said, reading
    ("config-here", "git config a.b c", WR, ("/w/p/.git/config",)),
    ("cd-init", "cd src && git init", WR, ("/w/p/src/.git",)),
    ("cd-status", "cd src && git status", R, ()),
    ("outside", "git -C ../o commit -m x", WR, ("/w/o/.git",)),
]  # fmt: skip

# --- python -m: standard modules that write what their arguments name ----------------------
PY_MODULES: list[Case] = [
    ("zipfile-create", "python3 -m zipfile -c z.zip a b", OP, ("/w/p/z.zip",)),
    ("zipfile-extract", "python3 -m zipfile -e z.zip out", OP, ("/w/p/out",)),
    ("tarfile-create", "python3 -I -m tarfile --create t.tar a", OP, ("/w/p/t.tar",)),
    ("tarfile-extract-here", "python3 -m tarfile -e t.tar", OP, ("/w/p",)),
    ("gzip", "python3 -m gzip a b", OP, ("/w/p/a.gz", "/w/p/b.gz")),
    ("gunzip", "python3 -m gzip -d a.gz", OP, ("/w/p/a",)),
    ("zipapp", "python3 -m zipapp src", OP, ("/w/p/src.pyz",)),
    ("zipapp-output", "python3 -m zipapp src -o .claude/x", OP, ("/w/p/.claude/x",)),
    ("pydoc-w", "python3 -m pydoc -w os ./m.py", OP, ("/w/p/os.html", "/w/p/m.html")),
    ("cprofile-o", "python3 -m cProfile -o p.out s.py", OP, ("/w/p/p.out",)),
    ("cprofile-o-glued", "python3 -m cProfile -op.out s.py", OP, ("/w/p/p.out",)),
    ("pickletools-o", "python3 -m pickletools --output=d.txt p.pkl", OP, ("/w/p/d.txt",)),
    ("ensurepip", "python3 -m ensurepip", OP, (None,)),
    # controls: listing, showing, printing
    ("zipfile-list", "python3 -m zipfile -l z.zip", OP, ()),
    ("tarfile-list", "python3 -m tarfile -l t.tar", OP, ()),
    ("pydoc-show", "python3 -m pydoc os", OP, ()),
    ("gzip-stdin", "python3 -m gzip < f", OP, ()),
    ("zipapp-info", "python3 -m zipapp --info a.pyz", OP, ()),
]  # fmt: skip

# --- history -w FILE truncates FILE ----------------------------------------------------------
HISTORY: list[Case] = [
    ("history-w", "history -w src/app.py", WR, ("/w/p/src/app.py",)),
    ("history-a", "history -a h", WR, ("/w/p/h",)),
    ("history-cluster", "history -cw h", WR, ("/w/p/h",)),
    ("history-w-histfile", "history -w", WR, (None,)),
    ("zsh-fc-W", "fc -W h", WR, ("/w/p/h",)),
    ("zsh-fc-A", "fc -A h", WR, ("/w/p/h",)),
    ("fc-reruns", "fc -s", OP, ()),
    ("history-d", "history -d 3", OP, ()),
    # controls
    ("history", "history", R, ()),
    ("history-count", "history 5", R, ()),
    ("history-clear", "history -c", R, ()),
    ("history-read", "history -r f", R, ()),
    ("fc-list", "fc -l", R, ()),
]  # fmt: skip

# --- Windows programs in Git Bash, and cmd.exe's file commands ------------------------------
WINDOWS: list[Case] = [
    ("cmd-copy", "cmd //c copy a b", OP, ("/w/p/b",)),
    ("cmd-del", "cmd.exe /c \"del /Q x\"", OP, ("/w/p/x",)),
    ("cmd-second-command", "cmd /c \"echo hi & del x\"", OP, ("/w/p/x",)),
    ("cmd-md-move", "cmd /c \"md d && move a d\"", OP, ("/w/p/d", "/w/p/a")),
    ("cmd-ren", "cmd /c ren a b", OP, ("/w/p/a", "/w/p/b")),
    ("cmd-mklink", "cmd /c mklink l t", OP, ("/w/p/l",)),
    ("robocopy", "robocopy src .claude //E", OP, ("/w/p/.claude",)),
    ("xcopy", "xcopy a b //E", OP, ("/w/p/b",)),
    ("icacls-grant", "icacls x /grant a:F", OP, ("/w/p/x",)),
    ("icacls-save", "icacls x /save acl.txt", OP, ("/w/p/acl.txt",)),
    ("attrib", "attrib +r x", OP, ("/w/p/x",)),
    # controls: showing
    ("cmd-type", "cmd /C type f", OP, ()),
    ("cmd-dir", "cmd /c dir", OP, ()),
    ("icacls-show", "icacls x", OP, ()),
    ("attrib-show", "attrib x", OP, ()),
]  # fmt: skip

# --- less copies what it shows to its log file -------------------------------------------------
LESS: list[Case] = [
    ("less-o", "cat f | less -o log.txt", OP, ("/w/p/log.txt",)),
    ("less-O-glued", "less -Olog f", OP, ("/w/p/log",)),
    ("less-cluster", "less -So log f", OP, ("/w/p/log",)),
    ("less-log-file", "less --log-file=log.txt f", OP, ("/w/p/log.txt",)),
    ("less-log-abbreviated", "less --log-f=log.txt f", OP, ("/w/p/log.txt",)),
    ("less-LOG-FILE", "less --LOG-FILE log.txt f", OP, ("/w/p/log.txt",)),
    # controls: less as a pager stays opaque (LESSOPEN, lesskey) with no write
    ("less", "less f", OP, ()),
    ("less-raw", "less -R f", OP, ()),
    ("less-follow", "less +F f", OP, ()),
]  # fmt: skip

# --- sqlite3 statements that write a file they name ------------------------------------------
SQLITE: list[Case] = [
    ("vacuum-into-readonly", "sqlite3 -readonly db \"VACUUM INTO 'v'\"", WR, ("/w/p/v",)),
    ("vacuum-schema-into", "sqlite3 db \"vacuum main into 'v';\"", WR, ("/w/p/db", "/w/p/v")),
    ("vacuum-into-expression", "sqlite3 db \"VACUUM INTO 'a' || 'b'\"", WR, (None,)),
    ("attach", "sqlite3 :memory: \"ATTACH 'x.db' AS y\"", WR, ("/w/p/x.db",)),
    ("attach-database-dq", "sqlite3 db 'ATTACH DATABASE \"x.db\" AS y'", WR, ("/w/p/x.db",)),
    ("attach-uri", "sqlite3 db \"ATTACH 'file:x.db?mode=rwc' AS y\"", WR, (None,)),
    # controls
    ("vacuum", "sqlite3 db 'VACUUM'", WR, ("/w/p/db",)),
    ("attach-memory", "sqlite3 db \"ATTACH ':memory:' AS y\"", WR, ("/w/p/db",)),
    ("readonly-select", "sqlite3 -readonly db 'select 1'", R, ()),
]  # fmt: skip

# --- macOS arch runs its program -------------------------------------------------------------
ARCH: list[Case] = [
    ("arch-x86-touch", "arch -x86_64 touch x", WR, ("/w/p/x",)),
    ("arch-arm64-shell", "arch -arm64 /bin/bash -c 'touch x'", WR, ("/w/p/x",)),
    ("arch-arch-name", "arch -arch arm64 -arch x86_64 touch x", WR, ("/w/p/x",)),
    ("arch-clear-env", "arch -c -x86_64 tee out", WR, ("/w/p/out",)),
    ("arch-env-dangerous", "arch -e BASH_ENV=x -arm64 bash -c echo", OP, ()),
    ("arch-env-code", "arch -e 'PAGER=touch p' -x86_64 git log", OP, ("/w/p/p",)),
    ("arch-env-no-value", "arch -e FOO -arm64 ls", OP, ()),
    ("arch-computed", "arch -arm64 $cmd", OP, ()),
    ("arch-no-program", "arch -x86_64", OP, ()),
    # controls: printing the architecture, read-only programs under another architecture
    ("arch", "arch", R, ()),
    ("arch-ls", "arch -x86_64 ls -la", R, ()),
    ("arch-unset", "arch -d LANG -arm64 cat f", R, ()),
]  # fmt: skip


@table(MATH)
def test_zsh_arithmetic_arguments(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(CLOBBER)
def test_zsh_clobbering_redirects(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(PRECOMMAND)
def test_zsh_precommand_modifiers(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(WRAPPERS)
def test_wrappers_run_their_command(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(POWERSHELL)
def test_powershell_methods_that_write(
    command: str, status: Status, named: tuple[str, ...]
) -> None:
    check(command, status, named, shell="powershell")
    if not named:  # a control: no write at all
        assert not analysed(command, "powershell").effects


@table(GIT_CONFIG)
def test_git_config_names_its_file(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(REPOSITORY)
def test_git_writes_the_repository_above(
    command: str, status: Status, named: tuple[str, ...]
) -> None:
    check(command, status, named)


def test_git_init_in_a_subfolder_names_no_repository_above() -> None:
    assert "/w/p/.git" not in {e.resolved for e in analysed("cd src && git init").effects}
    assert "/w/.git" not in {e.resolved for e in analysed("git commit -m x").effects}


@table(PY_MODULES)
def test_python_modules_that_write(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)
    if not named:  # a control: no write at all
        assert not analysed(command).effects


@table(HISTORY)
def test_history_writes_its_file(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


@table(WINDOWS)
def test_windows_programs_name_their_files(
    command: str, status: Status, named: tuple[str, ...]
) -> None:
    check(command, status, named)
    if not named:  # a control: no write at all
        assert not analysed(command).effects


@table(LESS)
def test_less_names_its_log_file(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)
    if not named:  # a control: no write at all
        assert not analysed(command).effects


@table(SQLITE)
def test_sqlite_names_the_files_it_writes(
    command: str, status: Status, named: tuple[str, ...]
) -> None:
    check(command, status, named)


@table(ARCH)
def test_arch_runs_its_program(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- the policy: TAMPER for every agent, writes refused to the main agent ---------------------
TAMPER = [
    ("clobber-settings", "cat f >! .claude/settings.json"),
    ("clobber-settings-glued", "echo '{}' >!.claude/settings.json"),
    ("clobber-append-settings", "echo x >>! .claude/settings.json"),
    ("clobber-first-settings", ">! .claude/settings.json"),
    ("clobber-first-settings-cmd", "2>! .claude/settings.json echo"),
    ("arch-settings", "arch -x86_64 cp f .claude/settings.json"),
    ("noglob-settings", "noglob cp f .claude/settings.json"),
    ("history-w-settings", "history -w .claude/settings.json"),
    ("robocopy-settings", "robocopy x .claude settings.json"),
    ("git-config-fil-settings", "git config --fil=.claude/settings.json a.b c"),
    ("git-config-fil-separate-settings", "git config --fil .claude/settings.json a.b c"),
    ("sqlite-vacuum-into-settings", "sqlite3 src/db \"VACUUM INTO '.claude/settings.json'\""),
    ("sqlite-attach-settings", "sqlite3 src/db \"ATTACH '.claude/settings.json' AS s\""),
    ("zsh-shift-settings", "shift 'path[$(cp f .claude/settings.json)]'"),
    ("zsh-printf-settings", "printf %d 'argv[$(echo {} > .claude/settings.json)]'"),
]
SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
CONFIG = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["src/**"]\n'
# a subagent that may write anywhere but the protected files
WIDE = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'


@pytest.mark.parametrize("command", [t[1] for t in TAMPER], ids=[t[0] for t in TAMPER])
def test_a_protected_file_written_through_zsh_or_arch_is_tamper(
    tmp_path: Path, command: str
) -> None:
    assert bash_violation(tmp_path, CONFIG, command) == "TAMPER"
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


WRITES = [
    ("clobber-src", "echo x >! src/app.py", "BASH_WRITE"),
    ("arch-src", "arch -arm64 cp a src/app.py", "BASH_WRITE"),
    ("noglob-src", "noglob rm -rf src", "BASH_WRITE"),
    ("py-m-zipfile-src", "python3 -m zipfile -c src/x.zip a", "BASH_WRITE"),
    ("py-m-gzip-src", "python3 -m gzip src/app.py", "BASH_WRITE"),
    ("history-w-src", "history -w src/app.py", "BASH_WRITE"),
    ("less-o-src", "cat f | less -o src/app.py", "BASH_WRITE"),
    ("cmd-del-src", "cmd //c del src\\app.py", "BASH_WRITE"),
    ("robocopy-src", "robocopy a src", "BASH_WRITE"),
    ("setsid-src", "setsid cp a src/app.py", "BASH_WRITE"),
    ("chrt-src", "chrt 0 rm -rf src", "BASH_WRITE"),
    ("git-config-file-src", "git config -f src/x.cfg a.b c", "BASH_WRITE"),
    ("nocorrect-src", "nocorrect cp a src/app.py", "BASH_WRITE"),
    # controls: ordinary reading work stays allowed
    ("printf-count", "printf '%s files\\n' \"$(ls | wc -l)\"", "-"),
    ("exit-status", "grep -q x f; exit $?", "-"),
    ("arch-ls", "arch -arm64 ls -la", "-"),
]


@pytest.mark.parametrize(("command", "code"), [w[1:] for w in WRITES], ids=[w[0] for w in WRITES])
def test_the_main_agent_in_enforce(tmp_path: Path, command: str, code: str) -> None:
    assert bash_violation(tmp_path, CONFIG, command) == code


SCOPED = [
    ("clobber-docs", "cd src && echo x >! ../docs/a.md", "SCOPE_VIOLATION"),
    ("clobber-glued-docs", "echo x >!docs/a.md", "SCOPE_VIOLATION"),
    ("arch-docs", "arch -x86_64 tee docs/a.md < f", "SCOPE_VIOLATION"),
    ("zsh-exit-docs", "exit 'argv[$(touch docs/a.md)]'", "SCOPE_VIOLATION"),
    ("git-config-fil-docs", "git config --fil=docs/x a.b c", "SCOPE_VIOLATION"),
    ("sqlite-vacuum-docs", "sqlite3 src/db \"VACUUM INTO 'docs/x.db'\"", "SCOPE_VIOLATION"),
    # the files a patch names are below the folder it runs in (GNU patch refuses `..`)
    ("patch-stdin-root", "patch -p0 < src/x.diff", "SCOPE_VIOLATION"),
    ("patch-i-root", "patch -p1 -i src/x.diff", "SCOPE_VIOLATION"),
    ("git-cd-config-root", "cd src && git config core.hooksPath h", "TAMPER"),
    ("git-C-config-root", "git -C src config core.fsmonitor 'touch x'", "TAMPER"),
    ("sqlite-attach-docs", "sqlite3 src/db \"ATTACH 'docs/x.db' AS s\"", "SCOPE_VIOLATION"),
    # controls: inside the scope
    ("clobber-src", "cd src && echo x >! app.py", "-"),
    ("arch-src", "arch -arm64 cp src/a.py src/b.py", "-"),
    ("git-config-file-src", "git config --file src/x.cfg a.b c", "-"),
    ("sqlite-vacuum-src", "sqlite3 src/db \"VACUUM INTO 'src/copy.db'\"", "-"),
]


@pytest.mark.parametrize(("command", "code"), [w[1:] for w in SCOPED], ids=[w[0] for w in SCOPED])
def test_a_subagent_stays_in_its_scope(tmp_path: Path, command: str, code: str) -> None:
    assert bash_violation(tmp_path, CONFIG, command, **SUBAGENT) == code
