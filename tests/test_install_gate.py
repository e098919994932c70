"""``install --phase enforce`` asks what ``phase enforce`` asks (ADR 0052): a project does not
land in enforce with no evidence by accident; ``--force`` is the explicit override."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_trails import build

from orchestrator_boundary import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def config_text(root: Path) -> str:
    return (root / ".claude" / "boundary.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("scope", ["project", "local"])
def test_a_fresh_project_is_not_installed_in_enforce(
    tmp_path: Path, scope: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    code, out, err = run(
        capsys, "install", "--project", str(root), "--scope", scope, "--phase", "enforce"
    )
    assert code == 1 and out == ""
    assert err.startswith("error: not installing in enforce: this project has no audit trail yet")
    assert "then run: orchestrator-boundary phase enforce." in err
    assert err.rstrip().endswith(
        "To enforce anyway: orchestrator-boundary install --phase enforce --force"
    )
    assert not (root / ".claude").exists()  # nothing written
    # the same refusal as JSON, for a program
    code, out, _ = run(capsys, "install", "--project", str(root), "--phase", "enforce", "--json")
    assert code == 1 and json.loads(out)["error"].startswith("not installing in enforce: ")


def test_the_override_and_the_phases_that_never_block_work_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for phase in ("warn", "ask", "off"):
        root = tmp_path / phase
        root.mkdir()
        assert run(capsys, "install", "--project", str(root), "--phase", phase)[0] == 0
    root = tmp_path / "forced"
    root.mkdir()
    code, out, _ = run(capsys, "install", "--project", str(root), "--phase", "enforce", "--force")
    assert code == 0, out
    assert 'phase = "enforce"' in config_text(root)


def test_a_not_ready_trail_is_named_as_phase_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "short"
    build(root, days=3)  # a trail, no config (e.g. recorded under another route)
    code, _, err = run(capsys, "install", "--project", str(root), "--phase", "enforce")
    assert code == 1
    assert err.startswith("error: not installing in enforce: the report says NOT READY: ")
    assert "days" in err and not (root / ".claude" / "boundary.toml").exists()


def test_a_ready_trail_goes_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "ready"
    build(root)
    code, out, _ = run(capsys, "install", "--project", str(root), "--phase", "enforce")
    assert code == 0, out
    assert 'phase = "enforce"' in config_text(root)


def test_a_teammate_installing_a_project_already_in_enforce_is_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "team"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    for argv in ((), ("--phase", "enforce")):
        code, out, _ = run(capsys, "install", "--project", str(root), *argv)
        assert code == 0, out
    settings = json.loads((root / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert settings["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"] == "block"
