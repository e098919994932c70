"""Round eleven (ADR 0079): a teammate without the package leaves a record of each tool call.

The committed launcher, finding no installation, let calls through in warn (and under the
bypass) "unguarded and unrecorded": the team's ``report`` never learnt that a teammate's
sessions went unjudged. It now leaves the same line the package leaves when it cannot load,
beside the trail, for ``report`` and the next writer."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from orchestrator_boundary import cli, registration

SHELLS = [s for s in ("sh", "dash", "bash") if shutil.which(s)]


def _project(tmp_path: Path, config: str) -> Path:
    root = tmp_path / "proj"
    shim = root / ".claude" / "orchestrator-boundary" / "launch.sh"
    shim.parent.mkdir(parents=True)
    shim.write_text(registration.shim_text(), encoding="utf-8")
    (root / ".claude" / "boundary.toml").write_text(config)
    return root


def _run(root: Path, tmp_path: Path, shell: str, event: str, env: dict[str, str]) -> int:
    payload = {
        "session_id": "s-1",
        "tool_use_id": "toolu_9",
        "hook_event_name": event,
        "tool_name": "Write",
        "tool_input": {"file_path": '/x"tool_name": "Evil"', "content": '"session_id": "no"'},
    }
    done = subprocess.run(
        [shutil.which(shell) or shell, str(root / registration.SHIM_RELPATH), event, "warn"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path / "home"),
            "CLAUDE_PROJECT_DIR": str(root),
            **env,
        },
        timeout=30,
        check=False,
    )
    return done.returncode


def _spooled(folder: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob(".audit.jsonl-spool-*"))]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("config", "env", "code", "decision", "bypassed"),
    [
        ('phase = "warn"\n', {}, 0, "none", False),
        ('phase = "enforce"\n', {}, 2, "deny", False),
        ('phase = "enforce"\n', {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, 0, "none", True),
    ],
    ids=["warn", "enforce", "bypass"],
)
def test_a_teammate_without_the_package_leaves_a_record(
    tmp_path: Path,
    shell: str,
    config: str,
    env: dict[str, str],
    code: int,
    decision: str,
    bypassed: bool,
) -> None:
    root = _project(tmp_path, config)
    assert _run(root, tmp_path, shell, "PreToolUse", env) == code
    assert _run(root, tmp_path, shell, "Stop", env) == 0
    [rec] = _spooled(root / ".claude" / "boundary")  # no record of a lifecycle event
    assert rec["ts"]
    assert {k: v for k, v in rec.items() if k != "ts"} == {
        "event": "PreToolUse",
        "session_id": "s-1",
        "tool_name": "Write",  # not the word an input spelled
        "tool_use_id": "toolu_9",
        "decision": decision,
        "would_deny": None,
        "phase": "enforce" if "enforce" in config else "warn",
        "bypassed": bypassed,
        "error": "not installed: orchestrator-boundary is not installed on this machine",
        "unjudged": True,
    }


def test_the_record_goes_where_the_config_puts_the_trail_and_report_counts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, 'phase = "warn"\n\n[audit]\npath = "logs/trail.jsonl"\n')
    assert _run(root, tmp_path, "sh", "PreToolUse", {}) == 0
    assert _run(root, tmp_path, "sh", "PostToolUse", {}) == 0
    assert len(sorted((root / "logs").glob(".trail.jsonl-spool-*"))) == 2
    monkeypatch.chdir(root)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    assert cli.main(["report", "--project", str(root), "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["hook_errors_by_cause"] == {"not installed": 2}


def test_a_path_in_another_table_is_not_the_trails(tmp_path: Path) -> None:
    root = _project(tmp_path, 'phase = "warn"\n[audit]\nkeep = 3\n[report]\npath = "x/y.jsonl"\n')
    assert _run(root, tmp_path, "sh", "PreToolUse", {}) == 0
    assert len(_spooled(root / ".claude" / "boundary")) == 1
    assert not (root / "x").exists()
