"""The delegation-contract tables of a config, compiled once (``ruleset``). ADR 0027.

Apart from the rules (``contracts``) so that the tables every call holds do not bring the
delegation records, the directive parser and the rules' values into a call that never
consults them (an orchestrator's Read, issue 15 point 7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from orchestrator_boundary.contracts_config import DelegationConfig, Deliverable, Intent
from orchestrator_boundary.values import frozen, transient

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Final, Protocol
else:
    Protocol = object  # structural to mypy; a plain base class at run time

MAIN: Final = "main"  # the main agent's key in the state where an agent id is expected


@transient
class Profile:
    """What the contract rules read of ``[agents.TYPE]``."""

    tools: tuple[str, ...] | None = None
    write_scope: tuple[str, ...] | None = None
    requires: tuple[Deliverable, ...] = ()


@frozen(eq=False)
class Contracts:
    """The contract tables of the config, compiled (``ruleset`` will hold one)."""

    intents: Mapping[str, Intent]
    profiles: Mapping[str, Profile]  # agent type (or "*") -> profile
    outside: tuple[str, ...] = ()  # subagents.write_outside_root, added to every set
    require: bool = False
    leases: str = "off"
    max_stop_blocks: int = 1


class _AgentProfile(Protocol):
    """``config.AgentProfile`` as far as contracts read it."""

    @property
    def tools(self) -> list[str] | None: ...

    @property
    def write_scope(self) -> list[str] | None: ...


def compile_contracts(
    intents: Mapping[str, Intent],
    agents: Mapping[str, _AgentProfile],
    outside: Sequence[str],
    delegation: DelegationConfig,
    requires: Mapping[str, Sequence[Deliverable]] | None = None,
) -> Contracts:
    """The contract tables of a loaded config, compiled once (``ruleset``)."""
    requires = requires or {}
    profiles = {
        name: Profile(
            None if p.tools is None else tuple(p.tools),
            None if p.write_scope is None else tuple(p.write_scope),
            tuple(requires.get(name, ())),
        )
        for name, p in agents.items()
    }
    return Contracts(
        dict(intents),
        profiles,
        tuple(outside),
        delegation.require,
        delegation.leases,
        delegation.max_stop_blocks,
    )


def profile_of(contracts: Contracts, agent_type: str) -> tuple[str, Profile] | None:
    """The agent type's contract profile, picked as the write rules pick theirs: the same
    spellings and wildcard names (``profiles.profile_name``, ADR 0074)."""
    from orchestrator_boundary.agent_names import profile_name

    name = profile_name(contracts.profiles, agent_type)
    return None if name is None else (name, contracts.profiles[name])
