"""An impostor on the evaluator's socket is recorded and reported (issue 13 point 3; ADR 0026).

A same-user script binds the socket the hook client will use and answers "no objection". The
call is judged in process (test_evaluator_attacks.py shows that); here: the audit line names
the impostor, ``doctor`` finds it on the socket and in the trail, and nobody can plant the
field through the hook's environment, neither in process nor through the real evaluator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_daemon import (  # noqa: F401 - proj and rt are fixtures
    _payload,
    _until,
    base_env,
    proj,
    rt,
    run_hook,
    sock_of,
    start_and_wait,
)
from test_evaluator_attacks import IMPOSTOR

from orchestrator_boundary import wire
from orchestrator_boundary.cmd_doctor import CHECKS
from orchestrator_boundary.doctor_context import FAIL, OK, WARN, Context
from orchestrator_boundary.doctor_trail import check_impostor


def _lines(proj: Path) -> list[dict[str, object]]:  # noqa: F811
    trail = proj / ".claude" / "boundary" / "audit.jsonl"
    return [json.loads(x) for x in trail.read_text().splitlines()]


def _write(proj: Path) -> bytes:  # noqa: F811
    return _payload(proj, "Write", {"file_path": str(proj / "a.py"), "content": ""})


def test_the_audit_line_and_doctor_name_an_impostor_on_the_socket(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    sock = sock_of(proj, rt)
    script = tmp_path / "listener.py"
    script.write_text(IMPOSTOR)
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(script), str(sock), str(proj)],
        env={**env, "IMPOSTOR_SRC": str(Path(wire.PACKAGE_DIR).parent)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    ctx = Context(str(proj), env, env["HOME"])
    try:
        assert _until(sock.exists), "the impostor did not bind"
        got = run_hook("PreToolUse", _write(proj), env, proj)
        assert got.returncode == 0 and b'"deny"' in got.stdout, got
        line = _lines(proj)[-1]
        assert line["decision"] == "deny"
        reason = str(line["evaluator_impostor"])
        assert reason.startswith(f"peer pid {proc.pid} runs ") and "listener.py" in reason
        check = check_impostor(ctx)
        assert check.status == FAIL, check
        assert str(sock) in check.message and f"peer pid {proc.pid}" in check.message
        assert "1 recorded call(s) found an impostor" in check.message
        assert f"kill {proc.pid}" in check.fix
    finally:
        proc.kill()
        proc.wait()
    check = check_impostor(ctx)  # gone from the socket, still in the trail
    assert check.status == WARN and "none holds the socket now" in check.message, check
    assert str(line["ts"]) in check.message


@pytest.mark.parametrize("route", ["in-process", "evaluator"])
def test_the_hooks_own_environment_cannot_plant_an_impostor_record(
    proj: Path,  # noqa: F811
    rt: Path,  # noqa: F811
    route: str,
) -> None:
    """An agent that sets the variable for its own commands' hooks records nothing: only the
    client sets it, after its own check; the evaluator drops it from what the client sends."""
    extra = {wire.IMPOSTOR_ENV: "planted"}
    if route == "in-process":
        extra["ORCHESTRATOR_BOUNDARY_NO_DAEMON"] = "1"
    env = base_env(proj, rt, ORCHESTRATOR_BOUNDARY_PHASE="enforce", **extra)
    if route == "evaluator":
        start_and_wait(proj, rt, env)
    got = run_hook("PreToolUse", _write(proj), env, proj, daemon_only=route == "evaluator")
    assert got.returncode == 0 and b'"deny"' in got.stdout, got
    assert all("evaluator_impostor" not in rec for rec in _lines(proj))
    check = check_impostor(Context(str(proj), env, env["HOME"]))
    assert check.status == OK, check
    if route == "evaluator":
        assert check.message.startswith("our own evaluator (verified) holds ")


def test_doctor_runs_the_impostor_check() -> None:
    assert check_impostor in CHECKS
