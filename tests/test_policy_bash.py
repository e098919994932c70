"""Issue 3 point 6: the policy over the Bash analysis, through the real hook shell."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

CONFIG = """
phase = "enforce"
[orchestrator]
write_allow = ["STATE.md"]
[bash]
allow_write = ["/opt/scratch/**"]  # not /tmp: pytest projects live there
read_only_commands = ["mytool"]
deny_commands = ["curl"]
[agents.coder]
tools = ["Bash", "Write"]
write_scope = ["src/**"]
"""

MAIN: dict[str, Any] = {}
CODER: dict[str, Any] = {"subagent": True, "agent_type": "coder"}
SUB: dict[str, Any] = {"subagent": True, "agent_type": "general-purpose"}

# (id, who, command, decision, code, fragment expected in the reason)
TABLE = [
    ("redirect", MAIN, "echo hi > src/app.py", "deny", "BASH_WRITE", "src/app.py"),
    ("append", MAIN, "echo hi >> notes.md", "deny", "BASH_WRITE", "notes.md"),
    ("sed-i", MAIN, "sed -i s/a/b/ src/app.py", "deny", "BASH_WRITE", "sed -i s/a/b/ src/app.py"),
    ("tee", MAIN, "ls | tee out.txt", "deny", "BASH_WRITE", "out.txt"),
    ("cp", MAIN, "cp a.py b.py", "deny", "BASH_WRITE", "b.py"),
    ("rm", MAIN, "rm -rf build", "deny", "BASH_WRITE", "build"),
    ("python-c", MAIN, "python3 -c \"open('x.py','w').write('1')\"", "deny", "BASH_WRITE", "x.py"),
    # find's -name filter is followed (#14 point 6): *.pyc cannot name a protected file, so
    # the write rules judge it; *.json can name .claude/settings.json: TAMPER
    ("find-delete", MAIN, "find . -name '*.pyc' -delete", "deny", "BASH_WRITE", "find . -name"),
    ("sub-find-delete", SUB, "find . -name '*.pyc' -delete", "none", None, ""),
    ("find-delete-json", SUB, "find . -name '*.json' -delete", "deny", "TAMPER", ""),
    ("sub-extract-into-root", SUB, "tar xf release.tar", "none", None, ""),
    ("sub-checkout-root", SUB, "git checkout -- .", "none", None, ""),
    ("git-checkout", MAIN, "git checkout -- .", "deny", "BASH_WRITE", "git checkout"),
    ("bash-c", MAIN, "bash -lc 'echo x > src/a.py'", "deny", "BASH_WRITE", "src/a.py"),
    (
        "pip-install-unknown-target",
        MAIN,
        "pip install requests",
        "deny",
        "BASH_WRITE",
        "cannot be determined",
    ),
    ("state-md-allowed", MAIN, "echo done >> STATE.md", "none", None, ""),
    ("allow-write-outside-root", MAIN, "echo x > /opt/scratch/s.txt", "none", None, ""),
    ("outside-root", MAIN, "echo x > /var/tmp/x", "deny", "BASH_WRITE", "/var/tmp/x"),
    ("ls", MAIN, "ls -la", "none", None, ""),
    ("git-status", MAIN, "git status", "none", None, ""),
    ("dev-null", MAIN, "cat f > /dev/null", "none", None, ""),
    ("quoted-gt", MAIN, 'echo "a > b"', "none", None, ""),
    ("grep-gt", MAIN, "grep '>' f", "none", None, ""),
    ("opaque-allowed-by-default", MAIN, "pytest -q", "none", None, ""),
    ("read-only-command-from-config", MAIN, "mytool --scan", "none", None, ""),
    ("deny-command", MAIN, "curl https://example.com", "deny", "BASH_DENIED_COMMAND", "curl"),
    ("unparseable", MAIN, "echo $(( 1 +", "deny", "BASH_UNPARSEABLE", ""),
    ("coder-in-scope", CODER, "echo x > src/a.py", "none", None, ""),
    ("coder-out-of-scope", CODER, "echo x > docs/a.md", "deny", "SCOPE_VIOLATION", "docs/a.md"),
    ("sub-outside-root", SUB, "echo x > /var/tmp/x", "deny", "SCOPE_VIOLATION", "/var/tmp/x"),
    ("sub-inside-root", SUB, "sed -i s/a/b/ docs/a.md", "none", None, ""),
    ("sub-unknown-target-is-opaque", SUB, "pip install requests", "none", None, ""),
    ("sub-tamper", SUB, "echo '{}' > .claude/settings.json", "deny", "TAMPER", "settings.json"),
    ("main-tamper", MAIN, "rm .claude/boundary.toml", "deny", "TAMPER", "boundary.toml"),
]


@pytest.fixture
def configured(project: Path) -> Path:
    (project / ".claude" / "boundary.toml").write_text(CONFIG)
    return project


@pytest.mark.parametrize(
    ("who", "command", "decision", "code", "fragment"),
    [t[1:] for t in TABLE],
    ids=[t[0] for t in TABLE],
)
def test_bash_decisions(
    configured: Path,
    make_payload: Any,
    who: dict[str, Any],
    command: str,
    decision: str,
    code: str | None,
    fragment: str,
) -> None:
    payload = make_payload("Bash", {"command": command, "description": "x"}, **who)
    rc, out, _ = run_hook(payload, {"CLAUDE_PROJECT_DIR": str(configured)})
    assert rc == 0
    if decision == "none":
        assert out is None
        return
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
    data = json.loads(reason.rsplit("\n", 1)[1])
    assert data["error"] == code
    assert fragment in reason


@pytest.mark.parametrize(
    ("mode", "decision"), [("allow", None), ("warn", "context"), ("deny", "deny")]
)
def test_opaque_modes(project: Path, make_payload: Any, mode: str, decision: str | None) -> None:
    (project / ".claude/boundary.toml").write_text(
        f'phase = "enforce"\n[bash]\nopaque = "{mode}"\n'
    )
    _, out, _ = run_hook(
        make_payload("Bash", {"command": "make build"}), {"CLAUDE_PROJECT_DIR": str(project)}
    )
    if decision is None:
        assert out is None
    elif decision == "context":
        assert "bash.opaque = warn" in out["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
        assert "permissionDecision" not in out["hookSpecificOutput"]  # type: ignore[index]
    else:
        assert "BASH_OPAQUE" in out["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]


def test_unparseable_can_be_allowed(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text(
        'phase = "enforce"\n[bash]\nunparseable = "allow"\n'
    )
    _, out, _ = run_hook(
        make_payload("Bash", {"command": "echo $(( 1 +"}), {"CLAUDE_PROJECT_DIR": str(project)}
    )
    assert out is None


def test_cd_is_followed_within_the_command(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text(
        'phase = "enforce"\n[orchestrator]\nwrite_allow = ["docs/**"]\n'
    )
    (project / "docs").mkdir()
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    _, out, _ = run_hook(make_payload("Bash", {"command": "cd docs && echo x > a.md"}), env)
    assert out is None
    _, out, _ = run_hook(make_payload("Bash", {"command": "cd src && echo x > a.md"}), env)
    assert out is not None and "src/a.md" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_bash_cwd_comes_from_the_payload(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text(
        'phase = "enforce"\n[orchestrator]\nwrite_allow = ["docs/**"]\n'
    )
    (project / "docs").mkdir()
    _, out, _ = run_hook(
        make_payload("Bash", {"command": "echo x > a.md"}, cwd=project / "docs"),
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    assert out is None


def test_powershell_redirect_is_a_write(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text('phase = "enforce"\n')
    _, out, _ = run_hook(
        make_payload("PowerShell", {"command": "Set-Content -Path a.txt -Value x"}),
        {"CLAUDE_PROJECT_DIR": str(project)},
    )
    assert out is not None and "BASH_WRITE" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_audit_records_bash_status(project: Path, make_payload: Any) -> None:
    run_hook(make_payload("Bash", {"command": "ls"}), {"CLAUDE_PROJECT_DIR": str(project)})
    rec = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert rec["bash_status"] == "read_only" and rec["tool_class"] == "execute"
