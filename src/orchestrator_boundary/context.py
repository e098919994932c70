"""What the shell tells the policy about the environment of a call (the core reads nothing
else): the resolved project root, the file-system interface, the home folder, a config problem,
the protected set, the agent types that are defined, and per call the delegation ledger."""

from __future__ import annotations

from orchestrator_boundary.config import ConfigProblem
from orchestrator_boundary.paths import FileSystem
from orchestrator_boundary.protect import EMPTY, Deferred, ProtectedSet
from orchestrator_boundary.values import frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from orchestrator_boundary.delegation import Ledger


@frozen
class Context:
    root: str  # the project root, resolved
    fs: FileSystem
    home: str | None = None
    config_problem: ConfigProblem | None = None
    protected_source: ProtectedSet | Deferred = EMPTY  # the set, or made on first use
    # the agent types defined in .claude/agents/*.md (project, user): what a hint may name
    agent_types: frozenset[str] = frozenset()
    ledger: Ledger | None = None  # the state the contract rules read (per call; ADR 27)
    # $CLAUDE_CONFIG_DIR when set: the user's Claude folder in place of ~/.claude
    claude_config_dir: str | None = None

    @property
    def protected(self) -> ProtectedSet:
        """What no agent may change (ADR 0010)."""
        source = self.protected_source
        return source.get() if isinstance(source, Deferred) else source
