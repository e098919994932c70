"""doctor: the plugin route, both routes at once, subagents' permission to write, and the
Windows hook shell (simulated: ntpath paths, a fake PATH lookup)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from orchestrator_boundary import cli, registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary import subagent_permissions as sp
from orchestrator_boundary.cmd_doctor import Context, check_windows_shell


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "no-managed.json"))
    # the plugin's hooks run python3: this interpreter's, as an activated venv would give
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return root.resolve()


def doctor(
    proj: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, dict[str, Any]]:
    code = cli.main(["doctor", "--project", str(proj), "--json", *extra])
    data = json.loads(capsys.readouterr().out)
    return code, {c["name"]: c for c in data["checks"]}


def test_the_plugin_route_alone_is_checked_by_running_its_hooks(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, checks = doctor(proj, capsys, "--plugin-dir", str(REPO))
    assert checks["hooks"]["status"] == "ok"
    assert checks["hooks"]["message"].startswith(
        f"registered through the plugin (--plugin-dir {REPO}: {REPO})"
    )
    assert checks["commands"]["status"] == "ok", checks["commands"]
    assert checks["commands"]["message"].startswith("6 registered command(s) answer as expected")


def test_an_installed_and_enabled_plugin_is_found(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Path(os.environ["HOME"])
    cache = home / ".claude" / "plugins" / "cache" / "market" / "orchestrator-boundary"
    cache.mkdir(parents=True)
    (cache / "0.1.0").symlink_to(REPO)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"orchestrator-boundary@market": True}})
    )
    _code, checks = doctor(proj, capsys)
    assert "plugin orchestrator-boundary@market enabled" in checks["hooks"]["message"]
    assert checks["commands"]["status"] == "ok", checks["commands"]


def test_both_routes_at_once_are_reported(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--project", str(proj)]) == 0
    capsys.readouterr()
    _code, checks = doctor(proj, capsys, "--plugin-dir", str(REPO))
    assert checks["hooks"]["status"] == "warn"
    assert "both routes are active" in checks["hooks"]["message"]
    assert "every call is judged twice" in checks["hooks"]["message"]
    assert checks["commands"]["message"].startswith("12 registered command(s)")


def _files(*items: tuple[str, dict[str, Any]]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(scope, f"/{scope}/settings.json", data) for scope, data in items]


@pytest.mark.parametrize(
    ("files", "blocking", "says"),
    [
        (_files(), None, ""),
        (_files(("user", {"permissions": {"defaultMode": "acceptEdits"}})), None, ""),
        (_files(("project", {"permissions": {"deny": ["Bash(rm *)", "Read(.env)"]}})), None, ""),
        (
            _files(("project", {"permissions": {"deny": ["Edit"]}})),
            True,
            "deny rule 'Edit' in /project/settings.json refuses every write",
        ),
        (
            _files(("user", {"permissions": {"deny": ["Write(**)"]}})),
            True,
            "refuses every write",
        ),
        (
            _files(("project", {"permissions": {"deny": ["Edit(secrets/**)"]}})),
            False,
            "refuses writes to secrets/**",
        ),
        (
            _files(("local", {"permissions": {"ask": ["Write"]}})),
            False,
            "a background subagent cannot answer the prompt",
        ),
        (
            _files(("project", {"permissions": {"defaultMode": "plan"}})),
            True,
            "defaultMode is plan in /project/settings.json: nothing may edit",
        ),
        (
            _files(("user", {"permissions": {"defaultMode": "default"}})),
            True,
            "defaultMode is default in /user/settings.json and no allow rule covers Write/Edit",
        ),
        (
            _files(
                ("user", {"permissions": {"defaultMode": "default"}}),
                ("project", {"permissions": {"allow": ["Edit", "Write"]}}),
            ),
            None,
            "",
        ),
        (
            _files(
                ("local", {"permissions": {"defaultMode": "acceptEdits"}}),
                ("managed", {"permissions": {"defaultMode": "plan"}}),
            ),
            True,
            "defaultMode is plan in /managed/settings.json",
        ),
    ],
    ids=[
        "nothing set (auto)",
        "acceptEdits",
        "unrelated denies",
        "deny Edit",
        "deny Write(**)",
        "deny a folder",
        "ask Write",
        "plan",
        "default without allow",
        "default with allow",
        "managed wins",
    ],
)
def test_subagent_permission_findings(
    files: list[tuple[str, str, dict[str, Any]]], blocking: bool | None, says: str
) -> None:
    found = sp.findings(files)
    if blocking is None:
        assert found == []
        return
    assert any(f.blocking is blocking and says in f.message for f in found), found


def test_doctor_fails_when_nothing_could_edit_in_enforce(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--project", str(proj), "--phase", "enforce", "--force"]) == 0
    settings = proj / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["permissions"] = {"defaultMode": "plan"}
    settings.write_text(json.dumps(data))
    capsys.readouterr()
    code, checks = doctor(proj, capsys)
    assert code == 1
    assert checks["subagent-writes"]["status"] == "fail"
    assert checks["subagent-writes"]["message"].startswith("in enforce, nothing could edit: ")


def _windows_ctx(
    tmp_path: Path, entries: list[dict[str, Any]], found: dict[str, str], existing: set[str]
) -> Context:
    root = tmp_path / "win"
    (root / ".claude").mkdir(parents=True)
    groups = {e: [{"matcher": "*", "hooks": entries}] for e in se.EVENTS}
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": groups}))
    env = {"HOME": str(tmp_path / "h"), sf.MANAGED_ENV: str(tmp_path / "none.json")}
    return Context(
        str(root), env, env["HOME"], platform="win32", which=found.get, exists=existing.__contains__
    )


SHIM = {"type": "command", "command": registration.shim_command("pre", "enforce")}
GIT = r"C:\Program Files\Git\cmd\git.exe"
GIT_BASH = r"C:\Program Files\Git\bin\bash.exe"
EXEC = registration.direct_entry(
    "pre",
    python=r"C:\Users\A B\venv\Scripts\python.exe",
    launcher_py=r"C:\Users\A B\venv\Lib\site-packages\orchestrator_boundary\launcher.py",
    platform="win32",
)


@pytest.mark.parametrize(
    ("entries", "found", "existing", "status", "says"),
    [
        ([SHIM], {"git": GIT}, {GIT_BASH}, "ok", "hooks run in Git Bash here"),
        ([SHIM], {}, {GIT_BASH}, "ok", "hooks run in Git Bash here"),
        ([SHIM], {"sh": r"C:\Git\usr\bin\sh.exe"}, set(), "ok", "hooks run in PowerShell here"),
        ([SHIM], {}, set(), "fail", "runs in PowerShell, where sh is not on PATH"),
        ([EXEC], {}, set(), "ok", "every entry starts there"),
        (
            [{"type": "command", "command": 'python3 -I -S "x/orchestrator_boundary/launcher.py"'}],
            {"git": GIT},
            {GIT_BASH},
            "fail",
            "runs python3 by name",
        ),
        (
            [{**SHIM, "shell": "bash"}],
            {},
            set(),
            "fail",
            "asks for bash, and Git Bash was not found",
        ),
    ],
    ids=[
        "Git Bash next to git",
        "Git Bash in Program Files",
        "PowerShell with sh on PATH",
        "PowerShell without sh",
        "exec form needs no shell",
        "python3 by name",
        "shell bash without Git Bash",
    ],
)
def test_windows_hook_shell(
    tmp_path: Path,
    entries: list[dict[str, Any]],
    found: dict[str, str],
    existing: set[str],
    status: str,
    says: str,
) -> None:
    check = check_windows_shell(_windows_ctx(tmp_path, entries, found, existing))
    assert check.status == status and says in check.message, check
