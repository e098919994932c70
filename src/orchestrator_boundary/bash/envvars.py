"""Assignments to variables that make later programs run other code."""

from __future__ import annotations

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
