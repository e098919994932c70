"""Issue 12's table: commands that write, each next to a read-only twin, with observed ground truth.

Each ``Row`` says what a command really does, and so what the Bash analysis must answer:

- ``write``: the command changes files, visibly in its text. The analysis must never say
  ``read_only``; with ``targets`` (paths relative to the working folder) it must name them.
  Targets are the paths the command's text spells out, nested text included (``sh -c``,
  ``git -c``, awk and sed programs); derived ones (a ``sed -i.bak`` backup) are not listed.
- ``opaque``: the command can change files, but what it does depends on files or values the text
  does not show (``make``, ``./run.sh``, a module loaded with ``perl -M``). The analysis must
  never say ``read_only``.
- ``read_only``: the command changes nothing. The analysis must say ``read_only`` (or, for a
  row marked ``provable=False``, a program issue 12 does not ask it to know: ``opaque``); it
  must never find a write.

Every row is run for real by ``tests/reality.py`` (test_bash_reality.py) unless it is
label-only: ``label_only`` gives the reason (Windows-only syntax, PowerShell), and rows whose
``needs`` are not installed become label-only at run time, saying which program is missing.
The ground truth of a row was observed on Linux (GNU coreutils, sed, tar; mawk) before it was
written down here.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from reality import Seed, isolated, isolation, which

from orchestrator_boundary.bash import BashAnalysis, Status, analyze

READ_ONLY, WRITE, OPAQUE = "read_only", "write", "opaque"
PLAIN = Seed()  # the default tree only

# analysis inputs: the folder the command runs in, and HOME, as reality.py lays them out
CWD = "/r/work"
HOME = "/r/home"


@dataclass(frozen=True)
class Row:
    id: str
    point: str  # the numbered point of issue 12 the row belongs to
    command: str
    label: str  # READ_ONLY, WRITE or OPAQUE
    targets: tuple[str, ...] = ()  # visible write targets, relative to the working folder
    seed: Seed = PLAIN
    needs: tuple[str, ...] = ()  # programs the reality check needs (beyond bash and coreutils)
    label_only: str = ""  # why the row cannot be run here at all
    tty: bool = False  # run with a terminal as output (pagers start only then)
    offline_only: bool = False  # could reach the network: run only inside a network namespace
    shell: str = "bash"
    budget: int | None = None
    # for READ_ONLY rows: the analysis must prove it (False: a program the issue does not ask
    # the analysis to know; "opaque" is then a fair answer, a write never is)
    provable: bool = True

    def unchecked(self) -> str:
        """Why reality is not checked for this row on this machine ("" when it is)."""
        if self.label_only:
            return self.label_only
        if self.offline_only and not isolated():
            return f"could reach the network, and the run is not isolated: {isolation()}"
        missing = [p for p in self.needs if which(p) is None]
        return f"not installed here: {', '.join(missing)}" if missing else ""


def _row(label: str, point: str, rid: str, command: str, *targets: str, **kw: object) -> Row:
    return Row(rid, point, command, label, tuple(targets), **kw)  # type: ignore[arg-type]


def W(point: str, rid: str, command: str, *targets: str, **kw: object) -> Row:
    return _row(WRITE, point, rid, command, *targets, **kw)


def R(point: str, rid: str, command: str, **kw: object) -> Row:
    return _row(READ_ONLY, point, rid, command, **kw)


def O(point: str, rid: str, command: str, **kw: object) -> Row:  # noqa: E743
    return _row(OPAQUE, point, rid, command, **kw)


# --- seeds ----------------------------------------------------------------------------------
GIT = Seed(git=True)
GIT_DIRTY = Seed(git=True, setup="echo more >> f")
GIT_BRANCH = Seed(  # a branch "other" where f differs; HEAD stays where it was
    git=True,
    setup="git checkout -q -b other && echo other > f && git commit -qam other && git checkout -q -",
)
TAR = Seed(setup="mkdir t && echo new > t/n && tar -cf x.tar -C t n && rm -r t")
MODE = Seed(setup="chmod 700 a")
PYC = Seed(files=(("src/main.pyc", "x"),))
# a project module named like a standard one: python -c / -m run it in place of the real one
SHADOW = Seed(files=(("json.py", "open('pwned.txt', 'w').write('x')\ndumps = str\n"),))
NPM = Seed(files=(("package.json", '{"name": "p", "version": "1.0.0"}\n'),))
NPM_TEST = Seed(
    files=(("package.json", '{"name": "p", "version": "1.0.0", "scripts": {"test": "touch t"}}\n'),)
)
C_SRC = Seed(files=(("hello.c", "int main(void) { return 0; }\n"),))
JAVA = Seed(files=(("Hello.java", "class Hello {}\n"),))
SQL = Seed(setup="sqlite3 db.sqlite 'create table t(x)'")
MAKE = Seed(files=(("Makefile", "all:\n\ttouch built\n"),))
SCRIPT = Seed(setup="printf '#!/bin/sh\\ntouch ran\\n' > run.sh && chmod +x run.sh")
PYTEST = Seed(files=(("test_w.py", "def test_w():\n    open('written', 'w').close()\n"),))
PY_UGLY = Seed(files=(("ugly.py", "x=( 1,2 )\n"), ("lint.py", "import os\n")))
RUST = Seed(files=(("main.rs", "fn main(){let x=1;}\n"),))
RUST_OK = Seed(files=(("main.rs", "fn main() {}\n"),))
CARGO = Seed(
    files=(
        ("Cargo.toml", '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n'),
        ("src/main.rs", "fn main(){}\n"),
    )
)
CARGO_OK = Seed(
    files=(
        ("Cargo.toml", '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n'),
        ("src/main.rs", "fn main() {}\n"),
    )
)
MAGIC = Seed(files=(("magic", "0\tstring\thello\thello-file\n"),))
AR = Seed(setup="ar rc lib.a a")
YAML = Seed(files=(("c.yaml", "a: 1\n"),))
PRELOAD = Seed(
    files=(
        (
            "p.c",
            "#include <stdio.h>\n__attribute__((constructor)) static void w(void)"
            ' { FILE *f = fopen("preloaded", "w"); if (f) fclose(f); }\n',
        ),
    ),
    setup="gcc -shared -fPIC -o p.so p.c && rm p.c",
)
BASH_ENV = Seed(files=(("e.sh", "touch sourced\n"),))
NODE_REQ = Seed(files=(("r.js", "require('fs').writeFileSync('required', '')\n"),))
PY_START = Seed(files=(("s.py", "open('started', 'w').close()\n"),))
PERL_PIPE_NAME = Seed(files=(("|touch pwned", "x\n"),))  # a file name perl's <> runs
PERL_MOD = Seed(files=(("W.pm", "package W; open(my $f, '>', 'loaded'); 1;\n"),))
PATCH = Seed(files=(("p.diff", "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"),))
ZIP = Seed(setup="zip -q z.zip a b")
CURL_CFG = Seed(files=(("cfg", "output = out\n"),))
AWK_FILE = Seed(files=(("w.awk", 'BEGIN { print "x" > "o" }\n'),))
HEX = Seed(files=(("hex", "6869\n"),))
RSYNC_BACKUP = Seed(files=(("d/a", "older\n"),))
URL = "file:///etc/hostname"  # curl reads it without a network
# git's subcommand options (ADR 0038): a dangling object for fsck, programs the repository's
# configuration names for --ext-diff / --textconv, an untracked file for clean -n, a patch
GIT_DANGLING = Seed(git=True, setup="echo dangling | git hash-object -w --stdin >/dev/null")
GIT_EXT_DIFF = Seed(
    git=True,
    files=(("xd.sh", "#!/bin/sh\ntouch p\n"),),
    setup="chmod +x xd.sh && git config diff.external ./xd.sh && echo more >> f",
)
GIT_TEXTCONV = Seed(
    git=True,
    files=((".gitattributes", "f diff=t\n"), ("tc.sh", '#!/bin/sh\ntouch p\ncat "$1"\n')),
    setup="chmod +x tc.sh && git config diff.t.textconv ./tc.sh",
)
GIT_UNTRACKED = Seed(git=True, setup="echo u > untracked")
# npm without its own log files and update checks (they go to HOME, a change of their own)
NPMRC = ("../home/.npmrc", "logs-max=0\nupdate-notifier=false\n")
NPM_QUIET = Seed(
    files=(("package.json", '{"name": "p", "version": "1.0.0"}\n'), NPMRC, ("../home/.npm/k", ""))
)
NPM_PREPACK = Seed(
    files=(
        ("package.json", '{"name": "p", "version": "1.0.0", "scripts": {"prepack": "touch pp"}}\n'),
        NPMRC,
    )
)
PIP_RUNNER = Seed(files=(("py", "#!/bin/sh\ntouch ran\n"),), setup="chmod +x py")
PIP_CACHE = Seed(
    files=(
        ("../home/.cache/pip/http/a/b/c/d/e/entry", "x"),
        ("../home/.cache/pip/http-v2/a/b/c/d/e/entry", "x"),
    )
)
JS = Seed(files=(("s.js", "console.log(1)\n"),))
NODE_ENV_FILE = Seed(
    files=(
        ("e.env", "NODE_OPTIONS=--require ./r.js\n"),
        ("r.js", "require('fs').writeFileSync('required', '')\n"),
    )
)
SSH_KEY = Seed(setup="ssh-keygen -q -N '' -f k")
JAVAC_ARGS = Seed(files=(("Hello.java", "class Hello {}\n"), ("args", "-d out Hello.java\n")))
GIT_PATCH = Seed(
    git=True, files=(("p.diff", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"),)
)
NO_NET = "http://127.0.0.1:9/"  # wget fails to connect: only what it opens first is written

PS = "PowerShell: pwsh is not installed here, and the rows are Windows semantics"
WINDOWS = "Windows only: cmd.exe does not exist on Linux"


ROWS: list[Row] = [
    # --- 1. options: GNU abbreviations and attached values ------------------------------------
    W("1", "sed-i-abbrev", "sed --i s/a/X/ f", "f"),
    W("1", "sed-in-place-suffix", "sed --in-place=.bak s/a/X/ f", "f"),
    W("1", "sed-i-attached-suffix", "sed -i.bak s/a/X/ f", "f"),
    W("1", "sed-i-clustered", "sed -Ei s/a/X/ f", "f"),
    W("1", "sed-i-after-script", "sed -e s/a/X/ -i f", "f"),
    R("1", "sed-n-p", "sed -n p f"),
    R("1", "sed-e", "sed -e s/a/X/ f"),
    R("1", "sed-E-n", "sed -En '/a|b/p' f"),
    W("1", "cp-target-abbrev", "cp --target=d f", "d/f"),
    W("1", "cp-t-attached", "cp -td f", "d/f"),
    W("1", "mv-targ-abbrev", "mv --targ=d f", "d/f", "f"),
    W("1", "sort-out-abbrev", "sort --out=o f", "o"),
    W("1", "sort-o-attached", "sort -oo f", "o"),
    W("1", "sort-o-equals", "sort -o=o f", "=o"),
    W("1", "sort-ro-clustered", "sort -ro o f", "o"),
    R("1", "sort-plain", "sort f"),
    R("1", "sort-reverse-unique", "sort -ru f"),
    W("1", "chmod-ref-abbrev", "chmod --ref=a b", "b", seed=MODE),
    R("1", "ls-l-mode", "ls -l a b", seed=MODE),
    W("1", "tar-cre-abbrev", "tar --cre -f x2.tar f", "x2.tar"),
    W("1", "tar-cf", "tar -cf x2.tar f", "x2.tar"),
    W("1", "tar-ext-abbrev", "tar --ext -f x.tar", seed=TAR),
    W("1", "tar-xf", "tar -xf x.tar", seed=TAR),
    R("1", "tar-tf", "tar -tf x.tar", seed=TAR),
    R("1", "tar-tvf", "tar -tvf x.tar", seed=TAR),
    R("5", "tar-xOf", "tar -xOf x.tar", seed=TAR),
    W("5", "tar-remove-files", "tar -cf x2.tar --remove-files a", "x2.tar", "a"),
    # 1. the option model for the programs that used the older splitter: curl, wget, rsync,
    # scp, patch, zip, find, awk, xxd, split, mktemp, tree
    W("1", "curl-o", f"curl -s -o out {URL}", "out", needs=("curl",)),
    W("1", "curl-O", f"curl -sO {URL}", "hostname", needs=("curl",)),
    W(
        "1",
        "curl-dump-header-abbrev",
        f"curl -s --dump-h h -o /dev/null {URL}",
        "h",
        needs=("curl",),
    ),
    W("1", "curl-cookie-jar", f"curl -s -c jar {URL}", "jar", needs=("curl",)),
    W("1", "curl-trace", f"curl -s --trace t {URL}", "t", needs=("curl",)),
    W("1", "curl-stderr", f"curl -v --stderr e {URL}", "e", needs=("curl",)),
    W("1", "curl-libcurl", f"curl -s --libcurl c.c {URL}", "c.c", needs=("curl",)),
    W(
        "1",
        "curl-output-dir",
        f"curl -s --create-dirs --output-dir dl -O {URL}",
        "dl/hostname",
        needs=("curl",),
    ),
    W("1", "curl-T-file-url", "curl -s -T a file:///tmp/up", needs=("curl",)),
    W(
        "1",
        "curl-output-dir-not-for-headers",
        f"curl -s --create-dirs --output-dir dl -D h -o o {URL}",
        "dl/o",
        "h",
        needs=("curl",),
    ),
    O("1", "curl-K-config", f"curl -s -K cfg {URL}", seed=CURL_CFG, needs=("curl",)),
    R("1", "curl-stdout", f"curl -s {URL}", needs=("curl",)),
    R("1", "curl-o-dash", f"curl -s -o - {URL}", needs=("curl",)),
    R("1", "curl-head", f"curl -sI {URL}", needs=("curl",)),
    R(
        "1",
        "curl-write-out",
        f"curl -s --no-progress-meter -w '%{{http_code}}' {URL}",
        needs=("curl",),
    ),
    W("1", "wget-spider-O", f"wget -q --spider -O out {NO_NET}", "out", needs=("wget",)),
    W("1", "wget-append-log", f"wget -a log {NO_NET}", "log", needs=("wget",)),
    W("1", "wget-output-file-abbrev", f"wget --output-f=log {NO_NET}", "log", needs=("wget",)),
    R("1", "wget-O-dash", f"wget -q -O - {NO_NET}", needs=("wget",)),
    R("1", "wget-nv-spider", f"wget -nv --spider {NO_NET}", needs=("wget",)),
    W("1", "rsync-destination", "rsync -a d/ copy/", "copy", needs=("rsync",)),
    W("1", "rsync-dry-run-log-file", "rsync -n -a --log-file=l f g", "l", needs=("rsync",)),
    W("1", "rsync-remove-source", "rsync --remove-source-files f g", "g", "f", needs=("rsync",)),
    W(
        "1",
        "rsync-backup-dir",
        "rsync -ab --backup-dir=../old a d/",
        "d/a",
        "old",
        seed=RSYNC_BACKUP,
        needs=("rsync",),
    ),
    R("1", "rsync-dry-run", "rsync -n -a f g", needs=("rsync",)),
    R("1", "rsync-list-only", "rsync --list-only f", needs=("rsync",)),
    W("1", "scp-local-copy", "scp -q a b2", "b2", needs=("scp",)),
    W("1", "patch-target", "patch -s f p.diff", "f", seed=PATCH, needs=("patch",)),
    W("1", "patch-o", "patch -s -o out f p.diff", "out", seed=PATCH, needs=("patch",)),
    W("1", "patch-backup", "patch -s -b f p.diff", "f", seed=PATCH, needs=("patch",)),
    W("1", "patch-input-abbrev", "patch -s --inp=p.diff f", "f", seed=PATCH, needs=("patch",)),
    W("1", "patch-from-stdin", "patch -s -p0 < p.diff", seed=PATCH, needs=("patch",)),
    R("1", "patch-dry-run", "patch -s --dry-run f p.diff", seed=PATCH, needs=("patch",)),
    R("1", "patch-dry-abbrev", "patch -s --dry f p.diff", seed=PATCH, needs=("patch",)),
    W("1", "zip-archive", "zip -q out f", "out.zip", needs=("zip",)),
    W("1", "zip-move", "zip -qm out.zip f", "out.zip", "f", needs=("zip",)),
    W("1", "zip-delete-entry", "zip -q -d z.zip a", "z.zip", seed=ZIP, needs=("zip",)),
    W("1", "zip-output-file", "zip -q -O z2.zip z.zip f", "z2.zip", seed=ZIP, needs=("zip",)),
    W(
        "1",
        "zip-TT-command",
        "zip -q -T -TT 'touch p; true' z3.zip f",
        "p",
        "z3.zip",
        needs=("zip",),
    ),
    W("1", "zip-log-file", "zip -q -lf log z3.zip f", "log.log", "z3.zip", needs=("zip",)),
    R("1", "zip-show-files", "zip -sf z.zip", seed=ZIP, needs=("zip",)),
    R("1", "zip-test", "zip -T z.zip", seed=ZIP, needs=("zip",)),
    R("1", "zip-to-stdout", "zip -q - f | wc -c", needs=("zip",)),
    W("1", "find-fprint", "find . -name f -fprint out", "out"),
    W("1", "find-fls", "find . -name f -fls out", "out"),
    W("1", "find-fprintf", "find . -name f -fprintf out '%p\\n'", "out"),
    W("1", "find-fprint0", "find . -name f -fprint0 out", "out"),
    R("1", "find-print0", "find . -name f -print0"),
    R("1", "find-printf", "find . -name f -printf '%p\\n'"),
    R("1", "find-newermt", "find . -newermt 2000-01-01 -type f"),
    R("1", "find-L-maxdepth-ls", "find -L . -maxdepth 1 -name a -ls"),
    O("1", "awk-f-program-file", "awk -f w.awk f", seed=AWK_FILE),
    W("1", "gawk-dump-variables", "gawk -d 'BEGIN { x = 1 }'", "awkvars.out", needs=("gawk",)),
    W("1", "gawk-pretty-print", "gawk -ox.awk 'BEGIN { x = 1 }'", "x.awk", needs=("gawk",)),
    W("1", "gawk-profile-abbrev", "gawk --prof=prof 'BEGIN { x = 1 }'", "prof", needs=("gawk",)),
    R("1", "awk-v-assign", "awk -v x=1 '{ print x }' f"),
    R("1", "awk-F", "awk -F: '{ print $1 }' f"),
    R("1", "mawk-W-version", "mawk -W version", needs=("mawk",)),
    W("1", "xxd-outfile", "xxd f out", "out", needs=("xxd",)),
    W("1", "xxd-revert-outfile", "xxd -r -p hex out", "out", seed=HEX, needs=("xxd",)),
    R("1", "xxd-plain", "xxd -p f", needs=("xxd",)),
    W("1", "split-prefix", "split -l 1 f piece"),  # the analysis names the pattern piece*
    W("1", "mktemp", "mktemp"),
    R("1", "mktemp-dry-run", "mktemp -u"),
    W("1", "tree-o", "tree -o out", "out", needs=("tree",)),
    R("1", "tree-L", "tree -L 1", needs=("tree",)),
    # git subcommands: only options known to be harmless are read-only (ADR 0038)
    W("1", "git-diff-output-separate", "git diff --output o", "o", seed=GIT_DIRTY),
    W("1", "git-log-output-p", "git log -p -1 --output=o", "o", seed=GIT),
    W("1", "git-show-output-separate", "git show --stat --output o HEAD", "o", seed=GIT),
    W("1", "git-fsck-lost-found-abbrev", "git fsck --lost", ".git/lost-found", seed=GIT_DANGLING),
    W("1", "git-grep-open-files-abbrev", "git grep --open=touch alpha", seed=GIT),
    O("1", "git-log-ext-diff", "git log -p -1 --ext-diff", seed=GIT_EXT_DIFF),
    O("1", "git-diff-ext-diff", "git diff --ext-diff", seed=GIT_EXT_DIFF),
    O("1", "git-cat-file-textconv", "git cat-file --textconv HEAD:f", seed=GIT_TEXTCONV),
    W("1", "git-branch-create", "git branch feature", ".git", seed=GIT),
    W("1", "git-branch-copy-abbrev", "git branch --cop main other", ".git", seed=GIT),
    W("1", "git-tag-create", "git tag v1", ".git", seed=GIT),
    W("1", "git-config-set", "git config user.name bob", ".git/config", seed=GIT),
    W("1", "git-remote-add", "git remote add o https://example.invalid/r", ".git", seed=GIT),
    W("1", "git-stash-push", "git stash push -q", ".git", "f", seed=GIT_DIRTY),
    # git rewrites the working tree: the tracked file f goes back to what HEAD holds
    W("1", "git-reset-hard-tree", "git reset -q --hard", "f", seed=GIT_DIRTY),
    W("1", "git-checkout-branch-tree", "git checkout -q other", "f", seed=GIT_BRANCH),
    W("1", "git-switch-branch-tree", "git switch -q other", "f", seed=GIT_BRANCH),
    W("1", "git-merge-tree", "git merge -q other", "f", seed=GIT_BRANCH),
    W("1", "git-clean-force", "git clean -f", "untracked", seed=GIT_UNTRACKED),
    W("1", "git-apply-stat-apply", "git apply --stat --apply p.diff", "f", seed=GIT_PATCH),
    R(
        "1",
        "git-log-harmless-options",
        "git log --oneline -n 1 --author=x --since='1 year ago'",
        seed=GIT,
    ),
    R("1", "git-log-p-text-no-ext-diff", "git log -p -1 --text --no-ext-diff", seed=GIT_EXT_DIFF),
    R(
        "1",
        "git-diff-harmless-options",
        "git diff --stat=80 -U5 --name-status --no-color",
        seed=GIT_DIRTY,
    ),
    R("1", "git-diff-stat-abbrev", "git diff --name-st -M90%", seed=GIT_DIRTY),
    R("1", "git-status-stuck-values", "git status -sb -uno --porcelain=v1", seed=GIT),
    R("1", "git-grep-harmless-options", "git grep -n -i -e alpha -1 -- .", seed=GIT),
    R("1", "git-cat-file-no-textconv", "git cat-file -p HEAD:f", seed=GIT_TEXTCONV),
    R("1", "git-branch-listing", "git branch -a -vv --sort=-committerdate", seed=GIT),
    R("1", "git-branch-list-pattern", "git branch --list 'ma*'", seed=GIT),
    R("1", "git-tag-listing", "git tag -l -n3", seed=GIT),
    R("1", "git-config-get", "git config --get core.bare", seed=GIT),
    R("1", "git-config-key", "git config --type=bool core.bare", seed=GIT),
    R("1", "git-stash-list", "git stash list --oneline", seed=GIT),
    R("1", "git-clean-dry-run", "git clean -nd", seed=GIT_UNTRACKED),
    R("1", "git-apply-check", "git apply --check --stat p.diff", seed=GIT_PATCH),
    R("1", "git-format-patch-stdout", "git format-patch --stdout -1", seed=GIT),
    R(
        "1",
        "git-rev-parse-options",
        "git rev-parse --abbrev-ref --symbolic-full-name HEAD",
        seed=GIT,
    ),
    R("1", "git-blame-options", "git blame -w -M --contents a a", seed=GIT),
    R("1", "git-ls-files-options", "git ls-files -s -o --exclude-standard", seed=GIT),
    R("1", "git-remote-v", "git remote -v", seed=GIT),
    # developer tools, package managers, interpreters: every read-only form has its table
    O("1", "npm-pack-dry-run-scripts", "npm pack --dry-run", seed=NPM_PREPACK, needs=("npm",)),
    # npm's debug log goes where its configuration says: not provable (ADR 0049)
    R("1", "npm-ls", "npm ls --all", seed=NPM_QUIET, needs=("npm",), provable=False),
    R("1", "npm-version-flag", "npm --version", seed=NPM_QUIET, needs=("npm",)),
    W(
        "1",
        "npm-ls-logs-dir",
        "npm ls --logs-dir=logs --logs-max=5",
        "logs",
        seed=NPM_QUIET,
        needs=("npm",),
    ),
    W(
        "1",
        "pip-list-log",
        "pip list --disable-pip-version-check --log l.txt",
        "l.txt",
        needs=("pip",),
    ),
    R("1", "pip-list-user", "pip list --disable-pip-version-check --user", needs=("pip",)),
    R("1", "pip-show-files", "pip show -f pip", needs=("pip",)),
    O("1", "pip-list-python", "pip --python ./py list", seed=PIP_RUNNER, needs=("pip",)),
    W("1", "pip-cache-purge", "pip cache purge", seed=PIP_CACHE, needs=("pip",)),
    R("1", "pip-cache-dir", "pip cache dir", seed=PIP_CACHE, needs=("pip",)),
    W(
        "1",
        "ruff-check-output-file",
        "ruff check --no-cache -o r.txt lint.py",
        "r.txt",
        seed=PY_UGLY,
        needs=("ruff",),
    ),
    W(
        "1",
        "ruff-check-fix-only",
        "ruff check --no-cache --fix-only lint.py",
        "lint.py",
        seed=PY_UGLY,
        needs=("ruff",),
    ),
    R("1", "ruff-version", "ruff --version", needs=("ruff",)),
    R("1", "ruff-rule", "ruff rule F401", needs=("ruff",)),
    W(
        "1",
        "rustfmt-emit-files",
        "rustfmt --emit files main.rs",
        "main.rs",
        seed=RUST,
        needs=("rustfmt",),
    ),
    # rustup's proxies follow rust-toolchain.toml, which may name a toolchain in the project:
    # read-only here, not provably so
    R(
        "1",
        "rustfmt-emit-stdout",
        "rustfmt --emit stdout main.rs",
        seed=RUST,
        needs=("rustfmt",),
        provable=False,
    ),
    R("1", "cargo-version", "cargo --version", needs=("cargo",), provable=False),
    W("1", "gcc-v-compiles", "gcc -v hello.c", "a.out", seed=C_SRC, needs=("gcc",)),
    W("1", "gcc-E-MD", "gcc -E -MD hello.c", "hello.d", seed=C_SRC, needs=("gcc",)),
    W("1", "gcc-E-Wp-MD", "gcc -E -Wp,-MD,deps.d hello.c", "deps.d", seed=C_SRC, needs=("gcc",)),
    R(
        "1",
        "gcc-syntax-only",
        "gcc -fsyntax-only -Wall -std=c11 -I. hello.c",
        seed=C_SRC,
        needs=("gcc",),
    ),
    R("1", "gcc-v-alone", "gcc -v", needs=("gcc",)),
    W(
        "1",
        "sqlite3-writefile",
        "sqlite3 db.sqlite \"select writefile('o', 'x')\"",
        "o",
        seed=SQL,
        needs=("sqlite3",),
    ),
    W(
        "1",
        "sqlite3-with-insert",
        "sqlite3 db.sqlite 'with x as (select 1) insert into t select * from x'",
        "db.sqlite",
        seed=SQL,
        needs=("sqlite3",),
    ),
    W(
        "1",
        "sqlite3-stdin-save",
        "sqlite3 db.sqlite <<< '.save out.db'",
        "out.db",
        seed=SQL,
        needs=("sqlite3",),
    ),
    R(
        "1",
        "sqlite3-with-select",
        "sqlite3 db.sqlite 'with x as (select 1) select * from x'",
        seed=SQL,
        needs=("sqlite3",),
        provable=False,  # a missing database file is created (ADR 0049)
    ),
    R(
        "1",
        "sqlite3-stdin-select",
        "sqlite3 db.sqlite <<< 'select count(*) from t;'",
        seed=SQL,
        needs=("sqlite3",),
        provable=False,  # a missing database file is created (ADR 0049)
    ),
    W(
        "1",
        "ssh-keygen-f-cluster",
        "ssh-keygen -q -N '' -fey",
        "ey",
        "ey.pub",
        needs=("ssh-keygen",),
    ),
    R("1", "ssh-keygen-l", "ssh-keygen -l -f k.pub", seed=SSH_KEY, needs=("ssh-keygen",)),
    W("1", "iconv-output-abbrev", "iconv -f utf-8 -t ascii --out=o f", "o"),
    R("1", "iconv-list", "iconv -l"),
    W("1", "sdiff-output-abbrev", "sdiff --outp=o a b", "o", needs=("sdiff",)),
    W("1", "time-output-abbrev", "/usr/bin/time --out=t true", "t", needs=("/usr/bin/time",)),
    W("1", "perl-c-runs-begin", "perl -c -e 'BEGIN { unlink \"f\" }'", "f", needs=("perl",)),
    R("1", "perl-lane", "perl -lane 'print $F[0]' f", needs=("perl",)),
    W("1", "node-e-prof", "node -e 1 --prof", needs=("node",)),
    W(
        "1",
        "node-redirect-warnings",
        "node --redirect-warnings=w -e 'process.emitWarning(\"x\")'",
        "w",
        needs=("node",),
    ),
    O("1", "node-env-file", "node --env-file=e.env -e 1", seed=NODE_ENV_FILE, needs=("node",)),
    R("1", "node-version", "node --version", needs=("node",)),
    W("1", "python-X-pycache-prefix", "python3 -X pycache_prefix=pc -I -c 'import json'", "pc"),
    R("1", "python-X-utf8", "python3 -X utf8 -I -c 'print(1)'"),
    W(
        "1",
        "python-json-tool-out",
        "python3 -I -m json.tool in.json out.json",
        "out.json",
        seed=Seed(files=(("in.json", "{}\n"),)),
    ),
    R(
        "1",
        "python-json-tool-indent",
        "python3 -I -m json.tool --indent 2 in.json",
        seed=Seed(files=(("in.json", "{}\n"),)),
    ),
    R("1", "node-check", "node --check s.js", seed=JS, needs=("node",)),
    W("1", "openssl-rand-writerand", "openssl rand -writerand r 8", "r", needs=("openssl",)),
    R("1", "openssl-version", "openssl version -a", needs=("openssl",)),
    R("1", "ar-tv", "ar tv lib.a", seed=AR, needs=("ar",)),
    O("1", "javac-at-file", "javac @args", seed=JAVAC_ARGS, needs=("javac",)),
    # --- 2. nested commands ---------------------------------------------------------------------
    W("2", "find-exec-sh", "find . -name f -exec sh -c 'echo x > y' \\;", "y"),
    W("2", "find-exec-plus-sh", "find . -name f -exec sh -c 'echo x > y' sh {} +", "y"),
    W("2", "find-execdir-sh", "find . -name g.txt -execdir sh -c 'echo x > y' \\;"),
    W("2", "find-ok-touch", "yes | find . -name f -ok touch p \\;", "p"),
    W("2", "find-delete", "find . -name '*.pyc' -delete", seed=PYC),
    W("2", "find-exec-rm", "find . -name '*.pyc' -exec rm {} +", seed=PYC),
    R("2", "find-name", "find . -name '*.py'"),
    R("2", "find-exec-cat", "find . -name f -exec cat {} \\;"),
    R("2", "find-exec-grep", "find . -type f -exec grep -l alpha {} +"),
    W("2", "xargs-sh", "echo f | xargs sh -c 'echo x > y'", "y"),
    W("2", "xargs-rm", "printf 'a\\nb\\n' | xargs rm"),
    R("2", "xargs-cat", "echo f | xargs cat"),
    R("2", "xargs-grep", "printf 'a\\nb\\n' | xargs grep -h a"),
    W(
        "2",
        "tar-checkpoint-exec",
        "tar --checkpoint=1 --checkpoint-action=exec='touch p' -tf x.tar",
        "p",
        seed=TAR,
    ),
    W("2", "tar-I-program", "tar -I 'sh -c \"touch p; cat\"' -tf x.tar", "p", seed=TAR),
    W(
        "2",
        "tar-use-compress-program",
        "tar --use-compress-program='sh -c \"touch p; cat\"' -tf x.tar",
        "p",
        seed=TAR,
    ),
    W("2", "git-c-core-fsmonitor", "git -c core.fsmonitor='touch p; false' status", "p", seed=GIT),
    W("2", "git-c-core-pager", "git -c core.pager='touch p; cat' log", "p", seed=GIT, tty=True),
    W(
        "2",
        "git-config-env-fsmonitor",
        "X='touch p; false' git --config-env=core.fsmonitor=X status",
        seed=GIT,
    ),
    W(
        "2",
        "git-c-diff-external",
        "git -c diff.external='sh -c \"touch p\"' diff",
        "p",
        seed=GIT_DIRTY,
    ),
    R("2", "git-status", "git status", seed=GIT),
    R("2", "git-log", "git log --oneline", seed=GIT),
    R("2", "git-diff", "git diff", seed=GIT_DIRTY),
    R("2", "git-show-stat", "git show --stat", seed=GIT),
    W("2", "sed-e-command", "sed '1e touch p' f", "p"),
    W("2", "sed-w-file", "sed -n '/a/w o' f", "o"),
    W("2", "sed-s-w-flag", "sed 's/a/X/w o' f", "o"),
    R("2", "sed-n-pattern-p", "sed -n '/a/p' f"),
    W("2", "awk-system", "awk 'BEGIN { system(\"touch p\") }'", "p"),
    W("2", "awk-print-to-file", "awk '{ print > \"o\" }' f", "o"),
    W("2", "awk-print-append", "awk '{ print >> \"o\" }' f", "o"),
    W("2", "awk-print-to-pipe", "awk '{ print | \"cat > o\" }' f", "o"),
    R("2", "awk-print-field", "awk '{ print $1 }' f"),
    W("2", "watch-joins-words", "timeout 2 watch -n 1 -t echo 'x > o'", "o", needs=("watch",)),
    R("2", "watch-exec-argv", "timeout 2 watch -n 1 -t -x echo 'x > o'", needs=("watch",)),
    W("2", "env-dash-touch", "env - touch p", "p"),
    W("2", "nice-numeric-touch", "nice -5 touch p", "p"),
    R("2", "xargs-i-echo", "xargs -a f -i echo {}"),
    R("2", "awk-print-gt-string", "awk '{ print \">\" $0 }' f"),
    W("2", "mapfile-callback", "mapfile -C 'touch p; :' -c 1 lines < f", "p"),
    R("2", "mapfile-plain", 'mapfile -t lines < f; echo "${lines[0]}"', provable=False),
    W("2", "coproc-touch", "coproc touch p; wait", "p"),
    W("2", "trap-exit", "trap 'touch p' EXIT; true", "p"),
    R("2", "trap-echo", "trap 'echo bye' EXIT; true"),
    W("2", "ps4-xtrace", "PS4='$(touch p)'; set -x; true", "p"),
    R("2", "xtrace-plain", "set -x; ls"),
    W("2", "prompt-command-interactive", "PROMPT_COMMAND='touch p' bash -i < /dev/null", "p"),
    W("2", "alias-defined-used", "shopt -s expand_aliases\nalias t='touch p'\nt", "p"),
    R("2", "alias-read-only", "shopt -s expand_aliases\nalias l='ls -l'\nl", provable=False),
    W("2", "function-redirect", "w() { echo x; } > o; w", "o"),
    R("2", "function-plain", "w() { echo x; }; w"),
    W("2", "hash-p", "hash -p /usr/bin/touch ls; ls p"),
    # --- 3. text that becomes code ----------------------------------------------------------------
    W("3", "arith-subscript", "x='a[$(touch p)]'; echo $((x))"),
    W("3", "test-eq-subscript", "x='a[$(touch p)]'; [[ $x -eq 0 ]]"),
    W("3", "printf-v-subscript", "x='a[$(touch p)]'; printf -v \"$x\" 1"),
    W("3", "read-subscript", "x='a[$(touch p)]'; read \"$x\" <<< 1"),
    W("3", "declare-subscript", "x='a[$(touch p)]'; declare \"$x=1\""),
    W("3", "test-v-subscript", "x='a[$(touch p)]'; [[ -v $x ]]"),
    R("3", "arith-literal", "echo $((3 + 4))"),
    R("3", "test-eq-literal", "[[ 3 -eq 3 ]] && echo same"),
    W("3", "prompt-expansion", "x='$(touch p)'; echo \"${x@P}\""),
    W("3", "eval-literal", "eval 'touch p'", "p"),
    W("3", "eval-variable", "c='touch p'; eval \"$c\""),
    R("3", "eval-literal-ls", "eval 'ls'"),
    W("3", "command-from-variable", "x=touch; $x p"),
    W("3", "command-from-substitution", '"$(echo touch)" p'),
    W("3", "ansi-c-command", "$'\\x74ouch' p", "p"),
    R("3", "ansi-c-ls", "$'\\x6cs'"),
    W("3", "pipe-to-bash", "echo 'touch p' | bash", "p"),
    W("3", "bash-process-substitution", "bash <(echo touch p)", "p"),
    W("3", "source-process-substitution", "source <(echo touch p)", "p"),
    W("3", "dot-dev-stdin-herestring", ". /dev/stdin <<< 'touch p'", "p"),
    W("3", "heredoc-to-sh", "cat <<EOF | sh\ntouch p\nEOF", "p"),
    # issue 13: a program named through a lookup, a spelled name, a multi-call binary
    W("3", "which-as-program", "$(which touch) p", "p"),
    W("3", "command-v-as-program", '"$(command -v touch)" p', "p"),
    W("3", "backquoted-which-as-program", "`which touch` p", "p"),
    R("3", "which-ls-as-program", "$(which ls) -a"),
    W("3", "name-spelled-from-variable", "c=uch; to${c} p", "p"),
    W("3", "busybox-sh-c", "busybox sh -c 'touch p'", "p", needs=("busybox",)),
    W("3", "busybox-applet", "busybox touch p", "p", needs=("busybox",)),
    R("3", "busybox-ls", "busybox ls", needs=("busybox",)),
    W("3", "toybox-applet", "toybox touch p", "p", needs=("toybox",)),
    R("3", "pipe-ls-to-bash", "echo ls | bash"),
    R("3", "heredoc-ls-to-sh", "cat <<EOF | sh\nls\nEOF"),
    # --- 4. redirect targets ---------------------------------------------------------------------
    W("4", "redirect-nul-linux", "echo x > nul", "nul"),
    W("4", "redirect-NUL-linux", "echo x > NUL", "NUL"),
    W("4", "redirect-CON-linux", "echo x > CON", "CON"),
    R("4", "redirect-dev-null", "echo x > /dev/null"),
    W("4", "dev-stdin-after-input", "{ echo x > /dev/stdin; } < f", "f"),
    W("4", "dev-fd-0-after-input", "echo x < a > /dev/fd/0", "a"),
    W("4", "dev-fd-3-after-exec", "exec 3< f; echo x > /dev/fd/3", "f"),
    W("4", "dev-stdout-after-exec", "exec 1> o; echo x > /dev/stdout", "o"),
    R("4", "redirect-dev-stdout", "echo x > /dev/stdout"),
    R("4", "redirect-dev-stderr", "echo x > /dev/stderr"),
    R("4", "dev-stdin-read", "cat /dev/stdin < f"),
    W("4", "symlink-then-write", "ln -s a l2 && echo x > l2", "l2", "a"),
    W("4", "symlink-dir-then-write", "ln -s d l2 && echo x > l2/new", "d/new"),
    # --- 5. program knowledge: read-only tables -------------------------------------------------
    W("5", "git-diff-output", "git diff --output=o", "o", seed=GIT_DIRTY),
    W("5", "git-log-output", "git log --output=o", "o", seed=GIT),
    W("5", "git-show-output", "git show --output=o", "o", seed=GIT),
    W("5", "git-grep-open-files", "git grep -Otouch alpha", seed=GIT),
    R("5", "git-grep", "git grep alpha", seed=GIT),
    W("5", "git-reflog-expire", "git reflog expire --expire=now --all", seed=GIT),
    W("5", "git-reflog-delete", "git reflog delete HEAD@{0}", seed=GIT),
    R("5", "git-reflog", "git reflog", seed=GIT),
    W("5", "npm-pack", "npm pack", seed=NPM, needs=("npm",)),
    W("5", "npm-version", "npm version patch", "package.json", seed=NPM, needs=("npm",)),
    W("5", "npm-config-set", "npm config set fund=false", needs=("npm",)),
    W("5", "npm-pkg-set", "npm pkg set version=2.0.0", "package.json", seed=NPM, needs=("npm",)),
    W("5", "npm-pkg-delete", "npm pkg delete version", "package.json", seed=NPM, needs=("npm",)),
    W("5", "pip-config-set", "pip config set global.timeout 5", needs=("pip",)),
    R("5", "pip-config-list", "pip config list", needs=("pip",)),
    W("5", "time-o", "/usr/bin/time -o o true", "o", needs=("/usr/bin/time",)),
    R("5", "time-plain", "/usr/bin/time true", needs=("/usr/bin/time",)),
    W("5", "file-C", "file -C -m magic", seed=MAGIC, needs=("file",)),
    R("5", "file-plain", "file f", needs=("file",)),
    W("5", "wget-spider-o", "wget --spider -o log http://127.0.0.1:9/", "log", needs=("wget",)),
    R(
        "5",
        "wget-spider-quiet",
        "wget --spider -q http://127.0.0.1:9/",
        needs=("wget",),
    ),
    W("5", "yq-y-i", "yq -y -i '.a = 2' c.yaml", "c.yaml", seed=YAML, needs=("yq",)),
    W("5", "yq-yi-clustered", "yq -yi '.a = 2' c.yaml", "c.yaml", seed=YAML, needs=("yq",)),
    R("5", "yq-read", "yq '.a' c.yaml", seed=YAML, needs=("yq",)),
    # environment variables that make a program write or run code
    W("5", "env-git-trace-file", 'GIT_TRACE="$PWD/t" git status', seed=GIT),
    W(
        "5",
        "env-git-config-count",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch p; false' git status",
        seed=GIT,
    ),
    W("5", "env-pager", "PAGER='touch p; cat' git log", seed=GIT, tty=True),
    W("5", "env-git-pager", "GIT_PAGER='touch p; cat' git log", seed=GIT, tty=True),
    W("5", "env-pythonstartup", "PYTHONSTARTUP=s.py python3 -i < /dev/null", seed=PY_START),
    W(
        "5",
        "env-node-options-require",
        "NODE_OPTIONS='--require ./r.js' node -e 1",
        seed=NODE_REQ,
        needs=("node",),
    ),
    W("5", "env-ld-preload", "LD_PRELOAD=./p.so ls", seed=PRELOAD, needs=("gcc",)),
    W("5", "env-bash-env", "BASH_ENV=e.sh bash -c true", seed=BASH_ENV),
    R("5", "bash-c-ls", "bash -c ls"),
    R("5", "node-e-print", "node -e 'console.log(1 + 1)'", needs=("node",)),
    # formatters and fixers
    W("5", "ruff-format", "ruff format ugly.py", "ugly.py", seed=PY_UGLY, needs=("ruff",)),
    R(
        "5",
        "ruff-format-check",
        "ruff format --check --no-cache ugly.py",
        seed=PY_UGLY,
        needs=("ruff",),
    ),
    W("5", "ruff-check-fix", "ruff check --fix --no-cache lint.py", seed=PY_UGLY, needs=("ruff",)),
    R("5", "ruff-check", "ruff check --no-cache lint.py", seed=PY_UGLY, needs=("ruff",)),
    W("5", "rustfmt", "rustfmt main.rs", "main.rs", seed=RUST, needs=("rustfmt",)),
    R(
        "5",
        "rustfmt-check",
        "rustfmt --check main.rs",
        seed=RUST,
        needs=("rustfmt",),
        provable=False,
    ),
    W("5", "cargo-fmt", "cargo fmt", seed=CARGO, needs=("cargo",)),
    R("5", "cargo-fmt-check", "cargo fmt --check", seed=CARGO, needs=("cargo",), provable=False),
    W("5", "black", "black .", needs=("black",)),
    O("5", "black-check", "black --check .", needs=("black",)),  # its cache in HOME (ADR 0049)
    W("5", "isort", "isort .", needs=("isort",)),
    R("5", "isort-check", "isort --check-only .", needs=("isort",), provable=False),
    W("5", "autopep8-i", "autopep8 -i src/main.py", "src/main.py", needs=("autopep8",)),
    W("5", "prettier-write", "prettier --write src", needs=("prettier",)),
    # prettier's configuration may be code (ADR 0049); here there is none
    R("5", "prettier-check", "prettier --check src", needs=("prettier",), provable=False),
    W("5", "eslint-fix", "eslint --fix src", needs=("eslint",)),
    W("5", "biome-write", "biome format --write src", needs=("biome",)),
    W("5", "gofmt-w", "gofmt -w .", needs=("gofmt",)),
    R("5", "gofmt-l", "gofmt -l .", needs=("gofmt",)),
    W("5", "goimports-w", "goimports -w .", needs=("goimports",)),
    W(
        "5",
        "clang-format-i",
        "clang-format -i hello.c",
        "hello.c",
        seed=C_SRC,
        needs=("clang-format",),
    ),
    W("5", "shfmt-w", "shfmt -w .", needs=("shfmt",)),
    R("5", "shfmt-d", "shfmt -d .", needs=("shfmt",), provable=False),
    W("5", "tsc-emit", "tsc", needs=("tsc",)),
    R("5", "tsc-noemit", "tsc --noEmit", needs=("tsc",), provable=False),
    # compilers and generators
    W("5", "gcc-o", "gcc -o hello hello.c", "hello", seed=C_SRC, needs=("gcc",)),
    W("5", "javac-d", "javac -d out Hello.java", "out", seed=JAVA, needs=("javac",)),
    W("5", "cargo-new", "cargo new --vcs none q", "q", needs=("cargo",)),
    W("5", "git-format-patch", "git format-patch -1", seed=GIT),
    W("5", "git-format-patch-o", "git format-patch -1 -o out", "out", seed=GIT),
    W("5", "git-archive-o", "git archive -o a.tar HEAD", "a.tar", seed=GIT),
    W("5", "git-bundle-create", "git bundle create b.bundle HEAD", "b.bundle", seed=GIT),
    W("5", "openssl-out", "openssl rand -out r 8", "r", needs=("openssl",)),
    R("5", "openssl-hex", "openssl rand -hex 8", needs=("openssl",), provable=False),
    W("5", "ssh-keygen-f", "ssh-keygen -q -N '' -f k", "k", needs=("ssh-keygen",)),
    W("5", "iconv-o", "iconv -f utf-8 -t ascii -o o f", "o"),
    R("5", "iconv-plain", "iconv -f utf-8 -t ascii f", provable=False),
    W("5", "sdiff-o", "sdiff -o o a b", "o", needs=("sdiff",)),
    R("5", "sdiff-plain", "sdiff a b", needs=("sdiff",), provable=False),
    W("5", "ar-rc", "ar rc lib2.a a", "lib2.a", needs=("ar",)),
    R("5", "ar-t", "ar t lib.a", seed=AR, needs=("ar",), provable=False),
    W("5", "cmake-e-touch", "cmake -E touch t", "t", needs=("cmake",)),
    R("5", "cmake-e-echo", "cmake -E echo hi", needs=("cmake",), provable=False),
    # editors and databases in batch mode
    W("5", "vim-es", "vim -es -u NONE +%s/a/X/ +wq f", "f", needs=("vim",)),
    W("5", "ex-batch", "ex -s -u NONE +%s/a/X/ +wq f", "f", needs=("ex",)),
    W("5", "ed-script", "printf ',s/a/X/\\nw\\nq\\n' | ed -s f", "f", needs=("ed",)),
    R("5", "ed-print", "printf ',p\\nq\\n' | ed -s f", needs=("ed",), provable=False),
    W(
        "5",
        "sqlite3-insert",
        "sqlite3 db.sqlite 'insert into t values (1)'",
        "db.sqlite",
        seed=SQL,
        needs=("sqlite3",),
    ),
    W("5", "sqlite3-create", "sqlite3 new.db 'create table t (x)'", "new.db", needs=("sqlite3",)),
    R(
        "5",
        "sqlite3-select",
        "sqlite3 db.sqlite 'select * from t'",
        seed=SQL,
        needs=("sqlite3",),
        provable=False,
    ),
    W("5", "script-file", "script -qc true log", "log", needs=("script",)),
    W("5", "flock-file", "flock lk true", "lk", needs=("flock",)),
    W("5", "mknod-fifo", "mknod pp p", "pp"),
    W("5", "mkfifo", "mkfifo ff", "ff"),
    W("5", "fallocate", "fallocate -l 4096 big", "big", needs=("fallocate",)),
    # prefixes analysed as the program they run
    W("5", "npx-touch", "npx --yes touch p", "p", needs=("npx",), offline_only=True),
    W("5", "uvx-black", "uvx black .", needs=("uvx",), offline_only=True),
    W(
        "5",
        "pnpm-dlx-prettier",
        "pnpm dlx prettier --write src",
        needs=("pnpm",),
        offline_only=True,
    ),
    W("5", "bunx-prettier", "bunx prettier --write src", needs=("bunx",), offline_only=True),
    # runners whose effect depends on project files
    O("5", "make", "make", seed=MAKE, needs=("make",)),
    O("5", "run-script", "./run.sh", seed=SCRIPT),
    O("5", "pytest", "pytest -q -p no:cacheprovider", seed=PYTEST, needs=("pytest",)),
    O("5", "npm-test", "npm test", seed=NPM_TEST, needs=("npm",)),
    # plain read-only commands that must stay read-only
    R("5", "ls", "ls"),
    R("5", "ls-la", "ls -la d"),
    R("5", "cat", "cat f"),
    R("5", "grep", "grep alpha a"),
    R("5", "grep-r", "grep -rn alpha ."),
    R("5", "rg", "rg alpha", needs=("rg",)),
    R("5", "head-wc", "head -n 2 f | wc -l"),
    # --- 6. inline code ------------------------------------------------------------------------
    W("6", "py-vars-os", "python3 -c \"import os; vars(os)['remove']('f')\""),
    W("6", "py-getattr-os", "python3 -c \"import os; getattr(os, 'remove')('f')\""),
    W("6", "py-map-remove", "python3 -c \"import os; list(map(os.remove, ['f']))\""),
    W("6", "py-alias-remove", "python3 -c \"import os; g = os.remove; g('f')\""),
    W("6", "py-star-import", "python3 -c \"from os import *; remove('f')\""),
    W(
        "6",
        "py-exec-decoded",
        "python3 -c \"import base64; exec(base64.b64decode('b3BlbignbycsJ3cnKQ=='))\"",
    ),
    W("6", "py-io-fileio", "python3 -c \"import io; io.FileIO('o', 'w').close()\"", "o"),
    W("6", "py-os-open", "python3 -c \"import os; os.open('o', os.O_WRONLY | os.O_CREAT)\"", "o"),
    W(
        "6",
        "py-fileinput-inplace",
        "python3 -c \"import fileinput; [print(l, end='') for l in fileinput.input('f', inplace=True)]\"",
        "f",
    ),
    W(
        "6",
        "py-logging-basicconfig",
        "python3 -c \"import logging; logging.basicConfig(filename='o'); logging.warning('x')\"",
        "o",
    ),
    W(
        "6",
        "py-logging-filehandler",
        "python3 -c \"import logging; logging.FileHandler('o')\"",
        "o",
    ),
    W("6", "py-py-compile", "python3 -c \"import py_compile; py_compile.compile('src/main.py')\""),
    W(
        "6",
        "py-compileall",
        "python3 -c \"import compileall; compileall.compile_dir('src', quiet=1)\"",
    ),
    W(
        "6",
        "py-urlretrieve",
        "python3 -c \"import urllib.request; urllib.request.urlretrieve('file:///etc/hostname', 'o')\"",
        "o",
    ),
    W("6", "py-shutil-copy", "python3 -c \"import shutil; shutil.copy('f', 'o')\"", "o"),
    W("6", "py-shutil-rmtree", "python3 -c \"import shutil; shutil.rmtree('d')\"", "d"),
    W(
        "6",
        "py-zipfile",
        "python3 -c \"import zipfile; zipfile.ZipFile('z.zip', 'w').close()\"",
        "z.zip",
    ),
    W(
        "6",
        "py-tarfile",
        "python3 -c \"import tarfile; tarfile.open('t.tar', 'w').close()\"",
        "t.tar",
    ),
    W(
        "6",
        "py-sqlite3",
        "python3 -c \"import sqlite3; sqlite3.connect('x.db').execute('create table t (x)')\"",
        "x.db",
    ),
    W("6", "py-dbm", "python3 -c \"import dbm; dbm.open('cache', 'c').close()\""),
    W("6", "py-shelve", "python3 -c \"import shelve; shelve.open('sh').close()\""),
    W("6", "py-heredoc-remove", "python3 <<'EOF'\nimport os\nos.remove('f')\nEOF", "f"),
    R("6", "py-read-file", "python3 -c \"print(open('f').read())\""),
    # python -c puts the working folder first on sys.path: read-only here, but not provably
    # (a json.py there would run), so opaque is the right answer; -I or -P makes it provable
    R("6", "py-listdir", "python3 -c \"import os; print(os.listdir('.'))\"", provable=False),
    R("6", "py-json", "python3 -c \"import json; print(json.dumps({'a': 1}))\"", provable=False),
    R("6", "py-I-json", "python3 -I -c \"import json; print(json.dumps({'a': 1}))\""),
    O("6", "py-json-shadowed", 'python3 -c "import json; print(json.dumps(1))"', seed=SHADOW),
    R("6", "py-I-json-shadowed", 'python3 -I -c "import json; print(json.dumps(1))"', seed=SHADOW),
    R("6", "py-P-json-shadowed", 'python3 -P -c "import json; print(json.dumps(1))"', seed=SHADOW),
    O("6", "py-m-shadowed", "python3 -m json.tool /dev/null", seed=SHADOW),
    R("6", "py-heredoc-read", "python3 <<'EOF'\nwith open('f') as fh:\n    print(fh.read())\nEOF"),
    W(
        "6",
        "node-fs-sync",
        "node -e \"require('fs').writeFileSync('o', 'x')\"",
        "o",
        needs=("node",),
    ),
    W(
        "6",
        "node-fs-callback",
        "node -e \"require('fs').writeFile('o', 'x', () => {})\"",
        "o",
        needs=("node",),
    ),
    W(
        "6",
        "node-fs-promises",
        "node -e \"require('fs/promises').writeFile('o', 'x')\"",
        "o",
        needs=("node",),
    ),
    W(
        "6",
        "node-fs-dot-promises",
        "node -e \"require('fs').promises.writeFile('o', 'x')\"",
        "o",
        needs=("node",),
    ),
    W("6", "node-fs-unlink", "node -e \"require('fs').unlinkSync('f')\"", "f", needs=("node",)),
    W(
        "6",
        "node-computed-member",
        "node -e \"const fs = require('fs'); fs['write' + 'FileSync']('o', 'x')\"",
        needs=("node",),
    ),
    W(
        "6",
        "node-reflect-apply",
        "node -e \"const fs = require('fs'); Reflect.apply(fs.writeFileSync, null, ['o', 'x'])\"",
        needs=("node",),
    ),
    W(
        "6",
        "node-child-process",
        "node -e \"require('child_process').execSync('touch p')\"",
        needs=("node",),
    ),
    R(
        "6",
        "node-read-file",
        "node -e \"console.log(require('fs').readFileSync('f', 'utf8'))\"",
        needs=("node",),
    ),
    W("6", "perl-file-copy", "perl -e \"use File::Copy; copy('f', 'o')\"", "o", needs=("perl",)),
    W("6", "perl-i-flag", "perl -i -pe 's/a/X/' f", "f", needs=("perl",)),
    W(
        "6",
        "perl-inplace-var",
        'perl -e \'$^I = ""; @ARGV = ("f"); while (<>) { s/a/X/; print }\'',
        needs=("perl",),
    ),
    W(
        "6",
        "perl-io-file",
        'perl -e \'use IO::File; my $f = IO::File->new("o", "w"); print $f "x"\'',
        "o",
        needs=("perl",),
    ),
    W("6", "perl-open-write", 'perl -e \'open(my $f, ">", "o")\'', "o", needs=("perl",)),
    W(
        "6",
        "python-subprocess-argv",
        '''python3 -c "import subprocess; subprocess.run(['touch', 'o'])"''',
        "o",
    ),
    # perl opens its operands with a two-argument open: "|cmd" and "cmd|" run cmd, ">f" writes f
    W("6", "perl-argv-pipe", "perl -ne print '|touch pwned'", "pwned", needs=("perl",)),
    W("6", "perl-argv-pipe-after", "perl -pe 1 'touch pwned|'", "pwned", needs=("perl",)),
    W("6", "perl-argv-write", "perl -ne print ' >o'", "o", needs=("perl",)),
    W("6", "perl-argv-loop", "perl -e 'print while <>' '|touch pwned'", "pwned", needs=("perl",)),
    O("6", "perl-argv-glob", "perl -ne print *", seed=PERL_PIPE_NAME, needs=("perl",)),
    R("6", "perl-argv-read", "perl -ne print '<f' ./d/*.txt -", needs=("perl",)),
    W(
        "6",
        "perl-dbmopen",
        "perl -e 'dbmopen(my %h, \"dbx\", 0644); $h{a} = 1; dbmclose(%h)'",
        needs=("perl",),
    ),
    W("6", "perl-system", "perl -e 'system(\"touch p\")'", needs=("perl",)),
    W("6", "perl-backticks", "perl -e '`touch p`'", needs=("perl",)),
    O("6", "perl-M-I-local-module", "perl -I. -MW -e 1", seed=PERL_MOD, needs=("perl",)),
    R("6", "perl-ne-print", "perl -ne 'print if /a/' f", needs=("perl",)),
    R("6", "perl-e-print", "perl -e 'print \"hi\\n\"'", needs=("perl",)),
    W("6", "ruby-file-write", "ruby -e \"File.write('o', 'x')\"", "o", needs=("ruby",)),
    W("6", "php-file-put", "php -r \"file_put_contents('o', 'x');\"", needs=("php",)),
    W("6", "lua-io-open", "lua -e \"io.open('o', 'w'):close()\"", needs=("lua",)),
    W(
        "6",
        "deno-eval-write",
        "deno eval \"Deno.writeTextFileSync('o', 'x')\"",
        needs=("deno",),
    ),
    W("6", "bun-e-write", "bun -e \"require('fs').writeFileSync('o', 'x')\"", needs=("bun",)),
    # --- 7. PowerShell (analysed with shell="powershell") -------------------------------------
    W(
        "7",
        "ps-null-assign-set-content",
        "$null = Set-Content f x",
        "f",
        shell="powershell",
        label_only=PS,
    ),
    W(
        "7",
        "ps-var-assign-new-item",
        "$r = New-Item -ItemType File n",
        "n",
        shell="powershell",
        label_only=PS,
    ),
    W(
        "7",
        "ps-whatif-false",
        "Remove-Item f -WhatIf:$false",
        "f",
        shell="powershell",
        label_only=PS,
    ),
    W("7", "ps-whatif-zero", "Remove-Item f -WhatIf:0", "f", shell="powershell", label_only=PS),
    R("7", "ps-whatif", "Remove-Item f -WhatIf", shell="powershell", label_only=PS),
    W(
        "7",
        "ps-iwr-outfile",
        "Invoke-WebRequest https://example.com -OutFile o",
        "o",
        shell="powershell",
        label_only=PS,
    ),
    W(
        "7",
        "ps-expand-archive",
        "Expand-Archive a.zip -DestinationPath out",
        "out",
        shell="powershell",
        label_only=PS,
    ),
    W(
        "7",
        "ps-io-file-write",
        "[IO.File]::WriteAllText('o', 'x')",
        "o",
        shell="powershell",
        label_only=PS,
    ),
    W("7", "ps-cmd-c-redirect", 'cmd /c "echo x > f"', "f", shell="powershell", label_only=PS),
    W("7", "bash-cmd-c-redirect", 'cmd /c "echo x > f"', label_only=WINDOWS),
    R("7", "ps-get-content", "Get-Content f", shell="powershell", label_only=PS),
    R("7", "ps-get-childitem", "Get-ChildItem", shell="powershell", label_only=PS),
    R("7", "ps-select-string", "Select-String alpha a", shell="powershell", label_only=PS),
    # --- attack round A (tests/test_bash_holes_attack_a.py): rated read_only, they wrote -------
    # text tree-sitter-bash reads differently from Bash: unparseable, so no target is named
    W("3", "a-heredoc-backtick", "cat <<EOF\n`touch p`\nEOF", "p"),
    W("3", "a-heredoc-quoted-part", 'cat <<E"O"F\nx\nEOF\ntouch p\nE"O"F'),
    W("3", "a-heredoc-joined-end", "cat <<EOF\nx\nEO\\\nF\ntouch p\nEOF"),
    W("3", "a-carriage-return", "echo x \r# ; touch p"),
    W("3", "a-join-then-hash", "echo a\\\n#; touch p"),
    W("3", "a-array-then-hash", "x=(a)#; touch p"),
    W("3", "a-dq-dollar-join", 'echo "$\\\n(touch p)"'),
    W("3", "a-backtick-in-default", "echo ${x:-`touch p`}"),
    W("3", "a-nested-backticks", "echo `echo \\`touch p\\``"),
    R("3", "a-quoted-heredoc-backtick", "cat <<'EOF'\n`touch p`\nEOF"),
    # builtins that run a command, set a prompt or evaluate a subscript
    W("3", "a-jobs-x", "jobs -x touch p", "p"),
    W("3", "a-command-rm-v", "command rm -v f", "f"),
    W("3", "a-alias-known-name", "shopt -s expand_aliases\nalias ls=touch\nls p", "p"),
    W("3", "a-builtin-export-ps4", "builtin export PS4='$(touch p)'; set -x; :", "p"),
    W("3", "a-printf-v-ps4", "printf -v PS4 %s '$(touch p)'; set -x; :", "p"),
    W("3", "a-read-ps4", "read PS4 <<< '$(touch p)'; set -x; :", "p"),
    W("3", "a-default-assign-ps4", "unset PS4; : ${PS4:='$(touch p)'}; set -x; :", "p"),
    W("3", "a-unset-subscript", "declare -a x; unset 'x[$(touch p)]'", "p"),
    W("3", "a-wait-p-subscript", "sleep 0 & wait -n -p 'a[$(touch p)]'", "p"),
    W("3", "a-substring-offset", "x='a[$(touch p)]'; s=abc; echo ${s:x}"),
    R("3", "a-read-printf-v", 'read -r line < f; printf -v out %s "$line"; echo "${out:-x}"'),
    # a word that is not a literal may be an option that writes
    O("1", "a-sort-hidden-option", "sort f $(printf -- -op)"),
    O("1", "a-xargs-sort", "printf '%s\\n' -op f | xargs sort"),
    O("1", "a-sed-hidden-in-place", "sed -n p f $(echo -i)"),
    O("1", "a-git-hidden-output", "git log $(echo --output=p)", seed=GIT),
    O("1", "a-env-split-escape", "env -S 'sort f\\_-op'"),
    O("1", "a-sort-glob", "sort *", seed=Seed(files=(("-op", "x\n"),))),
    R("1", "a-sort-glob-twin", "sort ./*"),
    # program readings
    W("1", "a-xxd-attached-plus", "xxd -l+100 a b", "b", needs=("xxd",)),
    W("1", "a-uniq-skip", "uniq +0 a b", "b"),
    W("1", "a-sed-label", "sed -n ':a;w p' f", "p"),
    W("1", "a-sed-bracket", "sed -n '/[/]/w p' f", "p"),
    W("1", "a-awk-print-regex", 'awk \'BEGIN { print /"/; system("touch p"); x="" }\'', "p"),
    W("1", "a-file-compile-abbrev", "file --co -m magic", "magic.mgc", seed=MAGIC, needs=("file",)),
    W("1", "a-git-branch-v-name", "git branch -v newb", ".git", seed=GIT),
    W("1", "a-ss-diag", "ss -D p", "p", needs=("ss",)),
    W(
        "1",
        "a-git-maintenance-register",
        "git maintenance register",
        "../home/.gitconfig",
        seed=GIT,
    ),
    R("1", "a-git-branch-v", "git branch -v", seed=GIT),
    R("1", "a-uniq-xxd", "uniq f; xxd -l 16 a", needs=("xxd",)),
    # variables a program receives: only known-harmless names stay read-only
    O("5", "a-ld-debug-output", "LD_DEBUG=files LD_DEBUG_OUTPUT=p ls"),
    O(
        "5",
        "a-tar-options",
        "TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=touch\\ p' tar tf x.tar",
        seed=TAR,
    ),
    O("5", "a-bash-interactive", "bash -i <<< true"),
    R("5", "a-harmless-variables", "LANG=C LC_ALL=C TZ=UTC sort f"),
    # inline code
    W(
        "6",
        "a-py-sys-modules",
        "python3 -I -c \"import sys; sys.modules['os'].system('touch p')\"",
        "p",
    ),
    O("6", "a-py-private-io", "python3 -I -c \"import _io; _io.FileIO('f', 'w')\""),
    W(
        "6",
        "a-node-template",
        'node -e \'`${require("child_process").execSync("touch p")}`\'',
        "p",
        needs=("node",),
    ),
    O("6", "a-perl-interpolated", "perl -e 'print \"@{[ system q(touch p) ]}\"'", needs=("perl",)),
    # --- 9. bounded cost -----------------------------------------------------------------------
    W("9", "budget-exhausted", "true; " * 200 + "touch p", budget=50),
    R("9", "long-and-chain", "ls && " * 300 + "ls"),
    R("9", "long-pipeline", "cat f | " * 200 + "cat"),
]

# attack round B (ADR 0049): its rows use the seeds and helpers above
import reality_cases_attack_b  # noqa: E402

ROWS += reality_cases_attack_b.rows()

# attack round C (ADR 0056)
import reality_cases_attack_c  # noqa: E402

ROWS += reality_cases_attack_c.rows()

# attack round D (ADR 0062)
import reality_cases_attack_d  # noqa: E402

ROWS += reality_cases_attack_d.rows()

# round eight, J9: the writes still let through with bash.opaque = allow, as a class
import reality_cases_attack_e  # noqa: E402

ROWS += reality_cases_attack_e.rows()

# round ten: zsh's arithmetic arguments and clobbering redirects, macOS arch (ADR 0070)
import reality_cases_attack_f  # noqa: E402

ROWS += reality_cases_attack_f.rows()


# --- what the analysis says about a row -------------------------------------------------------


def analyse(row: Row) -> BashAnalysis:
    return analyze(row.command, cwd=CWD, home=HOME, shell=row.shell, budget=row.budget)


def absolute(target: str) -> str:
    return posixpath.normpath(posixpath.join(CWD, target))


def unnamed_targets(row: Row, result: BashAnalysis) -> list[str]:
    """The row's targets that no effect of ``result`` names (a folder names what is inside it).
    The analysis keeps a `..` for the file system to resolve (ADR 0062); the seeded folders
    hold no link a `..` passes through, so string math reads it the same here."""
    named = {posixpath.normpath(e.resolved) for e in result.effects if e.resolved is not None}
    missing = []
    for target in row.targets:
        want = absolute(target)
        if not any(
            want == got or want.startswith(got + "/") or got.startswith(want + "/") for got in named
        ):
            missing.append(target)
    return missing


def denied(result: BashAnalysis, opaque: str) -> bool:
    """Whether the main agent's call is stopped, for ``bash.opaque`` = "allow" or "deny".

    As the policy does: every effect is a write the main agent may not make, an unparseable
    command, or one the analysis ran out of budget on, is denied (``bash.unparseable`` defaults
    to "deny"), an opaque one as configured.
    """
    if result.effects or result.status in (Status.WRITES, Status.UNPARSEABLE) or result.exhausted:
        return True
    return result.status is Status.OPAQUE and opaque == "deny"
