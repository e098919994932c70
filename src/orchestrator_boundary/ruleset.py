"""A config compiled once, at load, into the form each decision reads it. ADR 0020.

A loaded ``Config`` never changes, so everything the policy and the deny hint derive from it
(tuples of patterns, sets of names, the write scopes of the agent types that may write) is
built here, once, instead of per call or in caches keyed by the config's identity.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator_boundary.config import Config
from orchestrator_boundary.contract_tables import Contracts, compile_contracts
from orchestrator_boundary.tools import expand_profile_names
from orchestrator_boundary.values import frozen

_WRITERS = frozenset({"Write", "Edit", "write"})

# An agent type that may write, with its write scope (None: anywhere). The patterns are
# translated when a deny hint first matches them (``scope``), not at load: a Read never does.
Writer = tuple[str, tuple[str, ...] | None]


@frozen(eq=False)
class RuleSet:
    config: Config
    allow: tuple[str, ...]  # orchestrator.write_allow
    allow_bash: tuple[str, ...]  # + bash.allow_write
    outside: tuple[str, ...]  # subagents.write_outside_root
    scopes: Mapping[str, tuple[str, ...]]  # agent type -> write_scope + write_outside_root
    tools: Mapping[str, frozenset[str]]  # agent type -> its tools entries, retired names' heirs
    read_only: frozenset[str]  # bash.read_only_commands
    writers: tuple[Writer, ...]  # the deny hint's candidates, in config order
    contracts: Contracts  # intents, delegation settings, profiles' requires (ADR 27)
    allow_tools: tuple[str, ...] = ()  # orchestrator.allow_tools, retired names' heirs added
    fork_as_main: bool = False  # subagents.fork = "orchestrator" (ADR 0032)


def writers(config: Config) -> tuple[Writer, ...]:
    """The agent types a deny hint may name: those whose tools include a writing one."""
    return tuple(
        (name, None if p.write_scope is None else tuple(p.write_scope))
        for name, p in config.agents.items()
        if name != "*"
        and (p.tools is None or not _WRITERS.isdisjoint(expand_profile_names(p.tools)))
    )


def compile_config(config: Config) -> RuleSet:
    allow = tuple(config.orchestrator.write_allow)
    outside = tuple(config.subagents.write_outside_root)
    agents = config.agents.items()
    return RuleSet(
        config,
        allow,
        allow + tuple(config.bash.allow_write),
        outside,
        {n: (*p.write_scope, *outside) for n, p in agents if p.write_scope is not None},
        {n: expand_profile_names(p.tools) for n, p in agents if p.tools is not None},
        frozenset(config.bash.read_only_commands),
        writers(config),
        compile_contracts(
            config.intents,
            config.agents,
            outside,
            config.delegation,
            {n: p.requires for n, p in agents},
        ),
        tuple(sorted(expand_profile_names(config.orchestrator.allow_tools))),
        config.subagents.fork == "orchestrator",
    )
