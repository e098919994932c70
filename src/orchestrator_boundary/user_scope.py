"""Which projects a user-scope install guards, and so which ``onFailure`` its one set of entries
needs (ADR 0052).

A user-scope install registers one set of entries in the user's settings; they guard every
project the user opens, each in its own phase. ``onFailure: "block"`` (ADR 0024) cannot differ
per project, so it follows the strictest phase among the projects this user guards that way:
on while any of them is in enforce or ask. Until now the last ``phase`` run decided, so moving
project B to warn silently left project A, still in enforce, failing open when its hook could
not run.

The projects are the ones ``install --scope user`` and ``phase`` were run for, listed one root a
line in ``<claude dir>/orchestrator-boundary/user-projects``; a listed folder without a config
counts as the default phase, and one that no longer exists is dropped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from orchestrator_boundary import hook_main, registration, wire
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.config import ConfigProblem, config_path, load_config
from orchestrator_boundary.phase import DEFAULT_PHASE, PHASE_ENV, Phase
from orchestrator_boundary.settings_edit import SettingsError

LIST_RELPATH = "orchestrator-boundary/user-projects"
_STRICTNESS = {"off": 0, "warn": 1, "ask": 2, "enforce": 3}


def list_path(environ: Mapping[str, str]) -> str:
    return os.path.join(hook_main.claude_dir(dict(environ)), *LIST_RELPATH.split("/"))


def known(environ: Mapping[str, str]) -> list[str]:
    """The listed project roots that still exist, in the order they were added."""
    try:
        text = sf.read_text(list_path(environ)) or ""
    except SettingsError:
        return []
    roots = [line for line in text.splitlines() if line.strip()]
    return [r for r in dict.fromkeys(roots) if os.path.isdir(r)]


def with_root(root: str, environ: Mapping[str, str]) -> str | None:
    """The list's new text with ``root`` added (and vanished folders dropped); None when it
    is listed already."""
    roots = known(environ)
    root = os.path.abspath(root)
    try:
        listed = (sf.read_text(list_path(environ)) or "").splitlines()
    except SettingsError:
        listed = []
    if root in roots and listed == roots:
        return None
    return "".join(f"{r}\n" for r in [*[r for r in roots if r != root], root])


def remember(root: str, environ: Mapping[str, str]) -> None:
    text = with_root(root, environ)
    if text is not None:
        sf.write_atomic(list_path(environ), text, backup=False)


def project_phase(root: str, environ: Mapping[str, str]) -> str:
    """The phase the project's config sets, as ``phase`` writes it (the environment's override
    is not persisted); a broken config counts as enforce, as the hooks treat it."""
    env = {k: v for k, v in environ.items() if k not in (PHASE_ENV, "ORCHESTRATOR_BOUNDARY_CONFIG")}
    loaded = load_config(config_path(root, env), wire.user_home(env))
    if isinstance(loaded, ConfigProblem):
        return Phase.ENFORCE.value
    return loaded.phase.value if "phase" in loaded.model_fields_set else DEFAULT_PHASE.value


def strictest(phases: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """(root, phase) of the strictest phase among (root, phase) pairs; None for none."""
    ranked = sorted(phases, key=lambda rp: _STRICTNESS.get(rp[1], 3), reverse=True)
    return ranked[0] if ranked else None


def entries_phase(root: str, phase: str, environ: Mapping[str, str]) -> tuple[str, str | None]:
    """The phase the user-scope entries are written for when ``root`` is set to ``phase``:
    ``phase`` itself, or a blocking phase of another listed project, and that project."""
    others = [(r, project_phase(r, environ)) for r in known(environ) if r != os.path.abspath(root)]
    top = strictest(others)
    if registration.on_failure(phase) or top is None or not registration.on_failure(top[1]):
        return phase, None
    return top[1], top[0]
