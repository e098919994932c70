"""``doctor``'s start-folder check (``doctor_start``; what the CLI does:
tests/e2e/test_start_folder_e2e.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli


def start_check(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    cli.main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == "start-folder")
    return found


@pytest.mark.parametrize(
    ("scope", "phase", "status", "says"),
    [
        ("project", "enforce", "fail", "runs none of the hooks of"),
        ("project", "warn", "warn", "runs none of the hooks of"),
        ("user", "enforce", "fail", "your user-scope hooks judge it as a project of its own"),
    ],
    ids=["project scope, enforce", "project scope, warn", "user scope, enforce"],
)
def test_doctor_run_from_a_subfolder_names_the_folder_to_start_in(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    scope: str,
    phase: str,
    status: str,
    says: str,
) -> None:
    root = (tmp_path / "proj").resolve()
    (root / "src" / "pkg").mkdir(parents=True)
    (root / ".claude").mkdir()
    (root / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n', encoding="utf-8")
    assert cli.main(["install", "--project", str(root), "--scope", scope]) == 0
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert start_check(capsys)["status"] == "ok"
    monkeypatch.chdir(root / "src" / "pkg")
    check = start_check(capsys)
    assert check["status"] == status and says in check["message"], check
    assert check["fix"].endswith(f"cd {root} && claude")
    # a session started in the subfolder runs doctor with CLAUDE_PROJECT_DIR set to it
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root / "src"))
    assert start_check(capsys)["status"] == status
