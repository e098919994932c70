"""The config tables of delegation contracts (ADR 0027), as ``config.Config`` holds them.

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

Plain frozen values: a hook reads them without importing the validation library. They are
validated as strictly as the rest of the config (unknown keys and wrong types are errors) by
``config_schema`` when the file is loaded (ADR 0030).
"""

from __future__ import annotations

import re

from orchestrator_boundary.values import frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from orchestrator_boundary.config_literals import IntentStatus, LeaseMode

INTENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# A deliverable: "write" (a file the agent changed) or a tool name the agent used successfully.
WRITE_DELIVERABLE = "write"
DELIVERABLE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,127}")


@frozen(kw_only=True)
class Intent:
    owned_scope: list[str]
    description: str = ""
    status: IntentStatus = "active"
    agent_types: list[str] | None = None  # None: any agent type

    @property
    def active(self) -> bool:
        return self.status == "active"


@frozen(kw_only=True)
class DelegationConfig:
    require: bool = False
    leases: LeaseMode = "off"
    max_stop_blocks: int = 1  # 0..7: the CLI's own cap is 8 in a row


@frozen(kw_only=True)
class Deliverable:
    deliverable: str
    min: int = 1  # 1..1000
