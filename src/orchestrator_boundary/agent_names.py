"""Which configured profile name an agent type falls under (ADR 0053, 0071, 0074): shared by
the write rules' profiles (``profiles``) and the delegation contracts' (``contract_tables``),
so both pick the same one. Imports nothing of the package."""

from __future__ import annotations

from collections.abc import Collection


def agent_key(name: str) -> str:
    """``name`` as Claude Code 2.1.330 compares agent types: NFKC, lower case, without
    whitespace, dashes (any dash punctuation) and underscores."""
    import unicodedata  # only for a profile named otherwise than the agent type

    folded = unicodedata.normalize("NFKC", name).lower()
    return "".join(
        c for c in folded if not (c.isspace() or c == "_" or unicodedata.category(c) == "Pd")
    )


def profile_name(names: Collection[str], agent_type: str | None) -> str | None:
    """The name of the profile for ``agent_type`` among ``names`` (in the config's order): the
    exact name, else the first that Claude Code would take for the same type, else ``*``.
    The delegation contracts' profiles are picked by it too (ADR 0074)."""
    if agent_type and agent_type in names:
        return agent_type
    if agent_type and agent_key(agent_type):
        key = agent_key(agent_type)
        for name in names:
            if name != "*" and agent_key(name) == key:
                return name
        # a name with a wildcard (``[agents."*-reviewer"]``) is a pattern: no agent type has
        # one, so read literally it judged none, and the agent got no profile (ADR 0071)
        for name in names:
            if name != "*" and _matches(name, agent_type, key):
                return name
    return "*" if "*" in names else None


def _matches(name: str, agent_type: str, key: str) -> bool:
    if not any(c in name for c in "*?["):
        return False
    import fnmatch  # only for a profile named by a pattern

    return fnmatch.fnmatchcase(agent_type, name) or fnmatch.fnmatchcase(key, agent_key(name))
