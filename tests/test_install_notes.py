"""What ``install`` tells a person about where the hooks will run (ADR 0052)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from orchestrator_boundary import cli


def test_a_project_below_its_repositorys_top_is_told_where_claude_must_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "mono"
    (repo / "packages" / "api").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    package = repo / "packages" / "api"
    assert cli.main(["install", "--project", str(package)]) == 0
    out = capsys.readouterr().out
    assert f"note: {package} is below the top of its git repository ({repo}): " in out
    assert f"these hooks run only in sessions started in {package}," in out
    assert f"orchestrator-boundary install --project {repo})" in out
    assert cli.main(["install", "--project", str(repo)]) == 0
    assert "below the top" not in capsys.readouterr().out
