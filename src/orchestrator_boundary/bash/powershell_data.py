"""PowerShell cmdlets and aliases the analysis knows (lower-case)."""

from __future__ import annotations

from orchestrator_boundary.bash.readonly_data import names

WRITE_CONTENT = frozenset(
    {
        "set-content",
        "sc",
        "add-content",
        "ac",
        "clear-content",
        "clc",
        "out-file",
        "export-csv",
        "export-clixml",
        "tee-object",
        "tee",
        "epcsv",
        "export-alias",
        "epal",
        "export-formatdata",
        "start-transcript",
    }
)
NEW_ITEM = frozenset({"new-item", "ni", "mkdir", "md"})
REMOVE = frozenset({"remove-item", "rm", "del", "erase", "rd", "rmdir", "ri"})
COPY = frozenset({"copy-item", "cp", "copy", "cpi"})
MOVE = frozenset({"move-item", "mv", "move", "mi"})
RENAME = frozenset({"rename-item", "ren", "rni"})
SET_LOCATION = frozenset(
    {"set-location", "sl", "cd", "chdir", "push-location", "pushd", "pop-location", "popd"}
)
BLOCK_RUNNERS = frozenset({"foreach-object", "%", "where-object", "?", "where"})
READ_ONLY = names("""
    get-childitem gci ls dir get-content gc cat type select-string sls get-location gl pwd
    write-host write-output echo write test-path get-item gi get-process gps ps get-command gcm
    measure-object measure select-object select sort-object sort format-table ft format-list fl
    format-wide fw out-string out-host out-null get-date resolve-path rvpa split-path join-path
    convertfrom-json convertto-json convertfrom-csv convertto-csv get-help help get-service
    get-itemproperty gp get-filehash get-member gm group-object group start-sleep sleep
    get-variable gv get-alias gal write-error write-warning write-verbose write-debug
    get-history h history get-host get-psdrive gdr get-uniquerecord compare-object compare diff
    get-culture get-random get-unique gu where.exe hostname whoami get-netipaddress
    get-ciminstance get-wmiobject gwmi get-executionpolicy get-module gmo get-acl
    """)
SWITCHES = frozenset(
    {
        "-force",
        "-recurse",
        "-append",
        "-nonewline",
        "-passthru",
        "-noclobber",
        "-confirm",
        "-verbose",
        "-debug",
        "-whatif",
        "-file",
        "-directory",
        "-hidden",
        "-container",
        "-asbytestream",
        "-raw",
    }
)
DOWNLOADS = frozenset(
    {"invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget", "start-bitstransfer"}
)
ARCHIVES = frozenset({"expand-archive", "compress-archive"})
ALL_NAMES = (WRITE_CONTENT, NEW_ITEM, REMOVE, COPY, MOVE, RENAME, SET_LOCATION, READ_ONLY)
# the cmdlets, and their Windows aliases, that honour -WhatIf (ShouldProcess): any other command
# takes it as an argument and runs (`cmd /c "del f" -WhatIf`, `./x.ps1 -WhatIf`). Aliases that
# name a program on Linux and macOS (rm, cp, mv, mkdir, tee), and sc and ac, are left out
WHATIF = names("""
    set-content add-content clear-content clc out-file export-csv epcsv export-clixml new-item ni
    remove-item ri del erase rd copy-item cpi copy move-item mi move rename-item rni ren
    expand-archive compress-archive
    """)
# aliases PowerShell defines on Windows only, whose native program on Linux and macOS
# (`pwsh -Command` from Bash) can write: `sort -o x f` writes x, ImageMagick's `compare a b c`
# writes c (cat, diff, ls, ps and sleep there only read, as their cmdlets do)
NATIVE_ELSEWHERE = frozenset({"compare", "sort"})
# Get-Help parameters that start a program: the browser (-Online), a window (-ShowWindow)
HELP_RUNS = ("-online", "-showwindow")
