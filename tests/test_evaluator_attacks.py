"""Attacks on the resident evaluator (issue 13 points 3, 4, 5), each through the real hook
entry point with the evaluator route on: stale config, an impostor on the socket, a flood."""

from __future__ import annotations

import os
from pathlib import Path

from test_daemon import _payload, base_env, proj, rt, run_hook, start_and_wait  # noqa: F401


def test_a_config_edit_that_keeps_size_and_mtime_is_seen_on_the_next_call(
    proj: Path,  # noqa: F811 - the fixtures of test_daemon
    rt: Path,  # noqa: F811
) -> None:
    cfg = proj / ".claude" / "boundary.toml"
    cfg.parent.mkdir()
    cfg.write_text('phase = "off"\n')
    before = cfg.stat()
    env = base_env(proj, rt)
    start_and_wait(proj, rt, env)
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
    assert (got.returncode, got.stdout) == (0, b"")  # off: no objection
    cfg.write_text('phase = "ask"\n')  # the same size
    os.utime(cfg, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (cfg.stat().st_size, cfg.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)
    assert got.returncode == 0 and b'"ask"' in got.stdout, got
