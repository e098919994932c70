"""What a long-lived process (the evaluator, replay) reuses between calls, and for how long."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from orchestrator_boundary import hook


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """hook's view of time.monotonic, moved by hand; the other clocks stay real."""
    fake = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(
        hook,
        "time",
        SimpleNamespace(monotonic=lambda: fake.now, perf_counter=time.perf_counter, time=time.time),
    )
    monkeypatch.setattr(hook, "_SETUP_CACHE", {})
    monkeypatch.setattr(hook, "_FS_FACTS", {})
    return fake


def _protects(s: hook.Setup, folder: Path) -> bool:
    return any(e.path.startswith(str(folder)) for e in s.facts.protected)


def test_no_setup_outlives_the_file_system_facts_it_shares(
    clock: SimpleNamespace, tmp_path: Path
) -> None:
    """A Setup made late in the life of a shared protected set expires with that set: a
    symlink made afterwards is seen within FS_TTL of when the set was resolved, not later."""
    root, elsewhere = tmp_path / "proj", tmp_path / "dotfiles"
    (root / ".claude").mkdir(parents=True)
    elsewhere.mkdir()
    first = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}
    second = {**first, "SOMETHING_ELSE": "1"}  # another environment, the same project

    hook.setup(str(root), first)  # resolves the protected set at t = 0
    clock.now += 0.9 * hook.FS_TTL
    assert not _protects(hook.setup(str(root), second), elsewhere)  # shares it, 0.1 s left

    (root / ".claude").rmdir()
    (root / ".claude").symlink_to(elsewhere)  # settings now live in the dotfiles folder
    clock.now += 0.2 * hook.FS_TTL  # 1.1 x FS_TTL after the set was resolved
    assert _protects(hook.setup(str(root), second), elsewhere)
    assert _protects(hook.setup(str(root), first), elsewhere)


def test_config_changes_are_seen_on_the_next_call_whatever_the_ttl(
    clock: SimpleNamespace, tmp_path: Path
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}
    assert hook.setup(str(root), env).phase_source == "default"
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    s = hook.setup(str(root), env)  # same instant: only the config's stat key changed
    assert (s.phase, s.phase_source) == (hook.Phase.ENFORCE, "config")
