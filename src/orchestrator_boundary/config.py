"""``.claude/boundary.toml``: the project's configuration, validated strictly. ADR 0004.

Unknown keys and wrong types are errors: a typo must never silently weaken a rule. A config
that cannot be loaded is returned as a ``ConfigProblem`` (file, key, problem); the policy then
blocks writes as in ``enforce`` until it is fixed.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from orchestrator_boundary import scope
from orchestrator_boundary.contracts_config import (
    DelegationConfig,
    Intent,
    IntentId,
    Requirement,
)
from orchestrator_boundary.phase import DEFAULT_PHASE, Phase
from orchestrator_boundary.tools import ToolClass, tool_list_notes, unknown_tool_names
from orchestrator_boundary.wire import CONFIG_ENV

__all__ = ["CONFIG_ENV", "Config", "ConfigProblem", "config_path", "load_config", "parse_config"]

DEFAULT_CONFIG_PATH = ".claude/boundary.toml"
DEFAULT_AUDIT_PATH = ".claude/boundary/audit.jsonl"


def _valid_patterns(patterns: list[str]) -> list[str]:
    try:
        scope.validate(patterns)
    except scope.PatternError as exc:
        raise ValueError(str(exc)) from None
    return patterns


Patterns = Annotated[list[str], AfterValidator(_valid_patterns)]
BashMode = Literal["allow", "warn", "deny"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class OrchestratorConfig(_Strict):
    write_allow: Patterns = Field(default_factory=list)
    allow_tools: list[str] = Field(default_factory=list)  # tool names/patterns, e.g. unknown MCP


class SubagentsConfig(_Strict):
    write_outside_root: Patterns = Field(default_factory=list)  # absolute patterns


class AgentProfile(_Strict):
    tools: list[str] | None = None  # tool names or class names; None = every tool
    write_scope: Patterns | None = None  # None = anywhere inside the root
    requires: list[Requirement] = Field(default_factory=list)  # deliverables (ADR 27)


class BashConfig(_Strict):
    opaque: BashMode = "allow"
    unparseable: BashMode = "deny"
    allow_write: Patterns = Field(default_factory=list)
    read_only_commands: list[str] = Field(default_factory=list)
    deny_commands: list[str] = Field(default_factory=list)
    field_check: Literal["auto", "scan", "off"] = "auto"  # in warn: ADR 0029


class AuditConfig(_Strict):
    path: str = DEFAULT_AUDIT_PATH
    max_bytes: int = Field(default=64 * 1024 * 1024, ge=0)  # 0 = never rotate
    keep: int = Field(default=20, ge=1)


class ProtectConfig(_Strict):
    paths: Patterns = Field(default_factory=list)  # more files no agent may change
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


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    file: str
    key: str
    problem: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.key}" if self.key else self.file
        return f"{where}: {self.problem}"


def config_path(root: str, environ: Mapping[str, str]) -> str:
    explicit = environ.get(CONFIG_ENV, "")
    if explicit:
        return explicit if os.path.isabs(explicit) else os.path.join(root, explicit)
    return os.path.join(root, DEFAULT_CONFIG_PATH)


def _expand_home(data: object, home: str | None) -> object:
    """``~/`` at the start of a pattern means the user's home (an absolute pattern)."""
    if isinstance(data, dict):
        return {k: _expand_home(v, home) for k, v in data.items()}
    if isinstance(data, list):
        return [_expand_home(v, home) for v in data]
    if isinstance(data, str) and data.startswith(("~/", "!~/")) and home:
        bang = "!" if data.startswith("!") else ""
        return bang + home.rstrip("/") + data[len(bang) + 1 :]
    return data


def parse_config(text: str, file: str, home: str | None = None) -> Config | ConfigProblem:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return ConfigProblem(file, "", f"not valid TOML ({exc})")
    try:
        return Config.model_validate(_expand_home(data, home))
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        return ConfigProblem(file, key, first["msg"])


def load_config(path: str, home: str | None = None) -> Config | ConfigProblem:
    """The config at ``path``; the defaults when there is no file; a problem when it is broken."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        return ConfigProblem(path, "", f"cannot be read ({exc.strerror or exc})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ConfigProblem(path, "", "not UTF-8 text")
    return parse_config(text, path, home)


def config_notes(config: Config) -> list[str]:
    """Warnings, not errors, about the config's tool names: a name no Claude Code tool has (a
    typo allows nothing, or leaves a tool unclassified), a retired name and what it covers.
    For ``doctor``, ``check`` and ``phase enforce`` to print, one line each."""
    notes = tool_list_notes("orchestrator.allow_tools", config.orchestrator.allow_tools)
    for name, profile in config.agents.items():
        if profile.tools is not None:
            notes += tool_list_notes(f"agents.{name}.tools", profile.tools)
    for name, guess in unknown_tool_names(config.tools):
        hint = f"; did you mean {guess!r}?" if guess else "."
        notes.append(f"tools: no Claude Code tool is named {name!r}{hint}")
    return notes
