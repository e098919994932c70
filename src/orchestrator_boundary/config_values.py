"""The values of ``.claude/boundary.toml`` as everything reads them: plain frozen values.

A hook reads them without importing the validation library or a TOML parser (ADR 0030):
``config_schema`` validates a file into them (strictly: unknown keys and wrong types are errors,
ADR 0004), and ``config`` loads, caches and compiles them.
"""

from __future__ import annotations

from orchestrator_boundary.contracts_config import DelegationConfig, Deliverable, Intent
from orchestrator_boundary.phase import DEFAULT_PHASE, Phase
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.values import field, frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from orchestrator_boundary.config_literals import BashMode, FieldCheck, ForkMode

DEFAULT_AUDIT_PATH = ".claude/boundary/audit.jsonl"

_NOTHING_SET: frozenset[str] = frozenset()


@frozen(kw_only=True)
class OrchestratorConfig:
    write_allow: list[str] = field(default_factory=list)
    allow_tools: list[str] = field(default_factory=list)  # tool names/patterns, e.g. unknown MCP


@frozen(kw_only=True)
class SubagentsConfig:
    write_outside_root: list[str] = field(default_factory=list)  # absolute patterns
    # a fork of the main agent (agent_type "fork"): judged as a subagent, or by the main
    # agent's rules (ADR 0032)
    fork: ForkMode = "subagent"


@frozen(kw_only=True)
class AgentProfile:
    tools: list[str] | None = None  # tool names or class names; None = every tool
    write_scope: list[str] | None = None  # None = anywhere inside the root
    requires: list[Deliverable] = field(default_factory=list)  # deliverables (ADR 27)


@frozen(kw_only=True)
class BashConfig:
    opaque: BashMode = "allow"
    unparseable: BashMode = "deny"
    field_check: FieldCheck = "auto"  # in warn: ADR 0029
    allow_write: list[str] = field(default_factory=list)
    read_only_commands: list[str] = field(default_factory=list)
    deny_commands: list[str] = field(default_factory=list)


@frozen(kw_only=True)
class AuditConfig:
    path: str = DEFAULT_AUDIT_PATH
    max_bytes: int = 64 * 1024 * 1024  # 0 = never rotate
    keep: int = 20
    set_fields: frozenset[str] = field(default=_NOTHING_SET, compare=False, repr=False)

    @property
    def model_fields_set(self) -> frozenset[str]:
        """The keys the table set explicitly (as the schema model named them)."""
        return self.set_fields


@frozen(kw_only=True)
class ProtectConfig:
    paths: list[str] = field(default_factory=list)  # more files no agent may change
    bypass_opens: bool = False  # let AMPLIFIER_BYPASS_BOUNDARY open protected files too


@frozen(kw_only=True)
class ReportConfig:
    min_days: int = 14
    min_tool_uses: int = 50
    max_hook_error_rate: float = 0.01
    max_bypass_session_share: float = 0.10
    stop_summary: bool = False  # a one-screen session summary when the main agent stops


@frozen(kw_only=True)
class Config:
    phase: Phase = DEFAULT_PHASE
    orchestrator: OrchestratorConfig = field(default_factory=OrchestratorConfig)
    subagents: SubagentsConfig = field(default_factory=SubagentsConfig)
    agents: dict[str, AgentProfile] = field(default_factory=dict)
    tools: dict[str, ToolClass] = field(default_factory=dict)
    bash: BashConfig = field(default_factory=BashConfig)
    audit: AuditConfig = field(default_factory=AuditConfig)
    protect: ProtectConfig = field(default_factory=ProtectConfig)
    report: ReportConfig = field(default_factory=ReportConfig)
    intents: dict[str, Intent] = field(default_factory=dict)  # ADR 27
    delegation: DelegationConfig = field(default_factory=DelegationConfig)
    set_fields: frozenset[str] = field(default=_NOTHING_SET, compare=False, repr=False)

    @property
    def model_fields_set(self) -> frozenset[str]:
        """The top-level keys the file set explicitly (as the schema model named them)."""
        return self.set_fields
