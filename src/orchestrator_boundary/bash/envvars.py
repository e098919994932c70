"""Assignments to variables that make later programs run other code."""

from __future__ import annotations

import re

from orchestrator_boundary.bash.readonly_data import (
    DANGEROUS_ENV,
    DANGEROUS_ENV_PREFIXES,
    TRUSTED_DIRS,
)


def _trusted_path_part(part: str) -> bool:
    return part in ("$PATH", "${PATH}") or (part + "/").startswith(TRUSTED_DIRS)


def dangerous(name: str, value_text: str) -> bool:
    """True when ``name=value`` can change which code later commands run.

    PATH is fine when it only adds system directories (``/opt/homebrew/bin:$PATH``).
    """
    if name.startswith(DANGEROUS_ENV_PREFIXES):
        return True
    if name not in DANGEROUS_ENV:
        return False
    if name == "PATH":
        for part in value_text.strip("\"'").split(":"):
            if part in ("$PATH", "${PATH}"):
                return False  # what follows is only searched after the old PATH
            if not _trusted_path_part(part):
                return True
        return False
    return True


def split_assignment(text: str) -> tuple[str, str] | None:
    """``NAME=value`` as (NAME, value text), or None when ``text`` is no assignment."""
    name, eq, value = text.partition("=")
    if not eq or not name or not (name[0].isalpha() or name[0] == "_"):
        return None
    if not all(c.isalnum() or c == "_" for c in name.removesuffix("+")):
        return None
    return name.removesuffix("+"), value


# variables whose value is a command line a later program runs, and prompt strings the shell
# expands (command substitutions included) when it prints them
_COMMAND_VARS = frozenset(
    {
        "PROMPT_COMMAND", "PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL", "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS",
        "SSH_ASKPASS", "BROWSER", "GIT_PROXY_COMMAND",
    }
)  # fmt: skip
_PROMPTS = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})


def code_in(name: str, value: str | None) -> str | None:
    """The shell code a dangerous variable's literal value stands for, if any."""
    if value is None:
        return None
    if name in _COMMAND_VARS or name.startswith("GIT_CONFIG_VALUE_"):
        return value  # a git setting's value may be a command line (core.fsmonitor, ...)
    if name in _PROMPTS:
        return ": " + value  # its substitutions run when the prompt is printed
    return None


# variables that make the next program load code from a file the text does not show
LOADS_CODE = frozenset(
    {
        "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PYTHONSTARTUP",
        "NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
    }
)  # fmt: skip


# Variables the shell itself acts on, beyond DANGEROUS_ENV: setting one (`read`, `printf -v`,
# `${X:=..}`) can make the shell run code or write where the text does not say.
SHELL_SPECIAL = frozenset(
    {
        "HISTFILE", "HISTFILESIZE", "HISTSIZE", "HISTCONTROL", "HISTIGNORE", "HISTTIMEFORMAT",
        "BASH_XTRACEFD", "BASH_COMPAT", "GLOBIGNORE", "EXECIGNORE", "FUNCNEST", "TMOUT",
        "MAILPATH", "MAIL", "MAILCHECK", "PROMPT_DIRTRIM", "POSIXLY_CORRECT", "INPUTRC", "OPTIND",
        "OPTERR", "BASH_ARGV0", "TMPDIR", "COMP_WORDBREAKS", "TIMEFORMAT", "SHELL", "BASH",
    }
)  # fmt: skip

# Variables known to change no file and run no code when a program sees them in its environment
# (issue 12: an assignment a program receives is harmless only when shown to be). Any other
# upper-case name given to a program (`NAME=v cmd`, `export NAME=v`, `env NAME=v cmd`) makes
# the command opaque: LD_DEBUG_OUTPUT, NODE_V8_COVERAGE, PYTHONPYCACHEPREFIX, PIP_LOG,
# TAR_OPTIONS, CURL_HOME, JDK_JAVA_OPTIONS, GIT_ALLOW_PROTOCOL ... each writes or runs code.
HARMLESS_ENV = frozenset(
    {
        "LANG", "LANGUAGE", "TZ", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR",
        "CLICOLOR_FORCE", "COLUMNS", "LINES", "CI", "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG",
        "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONUTF8",
        "PYTHONHASHSEED", "PGPASSWORD", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PORT",
        "DO_NOT_TRACK", "GIT_TERMINAL_PROMPT", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE",
        "GIT_OPTIONAL_LOCKS", "GIT_FLUSH", "NEXT_TELEMETRY_DISABLED", "HUSKY",
        "CARGO_TERM_COLOR", "NODE_NO_WARNINGS", "TERM_PROGRAM", "DEBIAN_FRONTEND",
    }
)  # fmt: skip


def _shell_variable(name: str) -> bool:
    """A name with a lower-case letter: by convention the script's own, not read by programs
    (npm_config_* aside, a DANGEROUS_ENV prefix)."""
    return any(c.islower() for c in name)


def harmless_exported(name: str) -> bool:
    """Whether a program that receives ``name`` in its environment is known to be unaffected
    in what it writes or runs (the value does not matter)."""
    if not settable(name):
        return False
    return name in HARMLESS_ENV or name.startswith("LC_") or _shell_variable(name)


def settable(name: str) -> bool:
    """Whether the shell may set ``name`` to any value (`read`, `printf -v`, `${x:=..}`) without
    changing what it or a later program runs: not a variable the shell or programs act on (the
    rule for a plain `NAME=value`: a name a program reads is harmful only once exported)."""
    return not (
        name.startswith(DANGEROUS_ENV_PREFIXES) or name in DANGEROUS_ENV or name in SHELL_SPECIAL
    )


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a shell variable's name


def settable_name(value: str) -> bool:
    """A plain variable name (no subscript, which the shell evaluates as arithmetic) that is
    ``settable``."""
    return NAME.fullmatch(value) is not None and settable(value)


def exported_risk(name: str, value_text: str) -> bool:
    """True when a program that receives ``name=value`` may write or run what the text does
    not show: ``dangerous`` names (PATH by its value), and any name not known to be harmless."""
    if name in DANGEROUS_ENV or name.startswith(DANGEROUS_ENV_PREFIXES):
        return dangerous(name, value_text)
    return not harmless_exported(name)
