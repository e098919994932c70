"""Attack round C: commands the analysis rated ``read_only`` (or ``writes`` with a target missing)
although they write a file or run code (ADR 0056).

Bash rows were each observed in a throwaway folder (``tests/reality_cases_attack_c.py`` runs
them); PowerShell is not installed on the machines this suite runs on, so its rows follow the
language's documentation and its tokenizer's source (quotes, dashes and blanks it accepts,
subexpressions in expandable strings, -WhatIf as a parameter of ShouldProcess cmdlets only).
Each finding row failed before its fix; each control row is a look-alike that keeps its answer.
"""

from __future__ import annotations

import pytest
from bash_holes import Case, analysed, check, table

from orchestrator_boundary.bash import Status, analyze
from orchestrator_boundary.bash.explain import explain

R, WR, OP = Status.READ_ONLY, Status.WRITES, Status.OPAQUE


# --- Bash: a declaration's quoted or escaped NAME=value is an assignment to Bash -----------------
DECLARATIONS: list[Case] = [
    ("declare-quoted-ps4", "declare 'PS4=$(touch x)'; set -x; ls", OP, ("/w/p/x",)),
    ("typeset-quoted-pager", "typeset -x 'PAGER=touch p'", OP, ("/w/p/p",)),
    ("readonly-quoted-prompt", "readonly 'PROMPT_COMMAND=touch q'", OP, ("/w/p/q",)),
    ("export-quoted-bash-env", "export 'BASH_ENV=x'; bash -c ls", OP, ()),
    ("declare-quoted-subscript", "declare 'a[$(touch x)]=1'", OP, ("/w/p/x",)),
    ("declare-a-quoted-subscript", "declare -a 'a[$(touch x)]=1'", OP, ("/w/p/x",)),
    ("declare-escaped-subscript", "declare a\\[\\$\\(touch\\ x\\)\\]=1", OP, ("/w/p/x",)),
    ("declare-dashdash-subscript", "declare -- 'a[$(touch x)]=1'", OP, ("/w/p/x",)),
    ("declare-assoc-quoted-key", "declare -A m; declare 'm[$(touch x)]=1'", OP, ("/w/p/x",)),
    # set -k: NAME=value among a command's arguments goes to its environment (observed)
    ("set-k-bash-env", "set -k; bash -c ls BASH_ENV=./x", OP, ()),
    ("set-o-keyword", "set -o keyword; bash -c ls BASH_ENV=./x", OP, ()),
    ("shopt-o-keyword", "shopt -so keyword", OP, ()),
    # cdable_vars and CDPATH send cd elsewhere (observed: cd dd went to src): targets unknown
    ("cdable-vars-cd", "shopt -s cdable_vars; dd=src; cd dd && touch y", OP, (None,)),
    ("cdpath-cd", "CDPATH=src; cd d && touch z", OP, (None,)),
    # `trap -- CODE SIG`: the code after `--` was taken for "--" (observed: x created)
    ("trap-dashdash", "trap -- 'touch x' EXIT", WR, ("/w/p/x",)),
    ("eval-dashdash", "eval -- 'touch x'", WR, ("/w/p/x",)),
    ("hash-p-dashdash", "hash -p /usr/bin/touch -- ls; ls x", OP, ("/w/p/x",)),
    # controls: harmless names, quoted or not, and options alone
    ("trap-dashdash-reset", "trap -- - EXIT", R, ()),
    ("set-e", "set -e; ls", R, ()),
    ("cd-tracked", "cd d && touch z", WR, ("/w/p/d/z",)),
    ("declare-quoted-plain", "declare 'x=1'", R, ()),
    ("export-quoted-lang", "export 'LANG=C'", R, ()),
    ("local-mixed-plain", "local x=1 'y=2'", R, ()),
    ("declare-array", "declare -a arr=(1 2)", R, ()),
    ("declare-p", "declare -p", R, ()),
    ("export-p", "export -p", R, ()),
]

# --- Bash: a signal that dumps core; zless (less: its -o log file, its history file) ----------
PROGRAMS: list[Case] = [
    ("timeout-segv-core", "ulimit -c unlimited; timeout -s SEGV 1 sleep 5", OP, ()),
    ("timeout-quit", "timeout -s QUIT 1 sleep 5", OP, ()),
    ("timeout-sigabrt-stuck", "timeout -sABRT 1 touch x", OP, ("/w/p/x",)),
    ("timeout-lower-case", "timeout -s segv 1 ls", OP, ()),
    ("zless-log-file", "zless -o out f.gz", OP, ()),
    ("zless-command", "zless '+!touch x' f.gz", OP, ()),
    ("zless-history", "zless f.gz", OP, ()),  # with a terminal, less writes ~/.lesshst
    # help() imports pydoc (and help('name') the module name): a pydoc.py or name.py in the
    # working folder runs (observed); rg 14+ runs --hostname-bin's program
    ("python-help-name", "python3 -c \"help('evil')\"", OP, ()),
    ("python-help-object", "python3 -c 'help(len)'", OP, ()),
    ("rg-hostname-bin", "rg --hostname-bin ./h --hyperlink-format='{host}' x f", OP, ()),
    ("rg-hostname-bin-prefix", "rg --hostname=./h x f", OP, ()),
    # gawk's @include runs another file's awk code (observed); --git-dir names a repository
    # whose configuration runs programs (observed: its core.fsmonitor), as GIT_DIR does
    ("gawk-include", "gawk '@include \"x.awk\"; BEGIN{}'", OP, ()),
    ("awk-source-include", "awk -e '@include \"x\"' f", OP, ()),
    ("git-dir-status", "git --git-dir=evil.git --work-tree=. status", OP, ()),
    ("git-dir-log", "git --git-dir=.git log -1", OP, ()),
    # node: fs.WriteStream creates its file; a `.json` require runs a folder's index.js
    ("node-write-stream", "node -e \"require('fs').WriteStream('z')\"", WR, ("/w/p/z",)),
    (
        "node-new-write-stream",
        "node -e \"const fs=require('fs'); new fs.WriteStream('y')\"",
        WR,
        ("/w/p/y",),
    ),
    ("node-require-json", "node -e \"require('./x.json')\"", OP, ()),
    # ruby: require of a path runs that file; IO.read("|cmd") and friends run cmd (observed)
    ("ruby-require-path", "ruby -e 'require \"./x\"'", OP, ()),
    ("ruby-io-read-pipe", "ruby -e 'IO.read(\"|touch y\")'", OP, ()),
    ("ruby-io-readlines-pipe", "ruby -e 'IO.readlines(\"|touch y\")'", OP, ()),
    ("ruby-uri-open-pipe", "ruby -e 'URI.open(\"|touch y\")'", OP, ()),
    # PowerShell from Bash runs the user's profile first unless -NoProfile (documented)
    ("pwsh-profile", 'powershell.exe -c "Get-ChildItem"', OP, ()),
    ("pwsh-profile-write-kept", 'powershell -Command "ni x"', OP, ("/w/p/x",)),
    # an editor's commands name their own files: `w x` is no file name (observed)
    ("vim-c-write", "vim -es -c 'w x' -c q", OP, (None,)),
    ("vim-plus-write", "vim -es '+w y' '+q'", OP, (None,)),
    ("ex-c-write", "ex -s -c 'w z' -c q f", OP, (None, "/w/p/f")),
    # moreutils' sponge writes the file it names (observed)
    ("sponge-file", "sort f | sponge f", WR, ("/w/p/f",)),
    ("sponge-append", "echo x | sponge -a g", WR, ("/w/p/g",)),
    # controls
    ("sponge-stdout", "echo x | sponge", R, ()),
    ("ruby-require-library", "ruby -e 'require \"json\"; puts 1'", R, ()),
    ("ruby-io-read-file", "ruby -e 'IO.read(\"f\")'", R, ()),
    ("node-read-file", "node -e \"console.log(require('fs').readFileSync('f','utf8'))\"", R, ()),
    ("awk-print", "awk '{print $1}' f", R, ()),
    ("git-work-tree", "git --work-tree=. status", R, ()),
    ("git-status", "git status --porcelain", R, ()),
    ("git-version", "git --version", R, ()),
    ("python-print", "python3 -c 'print(len(\"ab\"))'", R, ()),
    ("rg-hyperlink-default", "rg --hyperlink-format=default x f", R, ()),
    ("rg-hidden", "rg --hidden -n x f", R, ()),
    ("pwsh-noprofile", 'pwsh -NoProfile -c "Get-Content a"', R, ()),
    ("pwsh-nop-prefix", 'pwsh -nop -c "Get-Content a"', R, ()),
    ("timeout-plain", "timeout 5 ls", R, ()),
    ("timeout-kill", "timeout --signal=SIGKILL 1 sleep 5", R, ()),
    ("timeout-term-number", "timeout -s 15 1 ls", R, ()),
    ("timeout-kill-after", "timeout -k 1 5 ls", R, ()),
]

# --- PowerShell (from its documentation and tokenizer; not run here) ---------------------------
P = "C:/w/p/"
POWERSHELL: list[Case] = [
    # -WhatIf is a parameter of ShouldProcess cmdlets; any other command runs with it
    ("ps-whatif-cmd", 'cmd /c "echo x > y" -WhatIf', OP, (P + "y",)),
    ("ps-whatif-script", "./x.ps1 -WhatIf", OP, ()),
    ("ps-whatif-native", "git push -WhatIf", OP, ()),
    ("ps-whatif-iex", "Invoke-Expression 'ni x' -WhatIf", OP, ()),
    # typographic quotes end strings, U+2013 is a dash, a Unicode space a blank, a lone CR a line end
    ("ps-curly-single-quote", "echo 'a\u2019; ni x; \u2018b'", OP, (P + "x",)),
    ("ps-curly-double-quote", 'echo "a\u201d; ni x; \u201cb"', OP, (P + "x",)),
    ("ps-en-dash-parameter", "ni \u2013Path x", WR, (P + "x",)),
    ("ps-nbsp-redirect", "echo x\u00a0>\u00a0f", WR, (P + "f",)),
    ("ps-lone-cr", "echo a\rni x", WR, (P + "x",)),
    # code that runs inside arguments
    ("ps-subexpression-in-string", 'Write-Output "$(ni x)"', WR, (P + "x",)),
    ("ps-subexpression-parameter", 'Get-ChildItem -Path "$(ni x)"', WR, (P + "x",)),
    ("ps-group-parameter-value", "Get-ChildItem -Path (ni x)", WR, (P + "x",)),
    ("ps-scriptblock-parameter", "Invoke-Command -ScriptBlock { ni x }", OP, (P + "x",)),
    ("ps-here-string-subexpression", 'Write-Output @"\n$(ni y)\n"@', WR, (P + "y",)),
    ("ps-here-string-ends", "Write-Output @'\n\"\n'@; ni x", WR, (P + "x",)),
    ("ps-assigned-subexpression", "$x = $(ni x)", OP, (P + "x",)),
    # a member called on a result, an expression after a .NET call
    ("ps-member-call", "(Get-Item a).Delete()", OP, ()),
    ("ps-member-copy", "(Get-Item a).CopyTo('b')", OP, ()),
    ("ps-static-then-expression", "[IO.File]::Exists('a') -and (ni x)", OP, (P + "x",)),
    # splatting: the target is in the table, not in the text
    ("ps-splat-remove", "Remove-Item @p", WR, (None,)),
    # cmdlets and aliases that write a file
    ("ps-epcsv", "ls | epcsv out.csv", WR, (P + "out.csv",)),
    ("ps-start-transcript", "Start-Transcript -Path t.txt", WR, (P + "t.txt",)),
    ("ps-start-transcript-default", "Start-Transcript", WR, (None,)),
    ("ps-export-alias", "Export-Alias al.txt", WR, (P + "al.txt",)),
    # downloads: -OutFile abbreviated, curl.exe (PowerShell 7) options, BITS always writes
    ("ps-iwr-outfile-prefix", "iwr http://a -OutF x", WR, (P + "x",)),
    ("ps-iwr-o", "Invoke-WebRequest http://a -o x", WR, (P + "x",)),
    ("ps-curl-o", "curl -o x http://a", WR, (P + "x",)),
    ("ps-curl-remote-name", "curl -O http://a/x", WR, (None,)),
    ("ps-bits-transfer", "Start-BitsTransfer -Source http://a -Destination x", WR, (P + "x",)),
    # ForEach-Object calls a member by name: FileInfo.Delete deletes each file
    ("ps-foreach-member", "Get-ChildItem *.log | % Delete", OP, ()),
    ("ps-foreach-membername", "ls | ForEach-Object -MemberName Delete", OP, ()),
    # controls
    ("ps-foreach-block", "ls | ForEach-Object { $_.Name }", R, ()),
    ("ps-iwr-stream", "iwr http://a -UseBasicParsing", R, ()),
    ("ps-curl-plain", "curl http://a", R, ()),
    ("ps-whatif-remove", "Remove-Item build -Recurse -WhatIf", R, ()),
    ("ps-whatif-alias", "ri a -WhatIf", R, ()),
    ("ps-escaped-subexpression", 'Write-Output "`$(ni x)"', R, ()),
    ("ps-single-quoted-here-string", "Write-Output @'\n$(ni x)\n'@", R, ()),
    ("ps-plain-string", 'Write-Output "a b"', R, ()),
    ("ps-where-object", "Get-Content a | Where-Object { $_ -match 'x' }", R, ()),
    ("ps-read-static", "[IO.File]::ReadAllText('a')", R, ()),
    ("ps-quote-in-string", 'echo "it\'s"', R, ()),
]


@table(DECLARATIONS)
def test_declarations(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named, "bash")


@table(PROGRAMS)
def test_programs(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named, "bash")


@table(POWERSHELL)
def test_powershell(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named, "powershell")


@pytest.mark.parametrize("command", ["source -- x.sh", ". -- x.sh"])
def test_sourced_script_after_dashdash_is_read(command: str) -> None:
    """`source -- f` runs f (observed): the script the policy reads is f, not "--" (ADR 0040)."""
    plain = analysed(command, "bash")
    assert [c.script for c in plain.commands if c.script] == ["/w/p/x.sh"], explain(plain)
    result = analyze(command, cwd="/w/p", home="/home/u", scripts={"/w/p/x.sh": "touch y"})
    assert result.status is OP, explain(result)
    assert "/w/p/y" in {e.resolved for e in result.effects}, explain(result)
