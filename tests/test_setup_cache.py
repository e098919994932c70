"""What a long-lived process (the evaluator, replay) reuses between calls, and for how long."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from orchestrator_boundary import setups
from orchestrator_boundary.context import Context
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.protect import Deferred, Protected, ProtectedSet, index


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The Setup cache's clock, moved by hand; the other clocks stay real."""
    fake = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(setups, "CACHE", setups.SetupCache(clock=lambda: fake.now))
    return fake


def _protects(s: setups.Setup, folder: Path) -> bool:
    return any(e.path.startswith(str(folder)) for e in s.context.protected.entries)


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

    # the protected set is made when a call first asks for it: here, at t = 0
    assert not _protects(setups.setup(str(root), first), elsewhere)
    clock.now += 0.9 * setups.FS_TTL
    assert not _protects(setups.setup(str(root), second), elsewhere)  # shares it, 0.1 s left

    (root / ".claude").rmdir()
    (root / ".claude").symlink_to(elsewhere)  # settings now live in the dotfiles folder
    clock.now += 0.2 * setups.FS_TTL  # 1.1 x FS_TTL after the set was resolved
    assert _protects(setups.setup(str(root), second), elsewhere)
    assert _protects(setups.setup(str(root), first), elsewhere)


def test_a_setup_never_uses_a_protected_set_past_its_expiry(tmp_path: Path) -> None:
    """The set is made on first use (a Read never asks for it), and made again once it
    expired, however long the Setup that asks for it lives."""
    now, made = [0.0], []

    def make() -> tuple[ProtectedSet, float]:
        made.append(now[0])
        return index((Protected(f"/p{len(made)}", False, "x"),), False), now[0] + setups.FS_TTL

    deferred = Deferred(make, lambda: now[0])
    context = Context(str(tmp_path), RealFileSystem(), protected_source=deferred)
    assert made == []  # nothing made until asked
    now[0] = 0.5
    assert context.protected.entries[0].path == "/p1" and made == [0.5]
    now[0] = 0.5 + 0.9 * setups.FS_TTL
    assert context.protected.entries[0].path == "/p1" and made == [0.5]  # still fresh
    now[0] = 0.5 + setups.FS_TTL
    assert context.protected.entries[0].path == "/p2" and len(made) == 2  # made again


def test_config_changes_are_seen_on_the_next_call_whatever_the_ttl(
    clock: SimpleNamespace, tmp_path: Path
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}
    assert setups.setup(str(root), env).phase_source == "default"
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    s = setups.setup(str(root), env)  # same instant: only the config's stat key changed
    assert (s.phase, s.phase_source) == (Phase.ENFORCE, "config")


class _Recording(dict[str, str]):
    """An environment that notes every variable read from it ("*" for a walk over all)."""

    def __init__(self, *args: object, **kw: str) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.read.add("*")
        return super().__iter__()

    def items(self):  # type: ignore[no-untyped-def]
        self.read.add("*")
        return super().items()

    def keys(self):  # type: ignore[no-untyped-def]
        self.read.add("*")
        return super().keys()

    def values(self):  # type: ignore[no-untyped-def]
        self.read.add("*")
        return super().values()


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"CLAUDE_PLUGIN_ROOT": "/opt/plugin", "CLAUDE_CONFIG_DIR": "cfg"},
        {"ORCHESTRATOR_BOUNDARY_CONFIG": "x.toml", "ORCHESTRATOR_BOUNDARY_PHASE": "bogus"},
        {"AMPLIFIER_BYPASS_BOUNDARY": "1", "XDG_RUNTIME_DIR": "/run/user/0"},
        {"ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": "/tmp/rt", "ORCHESTRATOR_BOUNDARY_PHASE": "ask"},
    ],
    ids=["plain", "plugin+config-dir", "config+bad-phase", "bypass+xdg", "runtime-dir+phase"],
)
def test_the_setup_cache_key_holds_every_variable_a_setup_reads(
    clock: SimpleNamespace, tmp_path: Path, extra: dict[str, str]
) -> None:
    """The Setup cache is keyed on wire.DECISION_ENV only: a variable _setup() reads that is not in it
    would let a changed environment reuse a Setup made for another one."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    env = _Recording({"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path), **extra})
    env["UNRELATED"] = "1"
    setups.CACHE._gather(str(root), env, None, None)
    assert env.read <= set(setups.KEY_ENV), env.read - set(setups.KEY_ENV)


def test_a_change_in_a_variable_it_reads_makes_a_new_setup(
    clock: SimpleNamespace, tmp_path: Path
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path), "PATH": "/bin"}
    first = setups.setup(str(root), env)
    assert setups.setup(str(root), {**env, "TERM": "dumb"}) is first  # not read: same Setup
    for name, value in [
        ("ORCHESTRATOR_BOUNDARY_PHASE", "enforce"),
        ("AMPLIFIER_BYPASS_BOUNDARY", "1"),
        ("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg")),
        ("ORCHESTRATOR_BOUNDARY_AUDIT_PATH", str(tmp_path / "trail.jsonl")),
    ]:
        assert setups.setup(str(root), {**env, name: value}) is not first, name


def test_a_config_edit_that_keeps_size_and_mtime_is_seen(
    clock: SimpleNamespace, tmp_path: Path
) -> None:
    import os

    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    cfg = root / ".claude" / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    st = cfg.stat()
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}
    assert setups.setup(str(root), env).phase == Phase.OFF
    cfg.write_text('phase = "ask"\n')
    os.utime(cfg, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (cfg.stat().st_mtime_ns, cfg.stat().st_size) == (st.st_mtime_ns, st.st_size)
    assert setups.setup(str(root), env).phase == Phase.ASK  # same instant, same stat key
