"""Point 4: the evaluator never answers from stale config. A config edit that keeps the file's
size and mtime is seen on the very next call, and so is a change to the environment the hook
runs in. Each attack: a call that goes through, the change, and the next call that must not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from harden_support import same_stat_edit

from .support import Arena, route_params

# Two configs of the same size: the first lets the call through, the second denies it.
OFF = 'phase = "off"    \n[orchestrator]\nwrite_allow = []\n'
ENFORCE = 'phase = "enforce"\n[orchestrator]\nwrite_allow = []\n'
UNPROTECTED = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n[protect]\npaths = ["src/other.txt"]\n'
PROTECTED = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n[protect]\npaths = ["src/vault.txt"]\n'
SCOPED = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"       ]\n'
NARROW = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["docs/**"  ]\n'


# (first config, second config, caller, target, code expected after the change)
EDITS: dict[str, tuple[str, str, str, str, str]] = {
    "phase off -> enforce": (
        OFF,
        ENFORCE,
        "orchestrator",
        "{root}/src/app.py",
        "ORCHESTRATOR_WRITE",
    ),
    "a path added to [protect]": (
        UNPROTECTED,
        PROTECTED,
        "subagent",
        "{root}/src/vault.txt",
        "TAMPER",
    ),
    "a write scope narrowed": (SCOPED, NARROW, "subagent", "{root}/src/app.py", "SCOPE_VIOLATION"),
}


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_a_config_edit_keeping_size_and_mtime_is_seen_on_the_next_call(
    fresh_arena: Arena, edit: str, route: str
) -> None:
    first, second, caller, target, code = EDITS[edit]
    a = fresh_arena
    cfg = a.root / ".claude" / "boundary.toml"
    cfg.write_text(first)
    if route == "evaluator":
        a.warm()

    def call() -> tuple[str, str | None]:
        got = a.run(a.payload("Write", {"file_path": target, "content": ""}, caller=caller), route)
        return got.decision, got.code

    assert call()[0] == "none"
    same_stat_edit(cfg, second)
    assert call() == ("deny", code)


# (environment of the first call, of the second)
ENVIRONMENTS: dict[str, Callable[[Arena], tuple[dict[str, str], dict[str, str]]]] = {
    "phase variable off -> enforce": lambda a: (
        {"ORCHESTRATOR_BOUNDARY_PHASE": "off"},
        {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    ),
    "bypass variable removed": lambda a: (
        {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", "AMPLIFIER_BYPASS_BOUNDARY": "1"},
        {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    ),
    "another config named by the environment": lambda a: (
        {"ORCHESTRATOR_BOUNDARY_CONFIG": str(a.base / "open.toml")},
        {"ORCHESTRATOR_BOUNDARY_CONFIG": str(a.base / "closed.toml")},
    ),
}


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("change", list(ENVIRONMENTS), ids=list(ENVIRONMENTS))
def test_a_changed_environment_is_seen_on_the_next_call(
    fresh_arena: Arena, change: str, route: str
) -> None:
    a = fresh_arena
    (a.root / ".claude" / "boundary.toml").write_text("[orchestrator]\nwrite_allow = []\n")
    (a.base / "open.toml").write_text('phase = "enforce"\n[orchestrator]\nwrite_allow = ["**"]\n')
    (a.base / "closed.toml").write_text('phase = "enforce"\n[orchestrator]\nwrite_allow = []\n')
    if route == "evaluator":
        a.warm()
    first, second = ENVIRONMENTS[change](a)

    def call(env: dict[str, str]) -> tuple[str, str | None]:
        payload = a.payload(
            "Write", {"file_path": "{root}/src/app.py", "content": ""}, caller="orchestrator"
        )
        got = a.run(payload, route, env)
        return got.decision, got.code

    assert call(first)[0] == "none"
    assert call(second) == ("deny", "ORCHESTRATOR_WRITE")
