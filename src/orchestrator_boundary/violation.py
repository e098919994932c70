"""Violation codes and the values the policy's first stage produces."""

from __future__ import annotations

import enum

from orchestrator_boundary.session import Session
from orchestrator_boundary.tools import Classification
from orchestrator_boundary.values import transient

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:  # the Bash model is imported by the calls that analyse a command
    from orchestrator_boundary.bash.model import BashAnalysis


class Code(enum.StrEnum):
    ORCHESTRATOR_WRITE = "ORCHESTRATOR_WRITE"  # main agent, write-class tool
    BASH_WRITE = "BASH_WRITE"  # main agent, a Bash command that writes
    BASH_OPAQUE = "BASH_OPAQUE"  # main agent, effects unknowable, bash.opaque = "deny"
    BASH_UNPARSEABLE = "BASH_UNPARSEABLE"  # main agent, text does not parse
    BASH_DENIED_COMMAND = "BASH_DENIED_COMMAND"  # main agent, program in bash.deny_commands
    UNKNOWN_TOOL = "UNKNOWN_TOOL"  # main agent, tool of class unknown
    SCOPE_VIOLATION = "SCOPE_VIOLATION"  # subagent writes outside root / write_scope
    TOOL_NOT_ALLOWED = "TOOL_NOT_ALLOWED"  # subagent tool not in its profile's tools
    TAMPER = "TAMPER"  # any agent changing what guards it
    CONFIG_INVALID = "CONFIG_INVALID"  # a write while boundary.toml is broken
    DELEGATION_SCOPE = "DELEGATION_SCOPE"  # subagent writes outside its delegation (ADR 27)
    DELEGATION_INVALID = "DELEGATION_INVALID"  # an Agent call whose contract is refused
    STALE_FILE = "STALE_FILE"  # a write to a file changed since this agent saw it
    FILE_LEASED = "FILE_LEASED"  # a write to a file another running subagent holds


@transient
class Violation:
    code: Code
    rule: str  # which rule decided: "orchestrator.write_allow", "agents.coder.write_scope", ...
    reason: str  # one sentence for the model and the user
    suggestion: str  # what to do instead
    path: str | None = None  # relative to the root when inside, else absolute or as written
    command: str = ""  # for Bash: the command part that has the effect
    recoverable: bool = True


@transient
class Assessment:
    """What the policy found, before the phase decides what to do about it."""

    session: Session
    tool_name: str
    classification: Classification
    paths: tuple[str, ...] = ()
    violation: Violation | None = None
    advisory: str = ""  # shown to the model without blocking (bash.opaque = "warn", ...)
    bash: BashAnalysis | None = None
