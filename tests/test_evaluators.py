"""doctor's view of the resident evaluators: how many, for which project, their memory; and
doctor's own probes leave none behind."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import pytest

from orchestrator_boundary import cli, evaluators


def fake_proc(base: Path, pid: int, argv: list[str], rss_kib: int) -> None:
    folder = base / str(pid)
    folder.mkdir(parents=True)
    (folder / "cmdline").write_bytes(b"".join(a.encode() + b"\0" for a in argv))
    (folder / "status").write_text(f"Name:\tpython\nVmRSS:\t {rss_kib} kB\n")


DAEMON = "/v/lib/python3.11/site-packages/orchestrator_boundary/daemon.py"


def test_evaluators_are_counted_with_their_memory(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    fake_proc(proc, 101, ["/v/bin/python", "-I", "-S", DAEMON, "/run/a.sock", "/w/a"], 40960)
    fake_proc(proc, 102, ["/v/bin/python", "-I", "-S", DAEMON, "/run/b.sock", "/w/b"], 20480)
    fake_proc(proc, 103, ["/o/bin/python", "-I", "-S", DAEMON, "/run/c.sock", "/w/b"], 10240)
    fake_proc(proc, 104, ["/v/bin/python", "-m", "http.server"], 9999)
    (proc / "self").mkdir()
    found = evaluators.running(str(proc))
    assert [e.pid for e in found] == [101, 102, 103]
    assert found[0] == evaluators.Evaluator(101, "/w/a", "/run/a.sock", 40960)
    line, twice = evaluators.summary(found)
    assert line == "3 evaluators running, 70 MiB resident: /w/a (pid 101), /w/b (pid 102, 103)"
    assert twice == ["/w/b"]
    assert evaluators.summary([]) == ("no evaluator running", [])
    assert evaluators.summary(found[:1])[0].startswith("1 evaluator running, 40 MiB")


def test_doctor_probes_leave_no_evaluator_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ORCHESTRATOR_BOUNDARY_NO_DAEMON")  # the evaluator route is allowed
    runtime = tempfile.mkdtemp(prefix="ob-ev-")  # short: socket paths must stay short
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_RUNTIME_DIR", runtime)
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_DAEMON_IDLE", "5")
    probes = tmp_path / "probes"  # doctor's temporary projects go here, and only this test's
    probes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(probes))
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    assert cli.main(["install", "--project", str(root)]) == 0
    capsys.readouterr()
    cli.main(["doctor", "--project", str(root), "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["commands"]["status"] == "ok", checks["commands"]
    assert checks["evaluators"]["status"] in ("ok", "warn")
    time.sleep(1.0)  # an evaluator would be started in the background, detached
    left = [e for e in evaluators.running() if e.root.startswith(str(probes))]
    assert left == []
