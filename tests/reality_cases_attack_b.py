"""Attack round B's rows for issue 12's table (ADR 0049), each observed in a throwaway folder.

The commands the second attack round found rated ``read_only`` (or ``writes`` with a target
missing) that wrote a file or ran code, next to their read-only twins: everyday tools whose
side effects their configuration decides (npm's debug log, ruff's and black's caches, eslint's
and prettier's configuration as code, tsc's build info), runners that prepare an environment
(``npx``, ``uv run``, ``uvx``), variable attributes that evaluate later assignments, links made
by ``cp -s`` / ``cp -l`` / ``link``, and quoted SQL function names. ``reality_cases`` adds them to
its ``ROWS``; the rows of programs not installed here are label-only at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reality import Seed

if TYPE_CHECKING:
    from reality_cases import Row

_PKG = ("package.json", '{"name": "p", "version": "1.0.0"}\n')
NPM_PLAIN = Seed(files=(_PKG,))  # no npmrc: npm's own defaults
NPM_PROJECT_LOGS = Seed(files=(_PKG, (".npmrc", "logs-dir=.claude/npmlogs\n")))
NPM_POSTINSTALL = Seed(
    files=(("package.json", '{"name": "p", "scripts": {"postinstall": "touch ran"}}\n'),)
)
LINT = Seed(files=(("lint.py", "import os\n"),))
RUFF_CACHE_DIR = Seed(
    files=(
        ("lint.py", "import os\n"),
        ("pyproject.toml", "[tool.ruff]\ncache-dir = '.claude/rc'\n"),
    )
)
ESLINT_CODE = Seed(
    files=(
        ("eslint.config.js", "require('fs').writeFileSync('ran', ''); module.exports = [];\n"),
        ("a.js", "var x = 1;\n"),
    )
)
PRETTIER_CODE = Seed(
    files=(
        (".prettierrc.js", "require('fs').writeFileSync('ran', ''); module.exports = {};\n"),
        ("a.js", "var x = 1;\n"),
    )
)
TS_INCREMENTAL = Seed(
    files=(
        ("tsconfig.json", '{"compilerOptions": {"incremental": true}, "files": ["a.ts"]}\n'),
        ("a.ts", "export const x = 1;\n"),
    )
)
UV_PROJECT = Seed(
    files=(("pyproject.toml", "[project]\nname = 'p'\nversion = '0'\ndependencies = []\n"),)
)
SETTINGS = Seed(files=((".claude/settings.json", "{}\n"),))
# a commit with a (bogus) signature: verifying it runs gpg, which creates ~/.gnupg
SIGNED = Seed(
    git=True,
    setup=(
        "c=$(git cat-file commit HEAD | awk '/^committer/ {print; print \"gpgsig -----BEGIN"
        " PGP SIGNATURE-----\\n \\n iQEz\\n -----END PGP SIGNATURE-----\"; next} {print}'"
        " | git hash-object -t commit -w --stdin) && git update-ref refs/heads/main $c"
    ),
)
FAKE_LS = Seed(
    setup="mkdir bin && printf '#!/bin/sh\\n/usr/bin/touch ran\\n' > bin/ls && chmod +x bin/ls"
)
SLOT_FILE = Seed(files=(("0", "touch sourced\n"),))  # what BASH_ENV=0 makes bash run
_SQL_QUOTED = "sqlite3 db.sqlite \"select {}('x', 'y')\""


def rows() -> list[Row]:
    """The rows; ``reality_cases`` calls this once its helpers exist (it imports this module)."""
    from reality_cases import PATCH, SQL, O, R, W

    return [
        # --- 5. program knowledge: side effects the configuration decides -------------------------
        O("5", "b-npm-ls-log", "npm ls", seed=NPM_PLAIN, needs=("npm",)),
        O("5", "b-npm-ls-project-logs-dir", "npm list", seed=NPM_PROJECT_LOGS, needs=("npm",)),
        O("5", "b-npm-config-list-log", "npm config list", seed=NPM_PLAIN, needs=("npm",)),
        R("5", "b-npm-v", "npm -v", seed=NPM_PLAIN, needs=("npm",)),
        O(
            "5",
            "b-npm-install-scripts",
            "npm install --offline",
            seed=NPM_POSTINSTALL,
            needs=("npm",),
        ),
        O("5", "b-ruff-check-cache", "ruff check lint.py", seed=LINT, needs=("ruff",)),
        O(
            "5",
            "b-ruff-check-cache-dir",
            "ruff check -q lint.py",
            seed=RUFF_CACHE_DIR,
            needs=("ruff",),
        ),
        O(
            "5",
            "b-ruff-format-check-cache",
            "ruff format --check lint.py",
            seed=LINT,
            needs=("ruff",),
        ),
        R(
            "5",
            "b-ruff-check-no-cache",
            "ruff check -n lint.py",
            seed=RUFF_CACHE_DIR,
            needs=("ruff",),
        ),
        R(
            "5",
            "b-ruff-format-check-n",
            "ruff format --check -n lint.py",
            seed=RUFF_CACHE_DIR,
            needs=("ruff",),
        ),
        O("5", "b-black-diff-cache", "black --diff lint.py", seed=LINT, needs=("black",)),
        O("5", "b-eslint-config-code", "eslint a.js", seed=ESLINT_CODE, needs=("eslint",)),
        O(
            "5",
            "b-prettier-config-code",
            "prettier --check a.js",
            seed=PRETTIER_CODE,
            needs=("prettier",),
        ),
        O("5", "b-tsc-noemit-build-info", "tsc --noEmit -p .", seed=TS_INCREMENTAL, needs=("tsc",)),
        R("5", "b-tsc-noemit-files", "tsc --noEmit a.ts", seed=TS_INCREMENTAL, needs=("tsc",)),
        O("5", "b-sqlite3-creates-db", "sqlite3 new.sqlite 'select 1'", needs=("sqlite3",)),
        R(
            "5",
            "b-sqlite3-readonly",
            "sqlite3 -readonly db.sqlite 'select count(*) from t'",
            seed=SQL,
            needs=("sqlite3",),
        ),
        R("5", "b-sqlite3-memory", "sqlite3 :memory: 'select 1'", needs=("sqlite3",)),
        W(
            "5",
            "b-sqlite3-dq-writefile",
            _SQL_QUOTED.format('\\"writefile\\"'),
            seed=SQL,
            needs=("sqlite3",),
        ),
        W(
            "5",
            "b-sqlite3-bracket-writefile",
            _SQL_QUOTED.format("[writefile]"),
            seed=SQL,
            needs=("sqlite3",),
        ),
        W(
            "5",
            "b-sqlite3-comment-writefile",
            _SQL_QUOTED.format("writefile/**/"),
            seed=SQL,
            needs=("sqlite3",),
        ),
        W("5", "b-patch-dry-run-output", "patch --dry-run -o out f p.diff", "out", seed=PATCH),
        R("5", "b-patch-dry-run", "patch --dry-run f p.diff", seed=PATCH),
        O(
            "5",
            "b-git-c-show-signature",
            "git -c log.showSignature=true log -1",
            seed=SIGNED,
            needs=("gpg",),
        ),
        R("5", "b-git-log-signed", "git log -1", seed=SIGNED),
        # --- 2. runners that prepare an environment before the command they run ------------------
        O("2", "b-npx-log", "npx --offline tsc --noEmit", seed=NPM_PLAIN, needs=("npx",)),
        O("2", "b-uv-run", "uv run --offline true", seed=UV_PROJECT, needs=("uv",)),
        O("2", "b-uvx", "uvx --offline ruff --version", needs=("uvx",)),
        O("2", "b-uv-pip-list", "uv pip list", needs=("uv",)),
        O(
            "2",
            "b-xargs-slot-bash-env",
            "echo x | xargs --process-slot-var=BASH_ENV bash -c ls",
            seed=SLOT_FILE,
        ),
        R("2", "b-xargs-slot-harmless", "echo x | xargs --process-slot-var=slot echo"),
        # --- 3. text that becomes code: attributes that evaluate later assignments ----------------
        O("3", "b-declare-i-later", "declare -i i; i='a[$(touch p)]'"),
        O("3", "b-typeset-i-later", "typeset -i i; i='a[$(touch p)]'"),
        O("3", "b-declare-i-read", "declare -i i; read i <<< 'a[$(touch p)]'"),
        O("3", "b-declare-i-append", "declare -i i; i+='a[$(touch p)]'"),
        O("3", "b-declare-n-later", "declare -n r; r='a[$(touch p)]'; echo $r"),
        O("3", "b-typeset-n-ps4", "typeset -n r; r=PS4; r='$(touch p)'; set -x; :"),
        O("3", "b-array-quoted-subscript", "a=(['$(touch p)']=1)"),
        O("3", "b-array-variable-subscript", "x='a[$(touch p)]'; a=([$x]=1)"),
        O("3", "b-declare-a-subscript", "declare -a a=(['a[$(touch p)]']=1)"),
        O("3", "b-unset-computed-name", "x='a[$(touch p)]'; declare -a a; unset \"$x\""),
        O("3", "b-for-ps4", "for PS4 in '$(touch p)'; do set -x; :; done"),
        O("3", "b-for-path", 'for PATH in "$PWD/bin"; do ls; done', seed=FAKE_LS),
        R("3", "b-for-plain", "for f in a b; do cat $f; done"),
        R("3", "b-array-number-subscripts", "a=([0]=x [1]=y); echo ${a[1]}"),
        R("3", "b-unset-literal", "x=1; unset x"),
        # --- 4. writes through links: cp -s / cp -l / link make links, not copies -----------------
        W(
            "4",
            "b-cp-s-through",
            "cp -s .claude/settings.json s; echo x > s",
            ".claude/settings.json",
            seed=SETTINGS,
        ),
        W(
            "4",
            "b-cp-l-through",
            "cp -l .claude/settings.json h; echo x > h",
            ".claude/settings.json",
            seed=SETTINGS,
        ),
        W(
            "4",
            "b-cp-rs-through",
            'cp -rs "$PWD/.claude" c; echo x > c/settings.json',
            ".claude/settings.json",
            seed=SETTINGS,
        ),
        W(
            "4",
            "b-link-through",
            "link .claude/settings.json h; echo x > h",
            ".claude/settings.json",
            seed=SETTINGS,
        ),
        W(
            "4",
            "b-proc-self-cwd",
            "echo x >> /proc/self/cwd/.claude/settings.json",
            ".claude/settings.json",
            seed=SETTINGS,
        ),
        O(
            "4",
            "b-home-assigned-tilde",
            'HOME="$PWD/.claude"; echo x > ~/settings.json',
            seed=SETTINGS,
        ),
        # --- 1. an option hidden in a word that is not a literal, on a command that writes --------
        O("1", "b-cp-hidden-option", "X=--target-directory=d; cp f a $X"),
    ]
