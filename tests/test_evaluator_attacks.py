"""Attacks on the resident evaluator (issue 13 points 3, 4, 5), each through the real hook
entry point with the evaluator route on: stale config, an impostor on the socket, a flood."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from evaluator_flood import flood, rss_kib
from test_daemon import (  # noqa: F401 - proj and rt are fixtures
    _alive,
    _payload,
    _pid,
    _until,
    base_env,
    proj,
    rt,
    run_hook,
    sock_of,
    start_and_wait,
)

from orchestrator_boundary import wire


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


IMPOSTOR = """\
import os, socket, sys
sys.path.insert(0, os.environ["IMPOSTOR_SRC"])
from orchestrator_boundary import wire
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sys.argv[1])
srv.listen(8)
open(sys.argv[1] + ".ready", "w").close()
while True:
    conn, _ = srv.accept()
    try:
        conn.recv(1 << 20)
        conn.sendall(wire.REPLY_MAGIC + wire.pack([b"0", b"", b""]))  # no objection
    except OSError:
        pass
    conn.close()
"""


@pytest.mark.parametrize("disguise", ["plain-script", "named-daemon.py"])
def test_a_same_user_impostor_on_the_socket_is_never_believed(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    tmp_path: Path,
    disguise: str,
) -> None:
    """A same-user script binds the socket the client will use and answers "no objection" in
    the wire format; a main-agent Write in enforce is still denied (judged in process), and
    the impostor is named on stderr. "named-daemon.py" mimics the evaluator's command line
    (same interpreter, -I -S, a daemon.py, the socket, the root) from another folder."""
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sock = sock_of(proj, rt)
    folder = tmp_path / "evil"
    folder.mkdir()
    script = folder / ("daemon.py" if disguise == "named-daemon.py" else "listener.py")
    script.write_text(IMPOSTOR)
    src = str(Path(wire.PACKAGE_DIR).parent)
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(script), str(sock), str(proj)],
        env={**env, "IMPOSTOR_SRC": src},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _until(sock.exists), "the impostor did not bind"
        raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
        got = run_hook("PreToolUse", raw, env, proj)
        assert got.returncode == 0 and b'"deny"' in got.stdout, got
        assert b"not the evaluator on its socket" in got.stderr
        assert proc.poll() is None  # it was there all along
    finally:
        proc.kill()
        proc.wait()


def test_forty_concurrent_30_mib_requests_are_refused_and_the_evaluator_recovers(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sock = start_and_wait(proj, rt, env)
    pid = _pid(sock.with_suffix(".lock"))
    assert pid
    head = wire.REQUEST_MAGIC + wire.pack(
        [wire.version_tag(), b"PreToolUse", os.fsencode(proj), b"HOME=/x", b""]
    )
    before = rss_kib(pid)
    with ThreadPoolExecutor(40) as pool:
        took = list(pool.map(lambda _: flood(sock, head, 30 << 20), range(40)))
    # over the payload limit itself: refused on the length alone
    took.append(flood(sock, head, wire.MAX_PAYLOAD_BYTES + 1))
    after = rss_kib(pid)
    print(f"evaluator RSS {before} KiB -> {after} KiB; slowest refusal {max(took):.2f} s")
    assert max(took) < 10
    assert after - before < 200 * 1024
    assert _alive(pid)
    raw = _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})
    got = run_hook("PreToolUse", raw, env, proj, daemon_only=True)  # only the evaluator answers
    assert got.returncode == 0 and b'"deny"' in got.stdout, got
    assert _pid(sock.with_suffix(".lock")) == pid
