"""Attack round C's rows for issue 12's table (ADR 0056), each Bash row observed in a throwaway
folder.

Declarations whose quoted or escaped ``NAME=value`` words the grammar reads as plain words while
Bash assigns them (a prompt variable, a subscript evaluated as arithmetic), a signal that makes
the program ``timeout`` runs dump core, and ``zless`` handing ``-o FILE`` to less; PowerShell
rows (label-only: pwsh is not installed here) for the forms its documentation and tokenizer
show. ``reality_cases`` adds them to its ``ROWS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reality import Seed

if TYPE_CHECKING:
    from reality_cases import Row

GZ = Seed(setup="printf 'x\\n' | gzip > f.gz")
BASH_ENV_FILE = Seed(files=(("x", "touch y\n"),))
# modules in the working folder, which comes first on python -c's sys.path
LOCAL_MODULES = Seed(files=(("evil.py", "open('ran', 'w')\n"), ("pydoc.py", "open('ran2', 'w')\n")))
AWK_LIB = Seed(files=(("x.awk", 'BEGIN { system("touch ran") }\n'),))
# a second repository in the folder whose configuration runs a program on `git status`
OTHER_REPO = Seed(
    git=True,
    setup="git init -q --bare evil.git && git -C evil.git config core.fsmonitor 'touch ran; false'"
    " && git -C evil.git config core.bare false",
)
JSON_FOLDER = Seed(
    setup="mkdir x.json && echo \"require('fs').writeFileSync('ran', '')\" > x.json/index.js"
)
RUBY_FILE = Seed(files=(("x.rb", "File.write('ran', '')\n"),))
HOSTNAME_BIN = Seed(setup="printf '#!/bin/sh\\ntouch ran\\necho h\\n' > h && chmod +x h")


def _core_dumps_here() -> str:
    """Why the core-dump row cannot run here, or "" when a core file lands in the folder."""
    pattern = Path("/proc/sys/kernel/core_pattern")
    text = pattern.read_text().strip() if pattern.exists() else ""
    if text.startswith("core"):
        return ""
    return "core dumps do not go to the working folder on this machine"


def rows() -> list[Row]:
    """The rows; ``reality_cases`` calls this once its helpers exist (it imports this module)."""
    from reality_cases import PS, O, R, W

    return [
        # --- 3. text that becomes code: quoted assignments in declarations ------------------
        W("3", "c-declare-quoted-ps4", "declare 'PS4=$(touch x)'; set -x; ls", "x"),
        W("3", "c-declare-quoted-subscript", "declare 'a[$(touch x)]=1'", "x"),
        W("3", "c-declare-a-quoted-subscript", "declare -a 'a[$(touch x)]=1'", "x"),
        W("3", "c-declare-escaped-subscript", "declare a\\[\\$\\(touch\\ x\\)\\]=1", "x"),
        O("3", "c-export-quoted-bash-env", "export 'BASH_ENV=x'; bash -c ls", seed=BASH_ENV_FILE),
        W("3", "c-eval-dashdash", "eval -- 'touch x'", "x"),
        W("2", "c-trap-dashdash", "trap -- 'touch x' EXIT", "x"),
        O("3", "c-set-k-bash-env", "set -k; bash -c ls BASH_ENV=./x", seed=BASH_ENV_FILE),
        O("4", "c-cdable-vars", "shopt -s cdable_vars; dd=src; cd dd && touch y"),
        R("3", "c-declare-quoted-plain", "declare 'x=1'; export 'LANG=C'; ls"),
        # --- 5. program knowledge: a signal that dumps core, less's options ------------------
        O(
            "5",
            "c-timeout-core-signal",
            "ulimit -c unlimited; timeout -s SEGV 1 sleep 5",
            label_only=_core_dumps_here(),
        ),
        # the raised core limit alone is opaque now (ADR 0062): a fair answer, not a write
        R("5", "c-timeout-kill", "ulimit -c unlimited; timeout -s KILL 1 sleep 5",
          provable=False),
        O("5", "c-zless-log-file", "zless -EFX -o out f.gz", seed=GZ, tty=True),
        O(
            "5",
            "c-rg-hostname-bin",
            "rg --hostname-bin ./h --hyperlink-format='{host}' --color=always x f",
            seed=HOSTNAME_BIN,
            needs=("rg",),
        ),
        O("2", "c-gawk-include", "gawk '@include \"x.awk\"; BEGIN{}'", seed=AWK_LIB,
          needs=("gawk",)),
        R("2", "c-gawk-print", "gawk '{print $1}' f", needs=("gawk",)),
        O("5", "c-git-dir-fsmonitor", "git --git-dir=evil.git --work-tree=. status --porcelain",
          seed=OTHER_REPO),
        R("5", "c-git-status-plain", "git status --porcelain", seed=OTHER_REPO),
        O("5", "c-vim-c-write", "vim -es -u NONE -c 'w x' -c q", needs=("vim",)),
        O("5", "c-vim-plus-write", "vim -es -u NONE '+w y' '+q'", needs=("vim",)),
        W("5", "c-sponge-file", "sort f | sponge f", "f", needs=("sponge",)),
        R("5", "c-sponge-stdout", "echo x | sponge", needs=("sponge",)),
        # --- 6. inline code: help() imports pydoc, or the module it is given ----------------
        O("6", "c-python-help-name", "python3 -c \"help('evil')\"", seed=LOCAL_MODULES),
        O("6", "c-python-help-object", "python3 -c 'help(len)'", seed=LOCAL_MODULES),
        W("6", "c-node-write-stream", "node -e \"require('fs').WriteStream('z')\"", "z",
          needs=("node",)),
        O("6", "c-node-require-json-folder", "node -e \"require('./x.json')\"", seed=JSON_FOLDER,
          needs=("node",)),
        O("6", "c-ruby-require-path", "ruby -e 'require \"./x\"'", seed=RUBY_FILE,
          needs=("ruby",)),
        O("6", "c-ruby-io-read-pipe", "ruby -e 'IO.read(\"|touch y\")'", needs=("ruby",)),
        R("6", "c-ruby-io-read-file", "ruby -e 'puts IO.read(\"f\")'", needs=("ruby",)),
        R("6", "c-python-print", "python3 -c 'print(len(\"ab\"))'", seed=LOCAL_MODULES),
        # --- 7. PowerShell (label-only) --------------------------------------------------------
        W("7", "c-ps-subexpression", 'Write-Output "$(ni x)"', "x", shell="powershell",
          label_only=PS),
        W("7", "c-ps-whatif-native", 'cmd /c "echo x > y" -WhatIf', "y", shell="powershell",
          label_only=PS),
        W("7", "c-ps-curly-quote", "echo 'a\u2019; ni x; \u2018b'", "x", shell="powershell",
          label_only=PS),
        W("7", "c-ps-en-dash", "ni \u2013Path x", "x", shell="powershell", label_only=PS),
        W("7", "c-ps-nbsp-redirect", "echo x\u00a0>\u00a0f", "f", shell="powershell",
          label_only=PS),
        W("7", "c-ps-group-value", "Get-ChildItem -Path (ni x)", "x", shell="powershell",
          label_only=PS),
        W("7", "c-ps-static-then", "[IO.File]::Exists('a') -and (ni x)", "x",
          shell="powershell", label_only=PS),
        W("7", "c-ps-iwr-outfile-prefix", "iwr http://a -OutF x", "x", shell="powershell",
          label_only=PS),
        W("7", "c-ps-curl-o", "curl -o x http://a", "x", shell="powershell", label_only=PS),
        R("7", "c-ps-escaped-subexpression", 'Write-Output "`$(ni x)"', shell="powershell",
          label_only=PS),
    ]  # fmt: skip
