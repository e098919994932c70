"""The config's notes (tool names no current tool has, retired names; ``config.config_notes``)
are printed where a person reads the config: ``doctor``, ``check``, ``phase enforce`` and
``install`` (#14 point 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator_boundary import cli
from orchestrator_boundary import settings_files as sf

CONFIG = """\
phase = "warn"

[orchestrator]
allow_tools = ["Bahs"]

[agents.planner]
tools = ["Read", "TodoWrite"]
"""
TYPO = "orchestrator.allow_tools: no Claude Code tool or tool class is named 'Bahs'; did you mean 'Bash'?"
RETIRED = (
    "agents.planner.tools: TodoWrite is a retired name; it covers TaskCreate, TaskGet, TaskList "
    "and TaskUpdate."
)


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "no-managed.json"))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    return root.resolve()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().out


def test_doctor_warns_with_each_note(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _code, out = run(capsys, "doctor", "--project", str(proj), "--json")
    [check] = [c for c in json.loads(out)["checks"] if c["name"] == "config"]
    assert check["status"] == "warn"
    assert check["message"].endswith(f"boundary.toml: valid, but {TYPO} {RETIRED}")


def test_check_prints_the_notes(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "--bash", "ls", "--project", str(proj))
    assert code == 0
    assert f"  config note: {TYPO}\n  config note: {RETIRED}\n" in out
    code, out = run(capsys, "check", "--bash", "ls", "--project", str(proj), "--json")
    assert json.loads(out)["config_notes"] == [TYPO, RETIRED]


def test_phase_enforce_prints_the_notes(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "phase", "enforce", "--force", "--project", str(proj))
    assert code == 0
    assert out.splitlines()[-2:] == [f"config note: {TYPO}", f"config note: {RETIRED}"]
    code, out = run(capsys, "phase", "warn", "--project", str(proj), "--json")
    assert "config_notes" not in json.loads(out)  # only where enforce is switched on


def test_install_prints_the_notes(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "install", "--project", str(proj))
    assert code == 0
    assert f"note: {TYPO}\nnote: {RETIRED}" in out


def test_a_clean_config_has_no_notes(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (proj / ".claude" / "boundary.toml").write_text('phase = "warn"\n', encoding="utf-8")
    _code, out = run(capsys, "doctor", "--project", str(proj), "--json")
    [check] = [c for c in json.loads(out)["checks"] if c["name"] == "config"]
    assert check["status"] == "ok"
    _code, out = run(capsys, "check", "--bash", "ls", "--project", str(proj), "--json")
    assert json.loads(out)["config_notes"] == []
