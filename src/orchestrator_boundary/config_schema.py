"""The strict schema of ``.claude/boundary.toml``: validation only. ADR 0004, ADR 0030.

Unknown keys and wrong types are errors: a typo must never silently weaken a rule. ``validate``
checks the TOML data against these pydantic models and returns the plain frozen values of
``config`` (and ``contracts_config``) that everything else reads. Imported only when a config
file is validated (``config.parse_config``); a hook that finds the compiled form of an unchanged
file (``config.load_compiled``) never imports this module or pydantic.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
)

from orchestrator_boundary import config_values, contracts_config, scope
from orchestrator_boundary.config_literals import (
    BashMode,
    FieldCheck,
    ForkMode,
    IntentStatus,
    LeaseMode,
)
from orchestrator_boundary.contracts_config import DELIVERABLE, INTENT_ID
from orchestrator_boundary.phase import DEFAULT_PHASE, Phase
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.values import field_names


def _valid_patterns(patterns: list[str]) -> list[str]:
    try:
        scope.validate(patterns)
    except scope.PatternError as exc:
        raise ValueError(str(exc)) from None
    return patterns


Patterns = Annotated[list[str], AfterValidator(_valid_patterns)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---- delegation contracts (ADR 0027) ----


def _owned(patterns: list[str]) -> list[str]:
    _valid_patterns(patterns)
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


def _deliverable_name(d: Deliverable) -> contracts_config.Deliverable:
    if not DELIVERABLE.fullmatch(d.deliverable):
        raise ValueError(f"deliverable {d.deliverable!r}: 'write' or a tool name")
    return contracts_config.Deliverable(deliverable=d.deliverable, min=d.min)


Requirement = Annotated[
    Deliverable, BeforeValidator(_deliverable), AfterValidator(_deliverable_name)
]


class ContractsConfig(_Strict):
    """The contract tables at the top level of the config_values."""

    intents: dict[IntentId, Intent] = Field(default_factory=dict)
    delegation: DelegationConfig = Field(default_factory=DelegationConfig)


class AgentRequires(_Strict):
    """The contract key of ``[agents.TYPE]`` (``AgentProfile.requires``)."""

    requires: list[Requirement] = Field(default_factory=list)


# ---- the config ----


class OrchestratorConfig(_Strict):
    write_allow: Patterns = Field(default_factory=list)
    allow_tools: list[str] = Field(default_factory=list)  # tool names/patterns, e.g. unknown MCP


class SubagentsConfig(_Strict):
    write_outside_root: Patterns = Field(default_factory=list)  # absolute patterns
    fork: ForkMode = "subagent"  # ADR 0032


class AgentProfile(_Strict):
    tools: list[str] | None = None  # tool names or class names; None = every tool
    write_scope: Patterns | None = None  # None = anywhere inside the root
    requires: list[Requirement] = Field(default_factory=list)  # deliverables (ADR 27)


class BashConfig(_Strict):
    opaque: BashMode = "allow"
    unparseable: BashMode = "deny"
    field_check: FieldCheck = "auto"  # in warn: ADR 0029
    allow_write: Patterns = Field(default_factory=list)
    read_only_commands: list[str] = Field(default_factory=list)
    deny_commands: list[str] = Field(default_factory=list)


class AuditConfig(_Strict):
    path: str = config_values.DEFAULT_AUDIT_PATH
    max_bytes: int = Field(default=64 * 1024 * 1024, ge=0)  # 0 = never rotate
    keep: int = Field(default=20, ge=1)


def _widened(patterns: list[str]) -> list[str]:
    return _valid_patterns(scope.widened(patterns))


class ProtectConfig(_Strict):
    # more files no agent may change, read as widely as meant (``scope.widened``, ADR 0071)
    paths: Annotated[list[str], AfterValidator(_valid_patterns), AfterValidator(_widened)] = Field(
        default_factory=list
    )
    bypass_opens: bool = False  # let AMPLIFIER_BYPASS_BOUNDARY open protected files too


class ReportConfig(_Strict):
    min_days: int = Field(default=14, ge=0)
    min_tool_uses: int = Field(default=50, ge=0)
    max_hook_error_rate: float = Field(default=0.01, ge=0, le=1)
    max_bypass_session_share: float = Field(default=0.10, ge=0, le=1)
    stop_summary: bool = False  # a one-screen session summary when the main agent stops


LaxEnum = Field(strict=False)  # enums come from TOML as strings; still only their values pass


class Config(_Strict):
    phase: Annotated[Phase, LaxEnum] = DEFAULT_PHASE
    orchestrator: OrchestratorConfig = Field(default_factory=OrchestratorConfig)
    subagents: SubagentsConfig = Field(default_factory=SubagentsConfig)
    agents: dict[str, AgentProfile] = Field(default_factory=dict)
    tools: dict[str, Annotated[ToolClass, LaxEnum]] = Field(default_factory=dict)
    bash: BashConfig = Field(default_factory=BashConfig)
    audit: AuditConfig = Field(default_factory=AuditConfig)
    protect: ProtectConfig = Field(default_factory=ProtectConfig)
    report: ReportConfig = Field(default_factory=ReportConfig)
    intents: dict[IntentId, Intent] = Field(default_factory=dict)  # ADR 27
    delegation: DelegationConfig = Field(default_factory=DelegationConfig)


# Each schema model -> the plain value it becomes.
PLAIN: dict[type[BaseModel], type[Any]] = {
    Config: config_values.Config,
    OrchestratorConfig: config_values.OrchestratorConfig,
    SubagentsConfig: config_values.SubagentsConfig,
    AgentProfile: config_values.AgentProfile,
    BashConfig: config_values.BashConfig,
    AuditConfig: config_values.AuditConfig,
    ProtectConfig: config_values.ProtectConfig,
    ReportConfig: config_values.ReportConfig,
    Intent: contracts_config.Intent,
    DelegationConfig: contracts_config.DelegationConfig,
}


def plain(value: Any) -> Any:
    """``value`` with every schema model replaced by its plain form (``PLAIN``); the fields a
    table set explicitly go to ``set_fields`` where the plain form keeps them."""
    if isinstance(value, BaseModel):
        cls = PLAIN[type(value)]
        kwargs = {name: plain(getattr(value, name)) for name in type(value).model_fields}
        if "set_fields" in field_names(cls):
            kwargs["set_fields"] = frozenset(value.model_fields_set)
        return cls(**kwargs)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def validate(data: object) -> config_values.Config:
    """The plain config of TOML ``data``; ``pydantic.ValidationError`` when it is not valid."""
    made = plain(Config.model_validate(data))
    assert isinstance(made, config_values.Config)
    return made
