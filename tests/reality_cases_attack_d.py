"""Attack round D's rows for issue 12's table (ADR 0062), each Bash row observed in a throwaway
folder.

kislyuk's ``yq --in-place``; a raised core-file limit followed by a crash (here: the soft
CPU limit's SIGXCPU); gawk's two-way pipe ``|&``; sqlite3 dot commands given as prefixes of their names; ``pip list``'s version check
(against a folder of links, so it needs no network); PowerShell rows (label-only: pwsh is not
installed here) for assignments to more than a plain variable. ``reality_cases`` adds them to
its ``ROWS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reality import Seed
from reality_cases_attack_c import _core_dumps_here

if TYPE_CHECKING:
    from reality_cases import Row

# a "newer pip" for the version check to find: a file name is all pip reads of a link
PIP_LINKS = Seed(files=(("links/pip-99.0-py3-none-any.whl", ""),))
# pip ignores the machine's configuration and environment, looks only at the links folder
PIP_ISOLATED = "pip --isolated list --index-url file:///nonexistent -f links"
# file names a pattern expands to: an operator and a subscript; a duration, a program, a file
TEST_NAMES = Seed(files=(("t/-v", ""), ("t/a[$(touch${IFS}z)]", "")))
SUBSCRIPT_NAME = Seed(files=(("t/a[$(touch${IFS}z)]", ""),))
TIMEOUT_NAMES = Seed(files=(("t/0", ""), ("t/rm", ""), ("t/zz", "")))
LINK_INTO = Seed(setup="mkdir -p t/u && ln -s t/u lnk && echo f > t/f")
LOCAL_LS = Seed(setup="printf '#!/bin/sh\\ntouch ran\\n' > ls && chmod +x ls")


def rows() -> list[Row]:
    """The rows; ``reality_cases`` calls this once its helpers exist (it imports this module)."""
    from reality_cases import PS, SQL, YAML, O, R, W

    return [
        # --- 5. program knowledge ----------------------------------------------------------
        W("5", "d-yq-in-place-long", "yq --in-place -y '.a = 2' c.yaml", "c.yaml", seed=YAML,
          needs=("yq",)),
        R("5", "d-yq-yaml-out", "yq -y '.a' c.yaml", seed=YAML, needs=("yq",)),
        # SIGXCPU at the soft CPU limit dumps core (observed: ./core, "core dumped")
        O("5", "d-ulimit-core-cpu", "ulimit -c unlimited; ulimit -St 1; yes > /dev/null",
          label_only=_core_dumps_here()),
        R("5", "d-ulimit-core-zero", "ulimit -c 0; ulimit -St 1; yes > /dev/null"),
        O("2", "d-gawk-coprocess", "gawk 'BEGIN{\"touch x\" |& getline; close(\"touch x\")}'",
          needs=("gawk",)),
        R("2", "d-gawk-or", "gawk '$1 || $2' f", needs=("gawk",)),
        O("5", "d-sqlite-sh-prefix", "sqlite3 db.sqlite '.sh touch y'", seed=SQL,
          needs=("sqlite3",)),
        W("5", "d-sqlite-tr-prefix", "sqlite3 db.sqlite '.tr y' 'select 1'", "y", seed=SQL,
          needs=("sqlite3",)),
        W("5", "d-sqlite-cl-prefix", "sqlite3 db.sqlite '.cl y'", "y", seed=SQL,
          needs=("sqlite3",)),
        O("5", "d-sqlite-output-pipe", "sqlite3 db.sqlite '.output |touch y' 'select 1'",
          seed=SQL, needs=("sqlite3",)),
        R("5", "d-sqlite-tables-readonly", "sqlite3 -readonly db.sqlite .tables", seed=SQL,
          needs=("sqlite3",)),
        # pip up to 25 checks its own version on every `pip list`; pip 26 only with --outdated
        # or --uptodate. The analysis rates both opaque; the row shows the write on any pip.
        O("5", "d-pip-list-version-check", PIP_ISOLATED.replace("list", "list --outdated"),
          seed=PIP_LINKS, needs=("pip",)),
        R("5", "d-pip-list-no-version-check",
          PIP_ISOLATED.replace("list", "list --disable-pip-version-check"), seed=PIP_LINKS,
          needs=("pip",)),
        # --- 3. words that may split into `-v NAME[...]`, a program, ... -------------------
        O("3", "d-test-bracket-var", "X='-v a[$(touch${IFS}z)]'; [ $X ]"),
        O("3", "d-test-bracket-glob", "cd t && [ * ]", seed=TEST_NAMES),
        R("3", "d-test-bracket-quoted", "X='-v a[$(touch${IFS}z)]'; [ -n \"$X\" ]"),
        O("3", "d-unset-glob", "cd t && a=(1) && unset *", seed=SUBSCRIPT_NAME),
        R("3", "d-unset-plain", "a=(1) && unset a"),
        O("2", "d-timeout-glob", "cd t && timeout *", seed=TIMEOUT_NAMES),
        O("2", "d-xargs-arg-file-glob", "cd t && xargs -a * cat", seed=TIMEOUT_NAMES),
        R("2", "d-timeout-literal", "timeout 5 cat f"),
        O("2", "d-unset-path", "unset PATH; ls", seed=LOCAL_LS),
        R("2", "d-path-kept", "ls -a", seed=LOCAL_LS),
        # --- 6. inline Ruby the call scan did not name; Perl's read-write open -----------
        O("6", "d-ruby-copy-stream", "ruby -e 'IO.copy_stream(\"f\", \"x\")'", needs=("ruby",)),
        O("6", "d-ruby-stdout-reopen", "ruby -e '$stdout.reopen(\"x\"); puts 1'",
          needs=("ruby",)),
        O("6", "d-ruby-send-write", "ruby -e 'File.send(:write, \"x\", 1)'", needs=("ruby",)),
        O("6", "d-ruby-public-send", "ruby -e 'Kernel.public_send(\"sys\"+\"tem\", \"touch x\")'",
          needs=("ruby",)),
        O("6", "d-ruby-constant-in-variable", "ruby -e 'f=File; f.write(\"x\", 1)'",
          needs=("ruby",)),
        R("6", "d-ruby-read", "ruby -e 'puts File.read(\"f\")'", needs=("ruby",)),
        W("6", "d-perl-read-write-open", "perl -e 'open F, \"+<f\"; print F \"zz\"'", "f",
          needs=("perl",)),
        # --- 4. a `..` after a symlink: the parent of the link's target (observed: t/y)
        O("4", "d-symlink-dotdot", "echo x > lnk/../y", seed=LINK_INTO),
        R("4", "d-symlink-read", "cat lnk/../f", seed=LINK_INTO),
        W("4", "d-hard-link-into-folder", "ln f d/ && echo x > d/f", "f"),
        # --- 7. PowerShell (label-only) ----------------------------------------------------
        O("7", "d-ps-default-outfile",
          "$PSDefaultParameterValues['Invoke-WebRequest:OutFile'] = 'x'; iwr http://a",
          shell="powershell", label_only=PS),
        O("7", "d-ps-member-attributes", "$f = Get-Item f; $f.Attributes = 'Hidden'",
          shell="powershell", label_only=PS),
        O("7", "d-ps-member-time", "$f = Get-Item f; $f.LastWriteTime = Get-Date",
          shell="powershell", label_only=PS),
        O("7", "d-ps-help-online", "Get-Help Get-Item -Online", shell="powershell",
          label_only=PS),
        O("7", "d-pwsh-sort-native", 'pwsh -NoProfile -Command "sort -o x f"', needs=("pwsh",)),
        R("7", "d-ps-plain-assignment", "$x = Get-Date", shell="powershell", label_only=PS),
    ]  # fmt: skip
