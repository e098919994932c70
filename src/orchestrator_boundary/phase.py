"""The rollout phase (off / warn / ask / enforce) and where the effective one comes from.

ADR 0005."""

from __future__ import annotations

import enum
from collections.abc import Mapping

from orchestrator_boundary.wire import BYPASS_ENV, PHASE_ENV

__all__ = ["BYPASS_ENV", "DEFAULT_PHASE", "PHASE_ENV", "Phase", "bypass_requested", "env_phase"]
_TRUTHY = frozenset({"1", "true", "yes", "on"})


class Phase(enum.StrEnum):
    OFF = "off"
    WARN = "warn"
    ASK = "ask"
    ENFORCE = "enforce"


DEFAULT_PHASE = Phase.WARN


def bypass_requested(environ: Mapping[str, str]) -> bool:
    """``AMPLIFIER_BYPASS_BOUNDARY`` = true/1/yes/on, any case, read from the hook's own env."""
    return environ.get(BYPASS_ENV, "").strip().lower() in _TRUTHY


def env_phase(environ: Mapping[str, str]) -> tuple[Phase | None, str]:
    """The phase the environment asks for; (None, "") when unset, (None, problem) when invalid."""
    raw = environ.get(PHASE_ENV, "").strip()
    if not raw:
        return None, ""
    try:
        return Phase(raw.lower()), ""
    except ValueError:
        allowed = ", ".join(p.value for p in Phase)
        return None, f"{PHASE_ENV}={raw!r} is not a phase (expected one of {allowed})"
