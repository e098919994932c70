"""The config tables of delegation contracts (ADR 0027), to be spliced into ``config.Config``.

    [intents."login-fix"]
    owned_scope = ["src/auth/**", "tests/auth/**"]
    description = "Fix the login bug"
    status = "active"                 # active | planned | paused | done | dropped
    agent_types = ["coder"]           # optional: who may work on it

    [delegation]
    require = false                   # true: an Agent call of a type that can write names
                                      # an intent or a scope
    leases = "off"                    # off | warn | enforce (parallel subagents, one file)
    max_stop_blocks = 1               # how often SubagentStop may be blocked for deliverables

    [agents.coder]
    requires = ["write", { deliverable = "TaskCreate", min = 2 }]

Strict like the rest of the config: unknown keys and wrong types are errors.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from orchestrator_boundary import scope

INTENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# A deliverable: "write" (a file the agent changed) or a tool name the agent used successfully.
WRITE_DELIVERABLE = "write"
DELIVERABLE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,127}")
IntentStatus = Literal["active", "planned", "paused", "done", "dropped"]
LeaseMode = Literal["off", "warn", "enforce"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _owned(patterns: list[str]) -> list[str]:
    try:
        scope.validate(patterns)
    except scope.PatternError as exc:
        raise ValueError(str(exc)) from None
    if not any(not p.startswith("!") for p in patterns):
        raise ValueError("owned_scope needs at least one pattern that is not an exclusion")
    return patterns


class Intent(_Strict):
    owned_scope: Annotated[list[str], AfterValidator(_owned)]
    description: str = ""
    status: IntentStatus = "active"
    agent_types: list[str] | None = None  # None: any agent type

    @property
    def active(self) -> bool:
        return self.status == "active"


def _intent_id(key: str) -> str:
    if not INTENT_ID.fullmatch(key):
        raise ValueError(
            f"intent id {key!r}: letters, digits, '.', '_', '-', starting with a letter or "
            "digit, at most 64 characters"
        )
    return key


IntentId = Annotated[str, AfterValidator(_intent_id)]


class DelegationConfig(_Strict):
    require: bool = False
    leases: LeaseMode = "off"
    max_stop_blocks: int = Field(default=1, ge=0, le=7)  # the CLI's own cap is 8 in a row


class Deliverable(_Strict):
    deliverable: str
    min: int = Field(default=1, ge=1, le=1000)


def _deliverable(item: object) -> object:
    """``"write"`` is shorthand for ``{deliverable = "write", min = 1}``."""
    return {"deliverable": item} if isinstance(item, str) else item


def _deliverable_name(d: Deliverable) -> Deliverable:
    if not DELIVERABLE.fullmatch(d.deliverable):
        raise ValueError(f"deliverable {d.deliverable!r}: 'write' or a tool name")
    return d


Requirement = Annotated[
    Deliverable, BeforeValidator(_deliverable), AfterValidator(_deliverable_name)
]


class ContractsConfig(_Strict):
    """The new top-level tables, as ``Config`` will hold them."""

    intents: dict[IntentId, Intent] = Field(default_factory=dict)
    delegation: DelegationConfig = Field(default_factory=DelegationConfig)


class AgentRequires(_Strict):
    """The new key of ``[agents.TYPE]`` (``AgentProfile.requires``)."""

    requires: list[Requirement] = Field(default_factory=list)
