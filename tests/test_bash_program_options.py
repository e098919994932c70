"""Developer tools, package managers and interpreters (ADR 0038): each form rated read_only has
its table of harmless options; an option outside it is opaque, one that writes is a write."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator_boundary.bash import EffectKind, Status, analyze
from orchestrator_boundary.bash.explain import explain

R, WR, OP = Status.READ_ONLY, Status.WRITES, Status.OPAQUE


def W(path: str | None) -> tuple[EffectKind, str | None]:
    return (EffectKind.WRITE, path)


def D(path: str | None) -> tuple[EffectKind, str | None]:
    return (EffectKind.DELETE, path)


SOMEWHERE = W(None)
NODE_INSTALL = (W("/w/p/node_modules"), W("/w/p/package.json"), W("/w/p/package-lock.json"))

CASES: list[tuple[str, str, Status, tuple[Any, ...]]] = [
    # --- npm and friends ---------------------------------------------------------------------
    ("npm-ls", "npm ls --all --json", OP, ()),
    ("npm-ls-global-abbrev", "npm ls --glob", OP, ()),
    ("npm-ls-logs-dir", "npm ls --logs-dir=src", OP, (W("/w/p/src"),)),
    ("npm-ls-userconfig", "npm ls --userconfig=x", OP, ()),
    ("npm-ls-unknown", "npm ls --frobnicate", OP, ()),
    ("npm-view", "npm view react version --json", OP, ()),
    ("npm-version-flag", "npm --version", R, ()),
    ("npm-audit", "npm audit --json --audit-level=high", OP, ()),
    ("npm-audit-fix", "npm audit fix", OP, NODE_INSTALL),
    ("npm-audit-other", "npm audit frob", OP, ()),
    ("npm-doctor", "npm doctor", OP, ()),
    ("npm-pack-dry-run-runs-scripts", "npm pack --dry-run", OP, ()),
    ("npm-pack-dry-run-no-scripts", "npm pack --dry-run --ignore-scripts", OP, ()),
    ("npm-pack-no-scripts", "npm pack --ignore-scripts", OP, (W("/w/p"),)),
    ("npm-config-list", "npm config list --json", OP, ()),
    ("npm-config-list-unknown", "npm config list --userconfig x", OP, ()),
    ("pnpm-list", "pnpm list -r --depth 0", R, ()),
    ("yarn-version", "yarn --version", OP, ()),  # .yarnrc.yml yarnPath runs first
    # --- pip and uv ----------------------------------------------------------------------------
    ("pip-list", "pip list --disable-pip-version-check --user --format=json", R, ()),
    ("pip-list-outdated-abbrev", "pip list --outd --disable-pip --no-cache-dir", R, ()),
    ("pip-list-log", "pip list --log l.txt", OP, (W("/w/p/l.txt"),)),
    (
        "pip-list-log-no-check",
        "pip list --disable-pip-version-check --log l.txt",
        WR,
        (W("/w/p/l.txt"),),
    ),
    ("pip-list-python", "pip list --python ./x", OP, ()),
    ("pip-list-cache-dir", "pip list --cache-dir=src", OP, ()),
    ("pip-show-files", "pip show -f requests", R, ()),
    ("pip-freeze", "pip freeze -r requirements.txt --exclude-editable", R, ()),
    ("pip-cache-dir", "pip cache dir", R, ()),
    ("pip-cache-purge", "pip cache purge", WR, (SOMEWHERE,)),
    ("pip-version", "pip --version", R, ()),
    ("uv-pip-list", "uv pip list --format json", OP, ()),
    ("uv-pip-list-python", "uv pip list --python ./x", OP, ()),
    ("uv-version-flag", "uv --version", R, ()),
    ("uv-tree-locks", "uv tree", OP, (W("/w/p/uv.lock"),)),
    ("uv-tree-frozen", "uv tree --frozen --depth 1", OP, ()),
    ("uv-version-sets", "uv version 2.0.0", OP, (W("/w/p/pyproject.toml"),)),
    ("uv-cache-clean", "uv cache clean", OP, (SOMEWHERE,)),
    ("conda-config-show", "conda config --show channels", R, ()),
    ("conda-config-add", "conda config --add channels x", WR, (SOMEWHERE,)),
    ("apt-show", "apt show -a curl", R, ()),
    ("apt-show-option", "apt show -o Dpkg::Pre-Invoke::=x curl", OP, ()),
    # --- formatters and linters ----------------------------------------------------------------
    ("black-check-diff", "black --check --diff .", OP, ()),
    ("black-version", "black --version", R, ()),
    ("black-unknown", "black --check --frob .", OP, ()),
    ("ruff-check-output-file", "ruff check -o report.txt .", OP, (W("/w/p/report.txt"),)),
    ("ruff-check-output-file-eq", "ruff check --output-file=r.txt .", OP, (W("/w/p/r.txt"),)),
    ("ruff-check-fix-only", "ruff check --fix-only a.py", OP, (W("/w/p/a.py"),)),
    ("ruff-check-no-cache", "ruff check --no-cache --statistics .", R, ()),
    ("ruff-format-check-no-cache", "ruff format --check -n src", R, ()),
    ("ruff-check-no-cache-fix", "ruff check --no-cache --fix a.py", WR, (W("/w/p/a.py"),)),
    ("ruff-check-watch", "ruff check --watch", OP, ()),
    ("ruff-version", "ruff --version", R, ()),
    ("ruff-rule", "ruff rule --all --output-format json", R, ()),
    ("ruff-rule-unknown", "ruff rule --frob", OP, ()),
    ("eslint-output-file", "eslint -o out.txt src", OP, (W("/w/p/out.txt"),)),
    ("eslint-fix-dry-run", "eslint --fix-dry-run src", OP, ()),
    ("eslint-cache", "eslint --cache src", OP, ()),
    ("prettier-check-write", "prettier --check --write src", OP, (W("/w/p/src"),)),
    ("rustfmt-emit-stdout", "rustfmt --emit stdout main.rs", OP, ()),  # rustup proxy
    ("rustfmt-emit-files", "rustfmt --emit files main.rs", WR, (W("/w/p/main.rs"),)),
    ("cargo-version", "cargo --version", OP, ()),  # rust-toolchain.toml `path`
    # --- compilers and generators --------------------------------------------------------------
    ("gcc-v-compiles", "gcc -v hello.c", WR, (W("/w/p/a.out"),)),
    ("gcc-v-alone", "gcc -v", R, ()),
    ("gcc-syntax-only", "gcc -fsyntax-only -Wall -std=c11 -I inc -DX=1 hello.c", R, ()),
    ("gcc-E-MD", "gcc -E -MD hello.c", WR, (W("/w/p/hello.d"),)),
    ("gcc-E-Wp-MD", "gcc -E -Wp,-MD,deps.d hello.c", WR, (W("/w/p/deps.d"),)),
    ("gcc-plugin", "gcc -fsyntax-only -fplugin=./p.so hello.c", OP, ()),
    ("gcc-response-file", "gcc @opts", OP, ()),
    ("javac-version", "javac -version", R, ()),
    ("javac-at-file", "javac @args", OP, ()),
    ("tsc-noemit", "tsc --noEmit -p api/tsconfig.json --skipLibCheck", OP, ()),
    ("tsc-noemit-case-blind", "tsc -noemit --PRETTY", OP, ()),
    ("tsc-noemit-files", "tsc --noEmit --strict src/a.ts src/b.ts", R, ()),  # no tsconfig
    ("tsc-noemit-false", "tsc --noEmit false", WR, (SOMEWHERE,)),
    ("tsc-noemit-init", "tsc --noEmit --init", OP, ()),
    ("tsc-noemit-build", "tsc --noEmit -b", OP, ()),
    ("tsc-noemit-incremental", "tsc --noEmit --incremental", OP, ()),
    ("openssl-x509-text", "openssl x509 -in c.pem -noout -text", R, ()),
    ("openssl-rand-writerand", "openssl rand -writerand r 8", WR, (W("/w/p/r"),)),
    ("openssl-genrsa", "openssl genrsa 2048", OP, ()),
    ("openssl-x509-sign", "openssl x509 -req -in r -CAcreateserial -out c", OP, (W("/w/p/c"),)),
    ("ssh-keygen-l", "ssh-keygen -l -f k.pub", R, ()),
    ("ssh-keygen-f-cluster", "ssh-keygen -q -N '' -fey", WR, (W("/w/p/ey"), W("/w/p/ey.pub"))),
    ("ssh-keygen-provider", "ssh-keygen -D ./p.so", OP, ()),
    ("iconv-output-abbrev", "iconv -f utf-8 -t ascii --out=o f", WR, (W("/w/p/o"),)),
    ("iconv-list", "iconv -l", R, ()),
    ("sdiff-output-abbrev", "sdiff --outp=o a b", WR, (W("/w/p/o"),)),
    ("sdiff-diff-program", "sdiff --diff-program=./x a b", OP, ()),
    ("ar-t", "ar tv lib.a", R, ()),
    ("ar-plugin", "ar --plugin p.so t lib.a", OP, ()),
    ("ar-output", "ar x --output=d lib.a", OP, ()),
    ("cmake-version", "cmake --version", R, ()),
    ("time-output-abbrev", "time --out=t ls", WR, (W("/w/p/t"),)),
    # --- sqlite3 and ed ----------------------------------------------------------------------
    ("sqlite3-select", "sqlite3 -header -csv db 'select 1'", OP, ()),  # creates a missing db
    ("sqlite3-select-readonly", "sqlite3 -readonly -csv db 'select 1'", R, ()),
    ("sqlite3-select-memory", "sqlite3 :memory: 'select 1'", R, ()),
    ("sqlite3-with-select", "sqlite3 db 'with x as (select 1) select * from x'", OP, ()),
    ("sqlite3-with-insert", "sqlite3 db 'with x as (select 1) insert into t select 1'", WR, ()),
    ("sqlite3-writefile", "sqlite3 db \"select writefile('o', 'x')\"", WR, ()),
    ("sqlite3-stdin-save", "sqlite3 <<< '.save out.db'", WR, (W("/w/p/out.db"),)),
    ("sqlite3-stdin-select", "sqlite3 db <<< 'select 1;'", OP, ()),
    ("sqlite3-stdin-unknown", "sqlite3", OP, ()),
    ("sqlite3-init", "sqlite3 -init x.sql db 'select 1'", OP, ()),
    ("sqlite3-shell", "sqlite3 db '.shell touch x'", OP, (W("/w/p/db"), W("/w/p/x"))),
    ("ed-print-option", "ed -s f <<< ',p'", R, ()),
    ("ed-print-unknown", "ed --frob f <<< ',p'", OP, ()),
    # --- interpreters --------------------------------------------------------------------------
    ("node-version", "node --version", R, ()),
    ("node-check", "node --check s.js", R, ()),
    ("node-check-prof", "node -c --prof s.js", WR, (W("/w/p"),)),
    ("node-e-prof-after-code", "node -e 1 --prof", WR, (W("/w/p"),)),
    ("node-e-script-args", "node -e 'console.log(1)' a --prof", R, ()),
    ("node-redirect-warnings", "node --redirect-warnings=w -e 1", WR, (W("/w/p/w"),)),
    ("node-env-file", "node --env-file=.env -e 1", OP, ()),
    ("node-harmless-option", "node --no-warnings --input-type module -e 1", R, ()),
    ("python-X-perf", "python3 -X perf -I -c 'print(1)'", OP, ()),
    (
        "python-X-pycache-prefix",
        "python3 -X pycache_prefix=pc -I -c 'print(1)'",
        WR,
        (W("/w/p/pc"),),
    ),
    ("python-X-utf8", "python3 -X utf8 -I -c 'print(1)'", R, ()),
    ("python-i-reads-stdin", "python3 -i -I -c 'print(1)'", OP, ()),
    ("python-harmless-switches", "python3 -u -B -E -Wignore -I -c 'print(1)'", R, ()),
    ("python-json-tool-indent", "python3 -I -m json.tool --indent 2 in.json", R, ()),
    ("python-json-tool-out", "python3 -I -m json.tool in.json out.json", WR, (W("/w/p/out.json"),)),
    ("perl-c-runs-begin", "perl -c -e 'BEGIN { unlink \"f\" }'", WR, (D("/w/p/f"),)),
    ("perl-c-script", "perl -c x.pl", OP, ()),
    ("perl-lane", "perl -lane 'print $F[0]' f", R, ()),
    ("perl-core-dump", "perl -u -e 1", OP, ()),
    ("perl-version", "perl --version", R, ()),
    ("ruby-c", "ruby -c x.rb", R, ()),
    ("ruby-long-unknown", "ruby --dump=insns -e 1", OP, ()),
    ("php-r", "php -n -r 'echo 1;'", R, ()),
    ("php-prepend", "php -d auto_prepend_file=x.php -r 'echo 1;'", OP, ()),
    ("bun-e", "bun -e 'console.log(1)'", R, ()),
    ("bun-preload", "bun --preload ./x.js -e 1", OP, ()),
    ("deno-eval", "deno eval --ext ts 'console.log(1)'", R, ()),
    ("deno-eval-v8-flags", "deno eval --v8-flags=--prof 1", OP, ()),
]


@pytest.mark.parametrize(
    ("case_id", "command", "status", "effects"), CASES, ids=[c[0] for c in CASES]
)
def test_program_option(
    case_id: str, command: str, status: Status, effects: tuple[Any, ...]
) -> None:
    result = analyze(command, cwd="/w/p", home="/home/u")
    got = (result.status, tuple((e.kind, e.resolved) for e in result.effects))
    if status is WR and not effects:  # the targets are checked elsewhere; a write is enough
        got = (got[0], ())
    assert got == (status, effects), explain(result)


def test_ids_are_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))
