"""A session started below the project is judged by the project's config (ADR 0054).

Claude Code reads ``.claude/settings.json`` only in the folder a session starts in, so a session
started in ``src/`` of a guarded project runs only the user-scope and managed hooks, with
``CLAUDE_PROJECT_DIR`` naming ``src/``. Those hooks take the nearest folder above with
``.claude/boundary.toml`` (never the home folder) as the project, as the CLI does (ADR 0046).
Here through the real hook entry point; under the real CLI in
``tests/e2e/test_subfolder_session_e2e.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator_boundary import hook_main, wire
from orchestrator_boundary.testing import make_payload, run_hook


def project(tmp_path: Path, phase: str) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude/boundary.toml").write_text(f'phase = "{phase}"\n', encoding="utf-8")
    (root / "src/deep").mkdir(parents=True)
    return root


def trail_lines(root: Path) -> list[dict[str, object]]:
    trail = root / ".claude/boundary/audit.jsonl"
    return [json.loads(line) for line in trail.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("start", ["src", "src/deep"])
def test_the_main_agents_write_is_denied_by_the_projects_enforce(
    tmp_path: Path, start: str
) -> None:
    root = project(tmp_path, "enforce")
    here = root / start
    payload = make_payload("Write", {"file_path": str(here / "x.py")}, cwd=here)
    got = run_hook(payload, project=here, env={"HOME": str(tmp_path / "home")})
    assert got.decision == "deny", got
    assert not (here / ".claude").exists()  # nothing made in the start folder
    assert [line["decision"] for line in trail_lines(root)][-1:] == ["deny"]


def test_a_nearer_config_wins(tmp_path: Path) -> None:
    """A monorepo package with a config of its own is judged by it, not by the top's."""
    root = project(tmp_path, "enforce")
    pkg = root / "pkg"
    (pkg / ".claude").mkdir(parents=True)
    (pkg / ".claude/boundary.toml").write_text('phase = "warn"\n', encoding="utf-8")
    (pkg / "lib").mkdir()
    here = pkg / "lib"
    payload = make_payload("Write", {"file_path": str(here / "x.py")}, cwd=here)
    got = run_hook(payload, project=here, env={"HOME": str(tmp_path / "home")})
    assert got.decision == "warn", got  # told, not blocked
    assert trail_lines(pkg)[-1]["decision"] == "warn"


def test_a_config_above_the_project_is_protected(tmp_path: Path) -> None:
    """It would become the config of a session started there: TAMPER, warn included, even
    for a subagent whose config lets it write outside the project."""
    root = project(tmp_path, "warn")
    (root / ".claude/boundary.toml").write_text(
        'phase = "warn"\n[subagents]\nwrite_outside_root = ["/**"]\n', encoding="utf-8"
    )
    for above in (tmp_path, tmp_path.parent):
        target = above / ".claude/boundary.toml"
        payload = make_payload(
            "Write", {"file_path": str(target)}, cwd=root, subagent=True, agent_type="coder"
        )
        got = run_hook(payload, project=root, env={"HOME": str(tmp_path / "home")})
        assert got.decision == "deny" and "TAMPER" in json.dumps(got.output), got


def test_the_home_folders_claude_config_is_not_a_project(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    (home / "work").mkdir()
    assert wire.configured_above(str(home / "work"), str(home)) is None
    assert wire.configured_above(str(home / "work"), None) == str(home)


def test_a_user_scope_hook_names_the_projects_trail(tmp_path: Path) -> None:
    root = project(tmp_path, "enforce")
    environ = {
        "CLAUDE_PROJECT_DIR": str(root / "src/deep"),
        "HOME": str(tmp_path / "home"),
    }
    assert hook_main.prepare(["launcher.py", "PreToolUse", "user"], environ) == "PreToolUse"
    assert environ[wire.AUDIT_ENV] == hook_main.user_trail(str(root), environ)
