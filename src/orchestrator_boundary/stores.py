"""One open state store per (kind, state file) in this process (ADR 0027): the resident
evaluator judges one call at a time (its lock), so a kept connection saves a connect per call;
a one-shot hook process opens it once anyway. A Store reconnects when its file was removed or
replaced."""

from __future__ import annotations

from typing import TypeVar

from orchestrator_boundary.state import Store, state_path

S = TypeVar("S", bound=Store)
_KEPT: dict[tuple[type[Store], str], Store] = {}
MAX_KEPT = 8


def kept(kind: type[S], audit_file: str) -> S:
    """The open ``kind`` store of ``audit_file``'s state file, opened on first use."""
    key = (kind, state_path(audit_file))
    store = _KEPT.get(key)
    if store is None:
        if len(_KEPT) >= MAX_KEPT:
            for old in _KEPT.values():
                old.close()
            _KEPT.clear()
        store = _KEPT[key] = kind(key[1])
    assert isinstance(store, kind)
    return store
