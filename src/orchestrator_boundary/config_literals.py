"""The config's text choices, as types: one place for each set of values.

``config_schema`` uses them at run time (pydantic checks a file's values against them); the
plain values (``config_values``, ``contracts_config``) name them in annotations only, under
``TYPE_CHECKING``, so that a hook process that reads the compiled config never imports
``typing`` (ADR 0042).
"""

from __future__ import annotations

from typing import Literal

BashMode = Literal["allow", "warn", "deny"]
ForkMode = Literal["subagent", "orchestrator"]  # ADR 0032
FieldCheck = Literal["auto", "scan", "off"]  # ADR 0029
IntentStatus = Literal["active", "planned", "paused", "done", "dropped"]
LeaseMode = Literal["off", "warn", "enforce"]
