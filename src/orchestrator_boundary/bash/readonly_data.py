"""Programs known not to modify files (when their output is not redirected)."""

from __future__ import annotations


def names(text: str) -> frozenset[str]:
    """The whitespace-separated names in ``text``."""
    return frozenset(text.split())


READ_ONLY_PROGRAMS = names(
    """
    ls ll la dir vdir cat tac head tail wc grep egrep fgrep rg ag ack stat file du df
    ps pgrep pidof top which whereis type pwd echo printf jq diff cmp comm sha256sum sha1sum
    sha512sum md5sum md5 cksum b2sum shasum tree env printenv true false test [ [[ : cd pushd popd
    export unset set shopt alias unalias read sleep date whoami id groups uname hostname basename
    dirname realpath readlink nproc free uptime cut tr paste column nl rev fold fmt expand
    unexpand od hexdump strings seq yes expr bc numfmt tput clear declare local
    typeset readonly hash ulimit umask wait jobs fg bg lsof netstat ifconfig ping host dig
    nslookup getent locale arch sw_vers system_profiler vm_stat iostat vmstat lscpu lsblk
    findstr tasklist where zcat bzcat xzcat zgrep look join shift getopts
    let logname break continue return exit users who w last tty stty cal factor sha224sum
    sha384sum base32
    """
)

# Programs that print their version or help (a lone `--version`, `--help`) without reading the
# project or running anything else (dispatch.py); any other unknown program is opaque then
VERSION_ONLY = names(
    """
    swift swiftc docker kubectl helm gh make cmake ninja gcc g++ clang clang++ cc c++ ld as
    bash sh zsh dash fish tmux screen jq yq rg fd bat curl wget ssh rsync zip unzip tar gzip
    """
)

# Directories whose programs are the system's own: a name elsewhere may be a local script.
TRUSTED_DIRS = (
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/usr/local/sbin/",
    "/opt/homebrew/bin/",
    "/opt/homebrew/sbin/",
)
# Programs commonly run from a project path (.venv/bin/python, node_modules/.bin/...): their
# own handlers decide (inline code, installers), everything else is opaque anyway.
PATH_INDEPENDENT = names(
    "python pip node perl ruby uv npm npx pnpm yarn bun bunx uvx pipx orchestrator-boundary"
)

# Environment variables that make later programs run other code (or look elsewhere).
DANGEROUS_ENV = names(
    """
    LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT DYLD_INSERT_LIBRARIES DYLD_LIBRARY_PATH BASH_ENV ENV
    PROMPT_COMMAND PAGER GIT_PAGER MANPAGER EDITOR VISUAL GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_SSH
    GIT_SSH_COMMAND GIT_EXTERNAL_DIFF GIT_ASKPASS SSH_ASKPASS GIT_CONFIG_PARAMETERS
    GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_DIR GIT_WORK_TREE GIT_EXEC_PATH
    NODE_OPTIONS PERL5OPT PERL5LIB PERLLIB RUBYOPT RUBYLIB PYTHONSTARTUP PYTHONHOME
    SHELLOPTS BASHOPTS IFS CDPATH PATH HOME PWD PS0 PS1 PS2 PS3 PS4 XDG_CONFIG_HOME PYTHONPATH
    PYTHONUSERBASE PYTHONBREAKPOINT NODE_PATH LESSOPEN LESSCLOSE GIT_INDEX_FILE
    GIT_OBJECT_DIRECTORY GIT_TEMPLATE_DIR GIT_PROXY_COMMAND GIT_CONFIG GIT_CONFIG_NOSYSTEM
    BROWSER JAVA_TOOL_OPTIONS _JAVA_OPTIONS RUSTC_WRAPPER LD_AUDIT BASH_LOADABLES_PATH
    GCONV_PATH MALLOC_TRACE
    """
)
# ... and every variable whose name starts with one of these
DANGEROUS_ENV_PREFIXES = ("GIT_TRACE", "GIT_CONFIG_", "NPM_CONFIG_", "npm_config_", "BASH_FUNC_")
# `git -c key=value` keys that cannot run a command
GIT_SAFE_CONFIG_PREFIXES = (
    "user.",
    "http.sslverify",
    "http.proxy",
    "http.version",
    "http.postbuffer",
    "color.",
    "advice.",
    "init.",
    "pull.",
    "push.",
    "log.",
    "status.",
    "i18n.",
    "protocol.version",  # not protocol.<name>.allow: `ext::` runs a command
    "pack.",
    "fetch.",
    "core.quotepath",
    "core.autocrlf",
    "core.safecrlf",
    "gc.auto",
    "commit.gpgsign",
    "tag.gpgsign",
    "merge.ff",
    "merge.conflictstyle",
    "diff.renames",
    "column.ui",
)
# keys under a safe prefix that make git run a program (ADR 0049): log.showSignature runs gpg,
# which creates ~/.gnupg (observed); safe.directory (left out above) would let git read, and run
# the programs of, a repository another user owns
GIT_RUNNING_KEYS = frozenset({"log.showsignature"})
