"""The config file's key (ADR 0036): stat fields a same-user edit cannot keep, and the
content's hash only while a second edit could still share them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from harden_support import same_stat_edit

from orchestrator_boundary import setups
from orchestrator_boundary.phase import Phase

S = 1_000_000_000
NOW = 1_800_000_000 * S
RACY = setups.RACY_NS

# (ctime, mtime, hash always (Windows), settled?)
SETTLED: dict[str, tuple[int, int, bool, bool]] = {
    "both old": (NOW - RACY - S, NOW - RACY - S, False, True),
    "ctime just inside the window": (NOW - RACY + 1, NOW - RACY - S, False, False),
    "ctime exactly at the window's edge": (NOW - RACY, NOW - RACY - S, False, False),
    "ctime now": (NOW, NOW - RACY - S, False, False),
    "ctime in the future": (NOW + S, NOW - RACY - S, False, False),
    "mtime set into the future": (NOW - RACY - S, NOW + 3600 * S, False, False),
    "mtime inside the window": (NOW - RACY - S, NOW - S, False, False),
    "old, but on Windows": (NOW - 3600 * S, NOW - 3600 * S, True, False),
}


@pytest.mark.parametrize("case", list(SETTLED), ids=list(SETTLED))
def test_when_the_stat_fields_alone_are_trusted(case: str) -> None:
    ctime, mtime, hash_always, expected = SETTLED[case]
    assert setups.settled(ctime, mtime, NOW, hash_always=hash_always) is expected


@pytest.mark.skipif(setups.HASH_ALWAYS, reason="Windows hashes every time")
def test_a_settled_file_is_keyed_by_its_stat_fields_alone(tmp_path: Path) -> None:
    cfg = tmp_path / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    st = cfg.stat()
    fields = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    later = max(st.st_ctime_ns, st.st_mtime_ns) + RACY + 1
    assert setups.config_key(str(cfg), later) == (fields, b"")  # not read, not hashed
    fresh = setups.config_key(str(cfg), time.time_ns())  # now: inside the window
    assert fresh[0] == fields and len(fresh[1]) == 16


def test_inside_the_window_the_content_decides(tmp_path: Path) -> None:
    """Two edits in one timestamp granule may leave every stat field alike: the hash differs."""
    cfg = tmp_path / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    before = setups.config_key(str(cfg), time.time_ns())
    same_stat_edit(cfg, 'phase = "ask"\n')
    after = setups.config_key(str(cfg), time.time_ns())
    assert before[1] and after[1] and before[1] != after[1]
    same_stat_edit(cfg, 'phase = "off"\n')
    assert setups.config_key(str(cfg), time.time_ns())[1] == before[1]


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    return root, {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}


def test_an_edit_inside_the_window_keeping_size_and_mtime_is_seen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(setups, "CACHE", setups.SetupCache())
    root, env = _project(tmp_path)
    cfg = root / ".claude" / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    assert setups.setup(str(root), env).phase == Phase.OFF
    assert setups.CACHE.configs[(str(cfg), str(tmp_path))][0][1]  # hashed: just written
    same_stat_edit(cfg, 'phase = "ask"\n')
    assert setups.setup(str(root), env).phase == Phase.ASK


@pytest.mark.skipif(setups.HASH_ALWAYS, reason="Windows hashes every time")
def test_a_settled_config_is_not_hashed_and_its_next_edit_is_seen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Seen from a clock well past the file's ctime, the key is its stat fields alone; an
    edit that keeps size and mtime still changes the ctime, so the next call sees it."""
    ahead = 10 * RACY
    monkeypatch.setattr(setups, "CACHE", setups.SetupCache(wall=lambda: time.time_ns() + ahead))
    root, env = _project(tmp_path)
    cfg = root / ".claude" / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    first = setups.setup(str(root), env)
    assert first.phase == Phase.OFF
    assert setups.CACHE.configs[(str(cfg), str(tmp_path))][0][1] == b""  # not hashed
    assert setups.setup(str(root), env) is first
    time.sleep(0.05)  # the edit lands in a later timestamp granule, as a settled key's does
    same_stat_edit(cfg, 'phase = "ask"\n')
    assert setups.setup(str(root), env).phase == Phase.ASK


def _no_clock() -> int:
    raise AssertionError("a settled key is compared without the clock (and without a hash)")


@pytest.mark.skipif(setups.HASH_ALWAYS, reason="Windows hashes every time")
def test_a_settled_key_is_compared_by_its_stat_fields(tmp_path: Path) -> None:
    cfg = tmp_path / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    st = cfg.stat()
    key = setups.config_key(str(cfg), max(st.st_ctime_ns, st.st_mtime_ns) + RACY + 1)
    assert setups.same_config(str(cfg), key, _no_clock)
    time.sleep(0.05)  # a later timestamp granule
    same_stat_edit(cfg, 'phase = "ask"\n')
    assert not setups.same_config(str(cfg), key, _no_clock)


def test_a_racy_key_is_compared_by_content(tmp_path: Path) -> None:
    cfg = tmp_path / "boundary.toml"
    cfg.write_text('phase = "off"\n')
    key = setups.config_key(str(cfg), time.time_ns())
    assert key[1]  # just written: hashed
    assert setups.same_config(str(cfg), key)
    same_stat_edit(cfg, 'phase = "ask"\n')
    assert not setups.same_config(str(cfg), key)
