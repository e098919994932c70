"""Every option of the wrappers ``unwrap`` reads (issue 12, point 1).

A wrapper's options decide which word is the command it runs; an option not listed here could
take a value and shift that word, so it makes the command ``opaque``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.options import Spec, spec

# prefix wrappers whose first operand is the command they run
SIMPLE: dict[str, Spec] = {
    "nohup": spec(longs="help version"),
    "builtin": spec(),
    "exec": spec("cl", "a"),
    "nice": spec("0123456789", "n", "adjustment= help version"),
    "ionice": spec("t", "cnP", "class= classdata= ignore help version"),
    "stdbuf": spec("", "ioe", "input= output= error= help version"),
    "doas": spec("Lns", "aCu"),
    "caffeinate": spec("dimsu", "tw"),
    "unbuffer": spec("p"),
    "bunx": spec("", "p", "package= bun silent"),
    "uvx": spec(
        "qvn",
        "pw",
        """from= with= with-editable= with-requirements= python= isolated quiet verbose offline
        no-cache refresh index-url= extra-index-url= index= default-index= constraints=
        overrides= build-constraints= env-file= no-env-file no-progress native-tls directory=
        project= python-preference= reinstall upgrade help version""",
    ),
    "command": spec("pvV"),
    "coproc": spec(),
    # zsh's precommand modifiers (ADR 0070): no globbing, no spelling correction, argv[0] with
    # a leading `-`; Bash finds no such command and runs nothing
    "noglob": spec(),
    "nocorrect": spec(),
    "-": spec(),
    # util-linux setsid; moreutils chronic; winpty (Git Bash), whose -X options stay unknown
    "setsid": spec("cfwhV", "", "ctty fork wait help version"),
    "chronic": spec("ev"),
    "winpty": spec("h", "", "mouse showkey version help"),
}  # fmt: skip
# wrappers whose first operand is a number before the command (`chrt 10 cmd`, `taskset 0x3
# cmd`); with -p they act on a running process (ADR 0070)
AFTER_OPERAND: dict[str, Spec] = {
    "chrt": spec("abdfhiomprRTPDv", "", "all-tasks batch deadline fifo help idle max other pid rr "
                 "reset-on-fork sched-runtime= sched-period= sched-deadline= verbose version"),
    "taskset": spec("acphV", "", "all-tasks cpu-list pid help version"),
}  # fmt: skip

ENV = spec(
    "0iv",
    "uCSP",
    """ignore-environment null unset= chdir= split-string= block-signal[=] default-signal[=]
    ignore-signal[=] list-signal-handling debug help version""",
)
# sudo 1.9 (getopt "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv")
SUDO = spec(
    "ABbEeHiKklNnPSsVv",
    "aCcDgpRrTtUu",
    """askpass background bell chroot= close-from= chdir= preserve-env[=] edit group= set-home help
    host= login remove-timestamp reset-timestamp list non-interactive preserve-groups prompt=
    role= stdin shell type= command-timeout= other-user= user= version validate""",
    optional="h",
)
TIMEOUT = spec("fpv", "ks", "foreground kill-after= preserve-status signal= verbose help version")
# GNU and BSD xargs
XARGS = spec(
    "0oprtx",
    "adEILnPsJRS",
    """null arg-file= delimiter= eof[=] replace[=] max-lines[=] max-args= open-tty max-procs=
    interactive process-slot-var= no-run-if-empty max-chars= show-limits verbose exit help
    version""",
    optional="eil",
)
NPX = spec(
    "yq",
    "pcw",
    """package= call= yes no no-install ignore-existing quiet silent prefer-offline
    prefer-online offline registry= shell= shell-auto-fallback workspace= workspaces
    include-workspace-root node-arg= cache= loglevel= verbose""",
)
WATCH = spec(
    "bcCeEgptwxrhv",
    "nq",
    """beep color no-color differences[=] errexit chgexit equexit= interval= precise no-title
    no-wrap no-linewrap exec no-rerun help version""",
    optional="d",
)
# `uv run`, `poetry run`, `npm exec`, `pnpm dlx`, `conda run`, ...: the options of them all
# (a value-taking option of one is read as taking a value for each: a wrong guess shows as an
# unknown program, which is opaque)
RUNNER = spec(
    "qvyrsgmlw",
    "pnCFecf",
    """script no-sync frozen locked isolated no-project all-extras no-dev dev active
    no-editable exact quiet verbose offline no-cache refresh reinstall upgrade native-tls
    no-progress module all-packages no-env-file gui-script only-dev no-default-groups
    all-groups with= with-editable= with-requirements= python= project= directory= package=
    extra= group= only-group= no-group= env-file= index= index-url= extra-index-url=
    default-index= find-links= python-preference= cache-dir= color= no-interaction ansi
    no-ansi no-plugins call= shell-mode yes no workspace= workspaces include-workspace-root
    recursive parallel filter= dir= silent reporter= bun keep-file-descriptors gemfile=
    global site-packages recreate list json env= pyproject= name= prefix= cwd= live-stream
    no-capture-output debug-wrapper-scripts spec= pip-args= system-site-packages editable
    path""",
)
