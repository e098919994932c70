"""The per-program knowledge, gathered from the modules that hold it."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash import (
    archives,
    awk,
    boundary_cli,
    builtins,
    claude_cli,
    compilers,
    declared,
    devtools,
    downloads,
    fileutils,
    find,
    git,
    git_repo,
    installers,
    interpreters,
    interpreters_more,
    locks,
    netinfo,
    outputs,
    sed,
    tracers,
    transfer,
    yq,
)
from orchestrator_boundary.bash.outcome import Env, Outcome
from orchestrator_boundary.bash.words import Word

Handler = Callable[[str, list[Word], Env], Outcome]

HANDLERS: dict[str, Handler] = {
    **builtins.HANDLERS,
    **declared.HANDLERS,
    **devtools.HANDLERS,
    **compilers.HANDLERS,
    **fileutils.HANDLERS,
    **archives.HANDLERS,
    **downloads.HANDLERS,
    **transfer.HANDLERS,
    **outputs.HANDLERS,
    "git": git_repo.in_repository(git.git),
    **installers.HANDLERS,
    **interpreters.HANDLERS,
    **interpreters_more.HANDLERS,
    **find.HANDLERS,
    **locks.HANDLERS,
    **netinfo.HANDLERS,
    **tracers.HANDLERS,
    "sed": sed.sed,
    "yq": yq.yq,
    "awk": awk.awk,
    boundary_cli.PROGRAM: boundary_cli.boundary,
    claude_cli.PROGRAM: claude_cli.claude,
}
