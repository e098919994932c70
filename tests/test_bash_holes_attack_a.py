"""Attack round A: commands the Bash analysis rated ``read_only`` although they write or run code.

Each row reproduces one finding of the round (a member of a class of holes) and states what the
analysis must answer now; each control row is a harmless look-alike that must stay
``read_only``. The classes, and the fix of each:

- parser differentials (``agree.py``): text tree-sitter-bash and Bash split differently;
- words that are not literals where a program's options can write (``dispatch.py``);
- builtins that set, export or evaluate variables, or run a command (``declared.py``, ...);
- variables given to a program: an allow-list of harmless names (``envvars.py``);
- a lone ``--version`` / ``--help`` of a program that may read the project first;
- program-specific readings (sed, awk, xxd, ed, file, uniq, dd, git, ip, ss, bash -i, ruff);
- inline code: an allow-list of Python modules and names, interpolated strings of node, Perl
  and Ruby read as code.
"""

from __future__ import annotations

from bash_holes import Case, analysed, check, table

from orchestrator_boundary.bash import Status
from orchestrator_boundary.bash.explain import explain

R, WR, OP, U = Status.READ_ONLY, Status.WRITES, Status.OPAQUE, Status.UNPARSEABLE
P = "/w/p/.claude/pwned"
S = "/w/p/.claude/settings.json"


# --- A. parser differentials: unparseable (or, for backticks in a heredoc body, read) ---------
PARSER: list[Case] = [
    ("heredoc-backtick", "cat <<EOF\n`touch .claude/pwned`\nEOF", WR, (P,)),
    ("heredoc-backtick-param", "cat <<EOF\n${x:-`touch .claude/pwned`}\nEOF", WR, (P,)),
    ("heredoc-backtick-open", "cat <<EOF\n`touch .claude/pwned\nEOF", OP, ()),
    ("heredoc-dollar-join", "cat <<EOF\n$\\\n(touch .claude/pwned)\nEOF", U, ()),
    ("heredoc-quoted-part", 'cat <<E"O"F\nx\nEOF\ntouch .claude/pwned\nE"O"F', U, ()),
    ("heredoc-single-part", "cat <<E'O'F\nx\nEOF\ntouch .claude/pwned\nE'O'F", U, ()),
    ("heredoc-empty-quotes", 'cat <<EOF""\nx\nEOF\ntouch .claude/pwned\nEOF""', U, ()),
    ("heredoc-ansi-c", "cat <<$'EOF'\nx\nEOF\ntouch .claude/pwned\n$'EOF'", U, ()),
    ("heredoc-locale", 'cat <<$"EOF"\nx\nEOF\ntouch .claude/pwned\n$"EOF"', U, ()),
    ("heredoc-dash-part", "cat <<-E'O'F\n\tx\n\tEOF\ntouch .claude/pwned\nE'O'F", U, ()),
    ("heredoc-joined-end", "cat <<EOF\nx\nEO\\\nF\ntouch .claude/pwned\nEOF", U, ()),
    ("carriage-return", "echo x \r# ; touch .claude/pwned", U, ()),
    ("vertical-tab", "echo x \v# ; touch .claude/pwned", U, ()),
    ("form-feed", "echo x \f# ; touch .claude/pwned", U, ()),
    ("crlf", "ls\r\ntouch .claude/pwned\r\n", U, ()),
    ("join-then-hash", "echo a\\\n#; touch .claude/pwned", U, ()),
    ("join-quoted-then-hash", "echo 'x'\\\n#; touch .claude/pwned", U, ()),
    ("join-after-and", "echo x&&\\\n#\ntouch .claude/pwned", U, ()),
    ("join-in-name", "r\\\nm -rf src", U, ()),
    ("array-then-hash", "x=(a)#; touch .claude/pwned", U, ()),
    ("dq-dollar-join", 'echo "$\\\n(touch .claude/pwned)"', U, ()),
    ("backtick-in-default", "echo ${x:-`touch .claude/pwned`}", U, ()),
    ("backtick-in-assign-default", 'echo "${x:=`touch .claude/pwned`}"', U, ()),
    ("nested-escaped-backticks", "echo `echo \\`touch .claude/pwned\\``", U, ()),
]
PARSER_CONTROLS: list[Case] = [
    ("ctl-continuation", "ls \\\n  -l \\\n  src", R, ()),
    ("ctl-comment", "ls # a comment\nls;# another", R, ()),
    ("ctl-backticks", 'echo `pwd` "`date`" # `not run`', R, ()),
    ("ctl-quoted-heredoc", "cat <<'EOF'\n`touch x` $(touch y)\nEOF", R, ()),
    ("ctl-heredoc-dash", "cat <<-EOF\n\tx\n\tEOF", R, ()),
    ("ctl-escaped-backtick-dq", 'grep "\\`x\\`" f', R, ()),
    ("ctl-commit-heredoc", "git commit -m \"$(cat <<'EOF'\nfix: `code`\nEOF\n)\"", WR, ()),
]


@table(PARSER + PARSER_CONTROLS)
def test_parser_differentials(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


def test_differentials_inside_nested_shell_code() -> None:
    result = analysed("bash -c $'echo x \\r# ; touch .claude/pwned'")
    assert result.status is U, explain(result)


# --- C. words that are not literals may be options ------------------------------------------
HIDDEN: list[Case] = [
    ("sort-substitution", "sort a.txt $(printf -- -o.claude/settings.json)", OP, ()),
    ("sort-variable", "sort a.txt $X", OP, ()),
    # a value the command assigns in sight is that value (ADR 0067): the option is read
    ("sort-variable-assigned", "X=-o.claude/settings.json; sort a.txt $X", WR, (S,)),
    ("xargs-sort", "printf '%s\\n' -o.claude/settings.json a.txt | xargs sort", OP, ()),
    ("xargs-uniq", "printf '%s\\n' a.txt out | xargs uniq", OP, ()),
    ("sed-substitution", "sed -n p .claude/settings.json $(echo -i)", OP, ()),
    ("git-substitution", "git log $(echo --output=.claude/pwned)", OP, ()),
    ("env-split-escape", "env -S 'sort a.txt\\_-o.claude/settings.json'", OP, ()),
    ("env-split-variable", "X=-opwned env -S 'sort a.txt ${X}'", OP, ()),
    ("env-split-quotes", "env -S \"sort '-o x' a\"", OP, ()),
    ("sort-glob", "sort *", OP, ()),
    ("tar-glob", "tar cf - * >/dev/null", OP, ()),
    ("find-variable-root", 'find "$dir" -name x', OP, ()),
    ("find-exec-attached", "find . -exec sort -o{} a \\;", OP, ()),
    ("printf-variable-first", "printf $X PS4 '$(touch .claude/pwned)'", OP, ()),
    ("test-variable-v", "test $a 'x[$(touch .claude/pwned)]'", OP, ()),
]
HIDDEN_CONTROLS: list[Case] = [
    ("ctl-ls-glob", "ls *", R, ()),
    ("ctl-cat-variable", 'cat "$f" $(ls)', R, ()),
    ("ctl-grep-variable", 'grep -n x "$f"', R, ()),
    ("ctl-sort-path-glob", "sort ./*.txt src/*.py", R, ()),
    ("ctl-sort-prefixed", 'sort "v$n" ./$x', R, ()),
    ("ctl-find-exec", "find . -name '*.py' -exec grep -l x {} \\;", R, ()),
    ("ctl-printf-args", 'printf "%s\\n" "$a" "$b"', R, ()),
    ("ctl-test-variable", '[ -n "$x" ] && [ "$a" = "$b" ]', R, ()),
    ("ctl-env-split", "env -S 'ls -l'", R, ()),
]


@table(HIDDEN + HIDDEN_CONTROLS)
def test_words_that_may_be_options(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- B. builtins --------------------------------------------------------------------------------
BUILTINS: list[Case] = [
    ("jobs-x", "jobs -x touch .claude/pwned", WR, (P,)),
    ("command-rm-v", "command rm -v .claude/settings.json", WR, (S,)),
    (
        "alias-touch",
        "shopt -s expand_aliases\nalias ls=touch\nls .claude/pwned",
        OP,
        (P,),
    ),
    (
        "alias-rm",
        "shopt -s expand_aliases\nalias cat='rm -f'\ncat .claude/settings.json",
        OP,
        (S,),
    ),
    ("builtin-export-ps4", "builtin export PS4='$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    ("command-declare-ps4", "command declare PS4='$(touch .claude/pwned)'", OP, (P,)),
    ("quoted-export-ps4", "\"export\" PS4='$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    ("escaped-export-ps4", "\\export PS4='$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    ("builtin-declare-nameref", "builtin declare -n r=PS4; r='$(touch .claude/pwned)'", OP, ()),
    ("printf-v-ps4", "printf -v PS4 %s '$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    ("printf-v-path", 'printf -v PATH %s "bin:$PATH"; ls', OP, ()),
    ("read-ps4", "read PS4 <<< '$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    ("read-cluster-ps4", "read -tp PS4 <<< x", OP, ()),
    ("mapfile-ps4", "mapfile -t PS4 <<< '$(touch .claude/pwned)'; set -x; :", OP, (P,)),
    (
        "default-assign-ps4",
        "unset PS4; : ${PS4:='$(touch .claude/pwned)'}; set -x; :",
        OP,
        (P,),
    ),
    ("substring-offset", "x='a[$(touch .claude/pwned)]'; s=abc; echo ${s:x}", U, ()),
    ("substring-length", "echo ${s:0:x} ${@:x}", OP, ()),
    ("unset-subscript", "declare -a x; unset 'x[$(touch .claude/pwned)]'", OP, (P,)),
    ("builtin-unset-subscript", "builtin unset 'x[$(touch .claude/pwned)]'", OP, (P,)),
    ("wait-p-subscript", "sleep 0 & wait -n -p 'a[$(touch .claude/pwned)]'", OP, (P,)),
    ("set-allexport", "set -a; PIP_LOG=.claude/pwned; pip list", OP, ()),
    ("set-o-allexport", "set -o allexport", OP, ()),
    ("shopt-o-allexport", "shopt -so allexport", OP, ()),
    ("export-unknown", "export PIP_LOG=.claude/pwned; pip list", OP, ()),
    ("export-name-only", "PIP_LOG=.claude/pwned; export PIP_LOG; pip list", OP, ()),
    ("declare-x", "declare -x PIP_LOG=.claude/pwned", OP, ()),
]
BUILTIN_CONTROLS: list[Case] = [
    ("ctl-command-v", "command -v rm && command -p -V ls", R, ()),
    ("ctl-alias-ls", "alias ll='ls -l'; ll", R, ()),
    ("ctl-read-line", "while read -r line; do echo $line; done < f", R, ()),
    ("ctl-read-prompt", "read -rp 'Name: ' name", R, ()),
    ("ctl-printf-v", "printf -v out '%s' x", R, ()),
    ("ctl-mapfile", "mapfile -t lines < f", R, ()),
    ("ctl-default", "echo ${x:-a} ${y:=b} ${s:1:2}", R, ()),
    ("ctl-unset", "unset x 'y[1]'", R, ()),
    ("ctl-wait", "sleep 1 & wait $!; wait", R, ()),
    ("ctl-set", "set -euo pipefail; set -x", R, ()),
    ("ctl-export", "export LANG=C LC_ALL=C; export name=x", R, ()),
    ("ctl-builtin-export", "builtin export LANG=C", R, ()),
    ("ctl-jobs", "jobs -l", R, ()),
    ("ctl-getopts-shopt", "while getopts ab: o; do :; done; shopt -s extglob", R, ()),
    ("ctl-set-o", "set -o", R, ()),
]


@table(BUILTINS + BUILTIN_CONTROLS)
def test_builtins(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- D. variables a program receives: an allow-list -----------------------------------------
ENVIRONMENT: list[Case] = [
    ("ld-debug-output", "LD_DEBUG=files LD_DEBUG_OUTPUT=.claude/pwned ls", OP, ()),
    ("ld-profile", "LD_PROFILE=libc.so.6 LD_PROFILE_OUTPUT=. ls", OP, ()),
    ("node-coverage", "NODE_V8_COVERAGE=.claude/cov node -e 1", OP, ()),
    ("pycache-prefix", "PYTHONPYCACHEPREFIX=.claude/pc python3 -c 'print(1)'", OP, ()),
    ("histfile", "HISTFILE=.claude/settings.json bash -i <<< 'ls'", OP, ()),
    ("bash-interactive", "bash -i <<< ls", OP, ()),
    ("bash-login", "bash -lc 'touch .claude/pwned'", OP, (P,)),
    ("jdk-options", "JDK_JAVA_OPTIONS=-Xlog:gc:file=.claude/pwned java -version", OP, ()),
    ("tar-options", "TAR_OPTIONS=--checkpoint-action=exec=x tar tf x.tar", OP, ()),
    ("curl-home", "CURL_HOME=. curl -s file:///etc/hostname", OP, ()),
    ("pip-log", "PIP_LOG=.claude/piplog pip list", OP, ()),
    ("pip-config", "PIP_CONFIG_FILE=p.conf pip list", OP, ()),
    ("ruff-cache", "RUFF_CACHE_DIR=.claude/rc ruff check .", OP, ()),
    ("git-allow-protocol", "GIT_ALLOW_PROTOCOL=ext git ls-remote 'ext::sh -c x'", OP, ()),
    ("env-wrapper", "env LD_DEBUG_OUTPUT=.claude/pwned LD_DEBUG=files ls", OP, ()),
    ("env-wrapper-keeps-effects", "env FOO=1 touch .claude/pwned", OP, (P,)),
    ("sudo-wrapper", "sudo TAR_OPTIONS=x tar tf x.tar", OP, ()),
]
ENVIRONMENT_CONTROLS: list[Case] = [
    ("ctl-locale", "LANG=C LC_ALL=C sort f", R, ()),
    ("ctl-tz", "TZ=UTC date", R, ()),
    ("ctl-lowercase", "foo=1 ls", R, ()),
    ("ctl-env-locale", "env LC_ALL=C TERM=dumb ls", R, ()),
    ("ctl-no-color", "NO_COLOR=1 git status", R, ()),
]


@table(ENVIRONMENT + ENVIRONMENT_CONTROLS)
def test_environment(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- D. a lone --help / --version -----------------------------------------------------------
HELP: list[Case] = [
    ("pytest-help", "pytest --help", OP, ()),  # imports conftest.py
    ("mvn-version", "mvn --version", OP, ()),  # reads .mvn/jvm.config
    ("cargo-version", "cargo --version", OP, ()),  # rust-toolchain.toml `path`
    ("yarn-version", "yarn --version", OP, ()),  # .yarnrc.yml `yarnPath`
    ("unknown-version", "frobnicate --version", OP, ()),
    ("ctl-git-version", "git --version", R, ()),
    ("ctl-python-version", "python3 --version", R, ()),
    ("ctl-node-version", "node --version", R, ()),
    ("ctl-make-version", "make --version", R, ()),
    ("ctl-ls-help", "ls --help", R, ()),
]


@table(HELP)
def test_help_and_version(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- C. program-specific readings -------------------------------------------------------------
PROGRAMS: list[Case] = [
    ("sed-label-semicolon", "sed -n ':a;w .claude/pwned' a.txt", WR, (P,)),
    ("sed-label-blank", "sed -n ':a w .claude/pwned' a.txt", WR, (P,)),
    ("sed-posix-label", "sed --posix -n ':a;w .claude/pwned' a.txt", WR, (P,)),
    ("sed-bracket", "sed -n '/[/]/w .claude/pwned' a.txt", WR, (P,)),
    ("sed-branch-label", "sed -n 'b a;w .claude/pwned' a.txt", WR, (P,)),
    (
        "awk-print-regex",
        'awk \'BEGIN { print /"/; system("touch .claude/pwned"); x="" }\'',
        OP,
        (P,),
    ),
    (
        "awk-printf-regex",
        'awk \'BEGIN { printf /"/; system("touch .claude/pwned"); x="" }\'',
        OP,
        (P,),
    ),
    (
        "awk-return-regex",
        'awk \'function f() { return /"/; system("touch .claude/pwned"); y="" }\'',
        OP,
        (P,),
    ),
    (
        "awk-else-regex",
        'awk \'{ if (1) x=1; else /"/; system("touch .claude/pwned"); y="" }\'',
        OP,
        (P,),
    ),
    (
        "awk-bracket-regex",
        'awk \'/[/]"/ { print } END { system("touch .claude/pwned") } "\'',
        OP,
        (P,),
    ),
    ("xxd-length-plus", "xxd -l+100 a.txt .claude/settings.json", WR, (S,)),
    ("xxd-seek-plus", "xxd -s+0 a.txt .claude/settings.json", WR, (S,)),
    ("xxd-cols-plus", "xxd -c+16 a.txt .claude/settings.json", WR, (S,)),
    ("ed-regex-address", "ed -s a.txt <<< '/hello/w .claude/pwned'", OP, (P,)),
    ("ed-mark-address", 'ed -s a.txt <<< "\'aw .claude/pwned"', OP, (P,)),
    ("file-compile-abbrev", "file --co -m mg", WR, ("/w/p/mg.mgc",)),
    ("file-compile-output", "file -C -m .claude/m/x", WR, ("/w/p/x.mgc",)),
    ("uniq-skip-operand", "uniq +0 a.txt .claude/settings.json", WR, (S,)),
    ("dd-tilde", "dd if=a.txt of=~/.bashrc", WR, ("/home/u/.bashrc",)),
    ("dd-variable", "dd if=a of=$OUT", WR, ()),
    ("git-c-ext", "git -c protocol.ext.allow=always ls-remote 'ext::sh -c touch% x'", OP, ()),
    ("git-branch-verbose-name", "git branch -v newb", WR, ("/w/p/.git",)),
    ("git-maintenance-register", "git maintenance register", WR, ("/home/u/.gitconfig",)),
    ("ip-netns-exec", "ip netns add obx && ip netns exec obx touch .claude/pwned", OP, ()),
    ("ip-link-set", "ip link set eth0 up", OP, ()),
    ("ip-batch", "ip -batch cmds", OP, ()),
    ("ss-diag", "ss -D .claude/pwned", WR, (P,)),
    ("ss-kill", "ss -K dst 1.2.3.4", OP, ()),
    ("ruff-inline-cache", "ruff check --config 'cache-dir=\".claude/x\"' .", OP, ()),
]
PROGRAM_CONTROLS: list[Case] = [
    ("ctl-sed-loop", "sed ':a;N;$!ba;s/\\n/ /g' f", R, ()),
    ("ctl-sed-class", "sed -n '/[[:alpha:]]/p' f", R, ()),
    ("ctl-awk-division", "awk '{ a = b / 2; print a, $1 / $2 }' f", R, ()),
    ("ctl-awk-regex", "awk '$1 ~ /x/ {n++} END {print n}' f", R, ()),
    ("ctl-xxd", "xxd -l 100 a; xxd -len 16 -c8 a", R, ()),
    ("ctl-ed-print", "printf ',p\\nq\\n' | ed -s f", R, ()),
    ("ctl-file", "file -b x; file -bm mg x", R, ()),
    ("ctl-uniq", "uniq -c f", R, ()),
    ("ctl-git-branch-v", "git branch -v; git branch -vv -a", R, ()),
    ("ctl-git-c-protocol-version", "git -c protocol.version=2 ls-remote origin", R, ()),
    ("ctl-ip", "ip a; ip -br -c addr show dev eth0; ip route get 1.1.1.1; ip netns", R, ()),
    ("ctl-ss", "ss -tlnp; ss -s", R, ()),
    ("ctl-ruff-config-file", "ruff check --no-cache --config pyproject.toml .", R, ()),
    ("ctl-bash-c", "bash -e -o pipefail -c ls; bash --norc -c ls", R, ()),
]


@table(PROGRAMS + PROGRAM_CONTROLS)
def test_programs(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)


# --- E. inline code ---------------------------------------------------------------------------
def _py(code: str) -> str:
    return f'python3 -I -c "{code}"'


INLINE: list[Case] = [
    ("py-sys-modules", _py("import sys; sys.modules['os'].system('touch .claude/pwned')"), OP, ()),
    ("py-private-io", _py("import _io; _io.FileIO('.claude/settings.json','w')"), OP, ()),
    ("py-timeit", _py("import timeit; timeit.timeit('open(1)', number=1)"), OP, ()),
    ("py-dbm-dumb", _py("import dbm; dbm.dumb.open('foo','c')"), OP, ()),
    ("py-dbm-dumb-import", _py("import dbm.dumb; dbm.dumb.open('foo','c')"), OP, ()),
    ("py-gzipfile", _py("import gzip; gzip.GzipFile('foo.gz','w')"), OP, ()),
    ("py-pyzipfile", _py("import zipfile; zipfile.PyZipFile('foo.zip','w')"), OP, ()),
    ("py-mailbox", _py("import mailbox; mailbox.Maildir('foo',create=True)"), OP, ()),
    ("py-logging-config", _py("import logging.config; logging.config.dictConfig({})"), OP, ()),
    ("py-pickle", _py("import pickle; pickle.load(open('x','rb'))"), OP, ()),
    ("py-yaml-unsafe", _py("import yaml; yaml.unsafe_load(open('x'))"), OP, ()),
    ("py-module-through-module", _py("import os; os.path.os.system('x')"), OP, ()),
    ("py-private-through-module", _py("import random; random._os.system('x')"), OP, ()),
    ("py-fchmod", _py("import os; os.fchmod(os.open('a', os.O_RDONLY), 0o777)"), OP, ()),
    ("node-template", 'node -e \'`${require("child_process").execSync("touch p")}`\'', OP, ()),
    (
        "node-template-nested",
        'node -e \'`${`x`}${require("fs").writeFileSync(".claude/pwned", "")}`\'',
        WR,
        (P,),
    ),
    ("node-report", "node -e \"process.report.writeReport('.claude/pwned')\"", OP, (P,)),
    ("node-heap-snapshot", "node -e \"require('v8').writeHeapSnapshot('foo')\"", OP, ()),
    (
        "node-worker",
        "node -e \"new (require('worker_threads').Worker)('x', {eval: true})\"",
        OP,
        (),
    ),
    ("node-unix-socket", "node -e \"require('net').createServer().listen('foo')\"", OP, ()),
    (
        "node-fchmod",
        "node -e \"const fs=require('fs'); fs.fchmodSync(fs.openSync('a'),0o777)\"",
        WR,
        (),
    ),
    ("node-eval-value", "node -e \"(0,eval)('1')\"", OP, ()),
    ("node-require-value", "node -e \"const r=require; r('fs')\"", OP, ()),
    ("node-global", "node -e \"global.process.binding('fs')\"", OP, ()),
    (
        "perl-interpolated-system",
        "perl -e 'print \"@{[ system q(touch .claude/pwned) ]}\"'",
        OP,
        (),
    ),
    ("perl-interpolated-unlink", "perl -e 'print \"@{[ unlink q(a.txt) ]}\"'", WR, ()),
    ("perl-bind", 'perl -e \'socket(S,1,1,0); bind(S, pack("S a*",1,"foo"))\'', OP, ()),
    ("perl-inplace-variable", "perl -e '$^I=\"\"; while(<>){print}' f", OP, ()),
    ("ruby-interpolated-system", 'ruby -e \'puts "#{system("touch p")}"\'', OP, ()),
]
INLINE_CONTROLS: list[Case] = [
    ("ctl-py-json", _py("import json; print(json.dumps({'a': 1}))"), R, ()),
    ("ctl-py-os", _py("import os, sys; print(os.listdir('.'), os.getcwd(), sys.argv)"), R, ()),
    (
        "ctl-py-datetime",
        _py("import datetime, time; print(datetime.datetime.now(), time.time())"),
        R,
        (),
    ),
    ("ctl-py-pathlib", _py("from pathlib import Path; print(Path('x').read_text())"), R, ()),
    ("ctl-py-yaml", _py("import yaml; print(yaml.safe_load(open('x.yml')))"), R, ()),
    ("ctl-py-shutil-which", _py("import shutil; print(shutil.which('ls'))"), R, ()),
    (
        "ctl-node-template",
        "node -e 'const x = 1; console.log(`v=${x} ${JSON.stringify({a:{b:1}})}`)'",
        R,
        (),
    ),
    ("ctl-perl-interpolation", "perl -e 'print \"hello $x\\n\"'", R, ()),
    ("ctl-ruby-interpolation", "ruby -e 'x=1; puts \"v=#{x}\"'", R, ()),
]


@table(INLINE + INLINE_CONTROLS)
def test_inline_code(command: str, status: Status, named: tuple[str, ...]) -> None:
    check(command, status, named)
