from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.cli import main


def run_cli(
    argv: list[str],
    stdin: str = "",
    monkeypatch: pytest.MonkeyPatch | None = None,
    capsys: pytest.CaptureFixture[str] | None = None,
) -> tuple[int, str]:
    assert monkeypatch is not None and capsys is not None
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    rc = main(argv)
    return rc, capsys.readouterr().out


def test_check_prints_decision_and_why(
    project: Path,
    make_payload: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    payload = json.dumps(make_payload("Write", {"file_path": str(project / "src/a.py")}))
    rc, out = run_cli(["check", "--phase", "enforce"], payload, monkeypatch, capsys)
    assert rc == 0
    assert "violation: ORCHESTRATOR_WRITE by rule orchestrator.write_allow" in out
    assert "decision: deny" in out
    assert not (project / ".claude/boundary/audit.jsonl").exists()  # check writes no audit line


def test_check_json(
    project: Path,
    make_payload: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    payload = json.dumps(make_payload("Write", {"file_path": str(project / "a")}, subagent=True))
    rc, out = run_cli(["check", "--json"], payload, monkeypatch, capsys)
    data = json.loads(out)
    assert rc == 0
    assert (data["session_kind"], data["tool_class"], data["decision"], data["would_deny"]) == (
        "subagent",
        "write",
        "none",
        False,
    )


def test_check_uses_given_config(
    project: Path,
    make_payload: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cfg = tmp_path / "b.toml"
    cfg.write_text('phase = "ask"\n[orchestrator]\nwrite_allow = ["docs/**"]\n')
    for rel, decision in (("docs/x.md", "none"), ("src/x.py", "ask")):
        payload = json.dumps(make_payload("Write", {"file_path": str(project / rel)}))
        _, out = run_cli(["check", "--json", "--config", str(cfg)], payload, monkeypatch, capsys)
        assert json.loads(out)["decision"] == decision


def test_check_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = run_cli(["check", "--json"], "nope", monkeypatch, capsys)
    assert rc == 2 and "not valid JSON" in json.loads(out)["error"]


def test_check_bash_explains(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = run_cli(
        ["check", "--project", str(project), "--phase", "enforce", "--bash", "ls"],
        "",
        monkeypatch,
        capsys,
    )
    assert rc == 0 and "Bash by main agent" in out


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_replay_json_lines(
    project: Path,
    make_payload: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    f = _jsonl(
        tmp_path / "p.jsonl",
        [
            make_payload("Read", {"file_path": str(project / "a")}),
            make_payload("Write", {"file_path": str(project / "a")}),
            make_payload("Write", {"file_path": str(project / "a")}, subagent=True),
        ],
    )
    with f.open("a") as fh:
        fh.write("{broken\n")
    rc, out = run_cli(["replay", "--json", "--phase", "enforce", str(f)], "", monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert rc == 0
    assert [(r["session_kind"], r["tool_class"], r["decision"], r["would_deny"]) for r in rows] == [
        ("main", "read", "none", False),
        ("main", "write", "deny", True),
        ("subagent", "write", "none", False),
        ("unknown", None, None, None),  # not even a JSON object: no session to read off it
    ]
    assert rows[3]["error"] and all("rule" in r for r in rows)


def test_replay_expectations_make_it_a_regression_test(
    project: Path,
    make_payload: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = make_payload("Write", {"file_path": str(project / "a")})
    good["expect"] = {"decision": "deny", "code": "ORCHESTRATOR_WRITE"}
    ok = _jsonl(tmp_path / "ok.jsonl", [good])
    assert run_cli(["replay", "--phase", "enforce", str(ok)], "", monkeypatch, capsys)[0] == 0
    bad = dict(good, expect="none")
    failing = _jsonl(tmp_path / "bad.jsonl", [good, bad])
    rc, out = run_cli(["replay", "--phase", "enforce", str(failing)], "", monkeypatch, capsys)
    assert rc == 1 and "MISMATCH" in out and "expected 'none'" in out


def test_replay_table_fits_80_columns(
    project: Path,
    make_payload: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [
        make_payload("mcp__some_server__a_really_long_tool_name", {}),
        make_payload("Write", {"file_path": str(project / ("x" * 200))}),
    ]
    _, out = run_cli(["replay", str(_jsonl(tmp_path / "p.jsonl", rows))], "", monkeypatch, capsys)
    assert max(len(line) for line in out.splitlines()) <= 80


def test_demo_replays_the_bundled_session(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = run_cli(["demo", "--json"], "", monkeypatch, capsys)
    rows = json.loads(out)
    assert rc == 0 and len(rows) >= 4
    main_writes = [
        r for r in rows if r["who"].startswith("main") and r["tool"] in ("Write", "Edit")
    ]
    sub_writes = [
        r for r in rows if r["who"].startswith("subagent") and r["tool"] in ("Write", "Edit")
    ]
    assert main_writes and all((r["warn"], r["enforce"]) == ("warn", "deny") for r in main_writes)
    assert sub_writes and all((r["warn"], r["enforce"]) == ("none", "none") for r in sub_writes)


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    """``python -m orchestrator_boundary`` is the CLI (it was "No module named ...__main__"),
    for a teammate whose console script is not on PATH."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("orchestrator-boundary ")
