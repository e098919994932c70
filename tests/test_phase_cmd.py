"""phase: show the effective phase and its source; set it keeping the file's comments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_trails import build

from orchestrator_boundary import cli
from orchestrator_boundary.project_files import starter_config

COMMENTED = """# team config, do not reformat
phase = "warn"  # rollout started 2026-11-01

[bash]
# keep interpreters visible
opaque = "warn"

[orchestrator]
write_allow = ["docs/**"]   # the orchestrator keeps notes here
"""


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / ".claude").mkdir(parents=True)
    return root.resolve()


def cfg(proj: Path) -> Path:
    return proj / ".claude" / "boundary.toml"


def phase(proj: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(["phase", *argv, "--project", str(proj)])
    return code, capsys.readouterr().out


def without_phase_line(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("phase =")]


def test_show_default(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = phase(proj, capsys)
    assert code == 0 and out.splitlines()[0] == "effective phase: warn (from default)"


def test_set_keeps_comments_and_layout(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg(proj).write_text(COMMENTED)
    code, out = phase(proj, capsys, "enforce", "--force")
    assert code == 0
    assert out.splitlines()[0] == f'set: phase = "enforce" in {cfg(proj)}'
    assert "effective phase: enforce (from config)" in out
    text = cfg(proj).read_text()
    assert without_phase_line(text) == without_phase_line(COMMENTED)
    assert 'phase = "enforce"' in text
    code, out = phase(proj, capsys, "enforce", "--force")
    assert out.startswith("already:") and cfg(proj).read_text() == text


def test_set_keeps_the_starter_comments(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg(proj).write_text(starter_config("warn"))
    assert phase(proj, capsys, "ask")[0] == 0
    assert without_phase_line(cfg(proj).read_text()) == without_phase_line(starter_config("warn"))


def test_set_creates_the_file(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = phase(proj, capsys, "ask")
    assert code == 0 and cfg(proj).read_text() == 'phase = "ask"\n'
    assert "effective phase: ask (from config)" in out


def test_set_adds_the_key_above_tables(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg(proj).write_text('# c\n[bash]\nopaque = "warn"\n')
    assert phase(proj, capsys, "enforce", "--force")[0] == 0
    _, out = phase(proj, capsys, "--json")
    data = json.loads(out)
    assert data["phase"] == "enforce" and data["source"] == "config"  # not bash.phase


def test_env_override_is_reported(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_PHASE", "off")
    _, out = phase(proj, capsys, "enforce", "--force")
    assert "effective phase: off (from environment)" in out
    assert "ORCHESTRATOR_BOUNDARY_PHASE=off in this environment overrides the config" in out
    _, out = phase(proj, capsys)
    assert "set by ORCHESTRATOR_BOUNDARY_PHASE" in out


def test_broken_config_is_reported(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg(proj).write_text('phase = "warn"\nphaes = 1\n')
    code, out = phase(proj, capsys)
    assert code == 1
    assert "effective phase: enforce (from broken config)" in out
    assert f"config problem: {cfg(proj)}: phaes:" in out
    code, out = phase(proj, capsys, "warn")
    assert code == 1 and "the config is still broken" in out


def test_invalid_toml_is_left_alone(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg(proj).write_text("phase = = warn\n")
    code, out = phase(proj, capsys, "warn")
    assert code == 1 and "not valid TOML" in out and "left unchanged" in out
    assert cfg(proj).read_text() == "phase = = warn\n"


def test_phase_json(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = phase(proj, capsys, "off", "--json")
    data = json.loads(out)
    assert code == 0 and data["changed"] is True and data["phase"] == "off"
    assert data["source"] == "config" and data["problem"] is None


def _entries(path: Path) -> list[dict[str, object]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        h
        for event in ("PreToolUse", "PostToolUse")
        for g in data["hooks"][event]
        for h in g["hooks"]
    ]


@pytest.mark.parametrize(
    ("to", "on_failure"),
    [("enforce", "block"), ("ask", "block"), ("warn", None), ("off", None)],
    ids=["enforce", "ask", "warn", "off"],
)
def test_phase_keeps_the_hook_entries_in_step(
    proj: Path, capsys: pytest.CaptureFixture[str], to: str, on_failure: str | None
) -> None:
    """onFailure and the launcher's fallback phase follow the phase (ADRs 0023, 0024), in the
    committed settings and in the local ones; nothing else in those files changes."""
    assert cli.main(["install", "--project", str(proj), "--phase", "warn"]) == 0
    assert cli.main(["install", "--project", str(proj), "--scope", "local"]) == 0
    project, local = proj / ".claude" / "settings.json", proj / ".claude" / "settings.local.json"
    for path in (project, local):
        assert all("onFailure" not in h for h in _entries(path))
    before_local = json.loads(local.read_text())
    capsys.readouterr()
    code, out = phase(proj, capsys, to, "--force")
    assert code == 0
    changed = [p for p in (project, local) if f"hooks in step with {to}: {p}" in out]
    # warn -> off: only the launcher's argument changes; warn -> warn: nothing
    assert changed == ([project, local] if on_failure else [project] if to == "off" else [])
    for h in _entries(project):
        assert h.get("onFailure") == on_failure
        assert str(h["command"]).endswith(f" {to}")
    for h in _entries(local):
        assert h.get("onFailure") == on_failure
    after_local = json.loads(local.read_text())
    for event in ("PreToolUse", "PostToolUse"):
        [hb] = before_local["hooks"][event][0]["hooks"]
        [ha] = after_local["hooks"][event][0]["hooks"]
        assert {k: v for k, v in ha.items() if k != "onFailure"} == hb
    assert not list((proj / ".claude").glob("*.bak-*"))


def test_enforce_is_refused_while_the_report_says_not_ready(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg(proj).write_text('phase = "warn"\n')
    code, out = phase(proj, capsys, "enforce")
    assert code == 1
    assert out.startswith("error: not switching to enforce: there is no audit trail at ")
    # run for a project other than the current folder, the commands name it
    assert (
        f"has the hook run in this project? Run: orchestrator-boundary doctor --project {proj}."
        in out
    )
    assert f"orchestrator-boundary phase enforce --project {proj} --force" in out
    assert cfg(proj).read_text() == 'phase = "warn"\n'
    # a short trail: NOT READY, with the criteria that fail
    build(proj, days=3)
    code, out = phase(proj, capsys, "enforce", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error.startswith("not switching to enforce: the report says NOT READY: ")
    assert f"See: orchestrator-boundary report --project {proj}." in error
    assert "days" in error and cfg(proj).read_text() == 'phase = "warn"\n'
    # --force switches anyway; warn and ask never ask for it
    assert phase(proj, capsys, "ask")[0] == 0
    code, out = phase(proj, capsys, "enforce", "--force")
    assert code == 0 and 'phase = "enforce"' in cfg(proj).read_text()


def test_enforce_goes_through_when_the_report_says_ready(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "ready"
    build(root, config='phase = "warn"\n')
    code, out = phase(root, capsys, "enforce")
    assert code == 0, out
    assert out.startswith('set: phase = "enforce"')
