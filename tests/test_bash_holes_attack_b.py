"""Attack round B: commands the Bash analysis rated ``read_only`` (or ``writes`` with a target
missing) although they wrote a file or ran code, each observed in a throwaway folder (ADR 0049).

Each row reproduces one finding, a member of a class; each control row is a look-alike that
must keep its answer. The classes, and the fix of each:

- tools whose side effects their configuration decides: npm's debug log, ruff's and black's
  caches, eslint's and prettier's configuration as code, tsc's build info, uv's cache, sqlite3
  creating a missing database (``installers.py``, ``devtools.py``, ``compilers.py``);
- runners that prepare an environment for the command they run: ``npx``, ``uv run``, ``uvx``
  (``dispatch.py``, ``unwrap.py``);
- variable attributes and compound assignments that evaluate text: ``declare -i`` / ``-n`` with
  a later assignment, ``a=([$x]=1)``, ``unset "$x"`` (``evaluated.py``; where the text holds the
  evaluated value as a literal, that value is analysed as code and does not parse:
  ``unparseable``, which the policy denies by default);
- links made by ``cp -s``, ``cp -l`` and ``link``, then written through (``fileutils.py``);
- a word that is not a literal on a command that already writes (``sort -o a f $X``), quoted
  SQL function names, ``patch --dry-run -o``, ``xargs --process-slot-var``.

Reality rows for the same findings: ``tests/reality_cases_attack_b.py``.
"""

from __future__ import annotations

from bash_holes import Case, analysed, check, table

from orchestrator_boundary.bash import Status
from orchestrator_boundary.bash.explain import explain

R, WR, OP, U = Status.READ_ONLY, Status.WRITES, Status.OPAQUE, Status.UNPARSEABLE
S = "/w/p/.claude/settings.json"


# --- tools whose configuration decides what else they write or run ---------------------------
TOOLS: list[Case] = [
    ("npm-ls", "npm ls react", OP, ()),  # ~/.npm/_logs, or the project .npmrc's logs-dir
    ("npm-config-list", "npm config list", OP, ()),
    ("npm-help", "npm help ls", OP, ()),
    ("npm-logs-dir-kept", "npm ls --logs-dir=l", OP, ("/w/p/l",)),
    ("npm-install-scripts", "npm install", OP, ("/w/p/node_modules",)),
    ("pnpm-install-scripts", "pnpm install", OP, ("/w/p/node_modules",)),
    ("uv-pip-list", "uv pip list", OP, ()),
    ("uv-tree", "uv tree", OP, ("/w/p/uv.lock",)),
    ("ruff-check-cache", "ruff check .", OP, ()),
    ("ruff-format-check-cache", "ruff format --check src", OP, ()),
    ("ruff-fix-cache", "ruff check --fix a.py", OP, ("/w/p/a.py",)),
    ("black-check-cache", "black --check src", OP, ()),
    ("black-diff-cache", "black --diff src", OP, ()),
    ("black-writes-cache", "black src", OP, ("/w/p/src",)),
    ("eslint-config-code", "eslint src", OP, ()),
    ("prettier-config-code", "prettier --check src", OP, ()),
    ("prettier-write-config-code", "prettier --write src", OP, ("/w/p/src",)),
    ("tsc-noemit-tsconfig", "tsc --noEmit", OP, ()),
    ("tsc-noemit-project", "tsc --noEmit -p api/tsconfig.json", OP, ()),
    ("sqlite3-creates-db", "sqlite3 new.db 'select 1'", OP, ()),
    ("sqlite3-tables-creates-db", "sqlite3 new.db .tables", OP, ()),
    ("sqlite3-dq-writefile", "sqlite3 db \"select \\\"writefile\\\"('x','y')\"", WR, ()),
    ("sqlite3-bracket-writefile", "sqlite3 db \"select [writefile]('x','y')\"", WR, ()),
    ("sqlite3-backtick-writefile", "sqlite3 db \"select \\`writefile\\`('x','y')\"", WR, ()),
    ("sqlite3-comment-writefile", "sqlite3 db \"select writefile/**/('x','y')\"", WR, ()),
    ("patch-dry-run-output", "patch --dry-run -o out f p.diff", WR, ("/w/p/out",)),
    ("patch-dry-run-output-long", "patch --dry-run --output=out f p.diff", WR, ("/w/p/out",)),
]
TOOL_CONTROLS: list[Case] = [
    ("ctl-npm-version", "npm --version", R, ()),
    ("ctl-npm-v", "npm -v", R, ()),
    ("ctl-uv-version", "uv --version", R, ()),
    ("ctl-uv-cache-dir", "uv cache dir", R, ()),
    ("ctl-ruff-no-cache", "ruff check --no-cache .", R, ()),
    ("ctl-ruff-n", "ruff format --check -n src", R, ()),
    ("ctl-ruff-rule", "ruff rule F401", R, ()),
    ("ctl-black-version", "black --version", R, ()),
    ("ctl-eslint-version", "eslint --version", R, ()),
    ("ctl-tsc-files", "tsc --noEmit --strict src/a.ts", R, ()),
    ("ctl-tsc-version", "tsc --version", R, ()),
    ("ctl-sqlite3-readonly", "sqlite3 -readonly db 'select 1'", R, ()),
    ("ctl-sqlite3-memory", "sqlite3 :memory: 'select 1'", R, ()),
    ("ctl-sqlite3-uri-ro", "sqlite3 'file:db?mode=ro' 'select 1'", R, ()),
    ("ctl-patch-dry-run", "patch --dry-run f p.diff", R, ()),
]


@table(TOOLS + TOOL_CONTROLS)
def test_tools_whose_configuration_decides(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)


# --- runners that prepare an environment ------------------------------------------------------
RUNNERS: list[Case] = [
    ("npx-read", "npx tsc --noEmit", OP, ()),
    ("npx-keeps-effects", "npx prettier --write src", OP, ("/w/p/src",)),
    ("npx-c", "npx -c 'rm nc'", OP, ("/w/p/nc",)),
    ("uv-run-read", "uv run ruff check --no-cache src", OP, ()),
    ("uv-run-keeps-effects", "uv run --directory sub rm x", OP, ("/w/p/sub/x",)),
    ("uvx-read", "uvx ruff check --no-cache x", OP, ()),
    ("uv-tool-run", "uv tool run black x", OP, ("/w/p/x",)),
    ("bunx", "bunx tsc --version", OP, ()),
    ("pnpm-exec", "pnpm exec tsc --version", OP, ()),
    ("npm-exec", "npm exec -- tsc --version", OP, ()),
    ("poetry-run", "poetry run ls", OP, ()),
    ("bundle-exec", "bundle exec ls", OP, ()),  # Gemfile is Ruby code
    ("xargs-slot-bash-env", "xargs --process-slot-var=BASH_ENV bash -c ls", OP, ()),
    ("xargs-slot-ld-preload", "xargs --process-slot-var LD_PRELOAD ls", OP, ()),
]
RUNNER_CONTROLS: list[Case] = [
    ("ctl-xargs-slot", "xargs --process-slot-var=slot echo", R, ()),
    ("ctl-xargs", "find . -name '*.py' | xargs grep -l x", R, ()),
    ("ctl-timeout", "timeout 5 ls", R, ()),
]


@table(RUNNERS + RUNNER_CONTROLS)
def test_runners_that_prepare_an_environment(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)


# --- text that becomes code: attributes and compound assignments -----------------------------
EVALUATED: list[Case] = [
    ("declare-i-later", "declare -i i; i='a[$(touch p)]'", U, ()),
    ("declare-i-variable", "x='a[$(touch p)]'; declare -i i; i=$x", U, ()),
    ("typeset-i-later", "typeset -i i; i='a[$(touch p)]'", U, ()),
    ("local-i-later", "f() { local -i i; i=$1; }; f x", OP, ()),
    ("declare-i-read", "declare -i i; read i <<< 'a[$(touch p)]'", OP, ()),
    ("declare-i-append", "declare -i i=0; i+=x", OP, ()),
    ("declare-ia-append", "declare -ia a; a+=('a[$(touch p)]')", OP, ()),
    ("declare-n-later", "declare -n r; r='a[$(touch p)]'; echo $r", U, ()),
    ("typeset-n-ps4", "typeset -n r; r=PS4; r='$(touch p)'; set -x; :", OP, ()),
    ("array-quoted-subscript", "a=(['$(touch p)']=1)", OP, ()),
    ("array-variable-subscript", "x='a[$(touch p)]'; a=([$x]=1)", U, ()),
    ("array-append-subscript", "x='a[$(touch p)]'; a+=([$x]=1)", U, ()),
    ("array-name-subscript", "a=([k]=1)", OP, ()),
    ("declare-a-subscript", "declare -a a=(['a[$(touch p)]']=1)", OP, ()),
    ("readonly-a-subscript", "readonly -a a=(['a[$(touch p)]']=1)", OP, ()),
    ("unset-computed-name", "x='a[$(touch p)]'; declare -a a; unset \"$x\"", U, ()),
    ("unset-variable-name", "unset $x", OP, ()),
    ("for-ps4", "for PS4 in '$(touch p)'; do set -x; :; done", OP, ("/w/p/p",)),
    ("for-path", 'for PATH in "$PWD/bin"; do ls; done', OP, ()),
    ("select-path", "select PATH in bin; do ls; done", OP, ()),
]
EVALUATED_CONTROLS: list[Case] = [
    ("ctl-array-numbers", "a=([0]=x [1]=y); echo ${a[1]}", R, ()),
    ("ctl-array-plain", "a=(x y z); declare -a b=(1 2)", R, ()),
    ("ctl-associative-keys", "declare -A m=([k]=v ['a[$(x)]']=w)", R, ()),
    ("ctl-declare", "declare -r x=1; local y=2; declare -a z", R, ()),
    ("ctl-export-n", "export -n x", R, ()),
    ("ctl-unset-literals", "unset x 'y[1]' \"z\"", R, ()),
    ("ctl-for", "for f in *.py; do echo $f; done; for LANG in C; do ls; done", R, ()),
]


@table(EVALUATED + EVALUATED_CONTROLS)
def test_text_evaluated_later(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named)


# --- writes through links that cp and link make --------------------------------------------
LINKS: list[Case] = [
    ("cp-s", "cp -s .claude/settings.json s; echo x > s", WR, (S, "/w/p/s")),
    ("cp-symbolic-link", "cp --symbolic-link .claude/settings.json s && tee s", WR, (S,)),
    ("cp-l", "cp -l .claude/settings.json h; echo x > h", WR, (S,)),
    ("cp-link", "cp --link .claude/settings.json h; sed -i s/a/b/ h", WR, (S,)),
    ("cp-rs", "cp -rs /w/p/.claude c; echo x > c/settings.json", WR, (S,)),
    ("link", "link .claude/settings.json h; echo x > h", WR, (S, "/w/p/h")),
    ("cp-s-several", "cp -s a b d/; echo x > d/a", WR, ("/w/p/d/a",)),
]
LINK_CONTROLS: list[Case] = [
    ("ctl-cp", "cp .claude/settings.json s; echo x > s", WR, ("/w/p/s",)),
]


@table(LINKS + LINK_CONTROLS)
def test_writes_through_links(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named)


def test_a_plain_copy_is_not_followed() -> None:
    result = analysed("cp .claude/settings.json s; echo x > s")
    assert S not in {e.resolved for e in result.effects if e.source.endswith("via link")}


def test_links_several_sources_lead_somewhere() -> None:
    """`cp -s a b d/`: where each link in d/ points is not followed, so a write below d/ is
    also a write somewhere (None), which the policy keeps outside every scope."""
    result = analysed("cp -s a b d/; echo x > d/a")
    assert None in {e.resolved for e in result.effects}, explain(result)


# --- a word that may be an option on a command that writes -----------------------------------
HIDDEN: list[Case] = [
    ("sort-output-and-variable", "sort -o a f $X", OP, ("/w/p/a",)),
    ("cp-variable-target-somewhere", "cp f a $X", WR, (None,)),
    ("cp-variable-assigned", "X=--target-directory=d; cp f a $X", WR, ("/w/p/d/f", "/w/p/d/a")),
    ("sed-i-glob", "sed -i s/a/b/ *", OP, ()),
    ("git-add-glob", "git add *.py", OP, ("/w/p/.git",)),
]
HIDDEN_CONTROLS: list[Case] = [
    ("ctl-commit-heredoc", "git commit -m \"$(cat <<'EOF'\nfix: x\nEOF\n)\"", WR, ("/w/p/.git",)),
    ("ctl-rm-variable", 'rm -rf "$dir"', WR, ()),
    ("ctl-cp-variable", 'cp a "$dest"', WR, ()),
    ("ctl-mkdir-variable", 'mkdir -p "$D/.claude"', WR, ()),
    ("ctl-ln-pwd", 'ln -s "$(pwd)/a" b', WR, ("/w/p/b",)),
    ("ctl-sort-output", "sort -o a f", WR, ("/w/p/a",)),
]


@table(HIDDEN + HIDDEN_CONTROLS)
def test_words_that_may_be_options_on_writes(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)


# --- paths the session's values do not resolve -----------------------------------------------
PATHS: list[Case] = [
    ("proc-self-cwd", "echo x >> /proc/self/cwd/.claude/settings.json", WR, (S,)),
    ("proc-thread-self-cwd", "echo x > /proc/thread-self/cwd/a", WR, ("/w/p/a",)),
    ("proc-self-cwd-parent", "echo x > /proc/self/cwd/../a", WR, ("/w/a",)),
    ("proc-self-root", "echo x > /proc/self/root/etc/x", WR, ("/etc/x",)),
    ("proc-other-cwd", "echo x > /proc/1/cwd/a", WR, (None,)),
    ("home-assigned", "HOME=/w/p/.claude; echo x > ~/settings.json", OP, (None,)),
    ("home-exported", "export HOME=/w/p/.claude; echo x > ~/settings.json", OP, (None,)),
    ("home-read", "read HOME <<< /w/p/.claude; echo x > ~/settings.json", OP, (None,)),
]
PATH_CONTROLS: list[Case] = [
    ("ctl-home-tilde", "echo x > ~/.bashrc", WR, ("/home/u/.bashrc",)),
    ("ctl-home-expanded", 'echo "$HOME" ${HOME}; echo x > ~/y', WR, ("/home/u/y",)),
    ("ctl-proc-read", "cat /proc/self/status /proc/cpuinfo", R, ()),
]


@table(PATHS + PATH_CONTROLS)
def test_paths_resolved_as_bash_resolves_them(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)


# --- git: settings on the command line that run a program ------------------------------------
# (git's own configuration files are trusted as installed, ADR 0049: the controls below stay
# read-only although a repository's .git/config could name a core.fsmonitor program)
GIT: list[Case] = [
    ("git-c-show-signature", "git -c log.showSignature=true log -1", OP, ()),  # runs gpg
    ("git-c-show-signature-case", "git -c LOG.SHOWSIGNATURE=1 show", OP, ()),
    ("git-c-safe-directory", "git -c safe.directory='*' status", OP, ()),
]
GIT_CONTROLS: list[Case] = [
    ("ctl-git-c-log", "git -c log.decorate=short log -1", R, ()),
    ("ctl-git-c-color", "git -c color.ui=always diff", R, ()),
    ("ctl-git-status", "git status --short", R, ()),
    ("ctl-git-diff", "git diff --stat", R, ()),
    ("ctl-git-log", "git log --oneline -5", R, ()),
]


@table(GIT + GIT_CONTROLS)
def test_git_settings_that_run_a_program(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)
