"""Spellings of a path that reach another file than the one they read as (ADR 0051).

- Claude Code's file tools trim white space (JavaScript's ``trim``) from both ends of
  ``file_path`` before they use it: a Write to ``<root>/.claude/settings.json\\n`` writes the
  settings (tests/e2e/test_paths_e2e.py shows it on the real CLI), on every platform.
- On Windows, ``/c/Users/...`` (Git Bash's spelling, which models copy from its prompt; real
  Windows payloads carry it) is ``C:\\Users\\...`` to Claude Code's file tools and to Git Bash;
  ``/cygdrive/c/`` and ``/mnt/c/`` may be; ``\\??\\C:\\`` (the NT namespace) is ``C:\\`` to
  .NET, so to PowerShell.
- On macOS, ``/System/Volumes/Data/x`` is ``/x``.

Judged through the public entries: as ``orchestrator-boundary check`` judges a payload recorded
on Windows (``foreign.setup_for``), on (simulated) Windows with the hook's own ``setup``, and on
this machine with the hook's own ``setup``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from test_windows_paths import _payload, judge_on_c, verdict_of

from orchestrator_boundary.cmd_check import verdict_summary
from orchestrator_boundary.foreign import setup_for
from orchestrator_boundary.fs import ForeignFileSystem
from orchestrator_boundary.paths import locate, readings
from orchestrator_boundary.payload import parse_payload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.setups import setup
from orchestrator_boundary.shell import judge

ROOT = "C:\\Users\\dev\\proj"
MAIN, CODER, GENERAL = "main", "coder", "general-purpose"
CONFIG = 'phase = "enforce"\n[orchestrator]\nwrite_allow = ["STATE.md"]\n[agents.coder]\nwrite_scope = ["src/**"]\n'  # fmt: skip
SETTINGS = f"{ROOT}\\.claude\\settings.json"
BASH_SETTINGS = "/c/Users/dev/proj/.claude/settings.json"

# (id, who, cwd, tool, tool_input, decision, code): a payload recorded on Windows, in enforce
WINDOWS: list[tuple[str, str, str, str, dict[str, Any], str, str | None]] = [
    # Git Bash's drive spelling is the drive: protected, in scope, in write_allow
    ("git-bash-settings-main", MAIN, ROOT, "Write", {"file_path": BASH_SETTINGS}, "deny", "TAMPER"),
    ("git-bash-settings-sub", GENERAL, ROOT, "Edit", {"file_path": BASH_SETTINGS}, "deny", "TAMPER"),
    ("git-bash-upper-drive", GENERAL, ROOT, "Write", {"file_path": "/C/users/dev/proj/.CLAUDE/settings.json"}, "deny", "TAMPER"),
    ("git-bash-home-settings", GENERAL, ROOT, "Write", {"file_path": "/c/Users/dev/.claude/settings.json"}, "deny", "TAMPER"),
    ("git-bash-in-scope", CODER, ROOT, "Write", {"file_path": "/c/Users/dev/proj/src/b.py"}, "none", None),
    ("git-bash-out-of-scope", CODER, ROOT, "Write", {"file_path": "/c/Users/dev/proj/docs/x.md"}, "deny", "SCOPE_VIOLATION"),
    ("git-bash-write-allow", MAIN, ROOT, "Write", {"file_path": "/c/Users/dev/proj/STATE.md"}, "none", None),
    ("git-bash-main-src", MAIN, ROOT, "Edit", {"file_path": "/c/Users/dev/proj/src/a.py"}, "deny", "ORCHESTRATOR_WRITE"),
    ("git-bash-other-drive", CODER, ROOT, "Write", {"file_path": "/d/Users/dev/proj/src/b.py"}, "deny", "SCOPE_VIOLATION"),
    ("git-bash-read", MAIN, ROOT, "Read", {"file_path": "/c/Users/dev/proj/src/a.py"}, "none", None),
    # the literal reading (PowerShell, an MCP server: <cwd's drive>:\p\proj) still meets the guard
    ("git-bash-literal-reading", GENERAL, "C:\\p\\proj", "Write", {"file_path": "/p/proj/.claude/settings.json"}, "deny", "TAMPER"),
    ("cygdrive-settings", GENERAL, ROOT, "Write", {"file_path": "/cygdrive/c/Users/dev/proj/.claude/settings.json"}, "deny", "TAMPER"),
    ("wsl-mount-settings", GENERAL, ROOT, "Write", {"file_path": "/mnt/c/Users/dev/proj/.claude/boundary.toml"}, "deny", "TAMPER"),
    ("nt-namespace-settings", GENERAL, ROOT, "Write", {"file_path": f"\\??\\{SETTINGS}"}, "deny", "TAMPER"),
    ("nt-namespace-forward", MAIN, ROOT, "Write", {"file_path": "/??/c:/Users/dev/proj/.claude/settings.json"}, "deny", "TAMPER"),
    # this machine's administrative shares, by its loopback address in any form
    ("loopback-short", GENERAL, ROOT, "Write", {"file_path": "\\\\127.1\\C$\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("loopback-decimal", GENERAL, ROOT, "Write", {"file_path": "\\\\2130706433\\c$\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("loopback-hex", GENERAL, ROOT, "Write", {"file_path": "//0x7f000001/C$/Users/dev/proj/.claude/settings.json"}, "deny", "TAMPER"),
    ("loopback-octal", GENERAL, ROOT, "Write", {"file_path": "\\\\0177.0.0.1\\C$\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("other-host-address", GENERAL, ROOT, "Write", {"file_path": "\\\\128.0.0.1\\C$\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "SCOPE_VIOLATION"),
    # white space Claude Code trims
    ("newline-after", GENERAL, ROOT, "Write", {"file_path": f"{SETTINGS}\n"}, "deny", "TAMPER"),
    ("tab-after", GENERAL, ROOT, "Write", {"file_path": f"{SETTINGS}\t"}, "deny", "TAMPER"),
    ("spaces-before", GENERAL, ROOT, "Write", {"file_path": f"  {SETTINGS}"}, "deny", "TAMPER"),
    ("ideographic-space", GENERAL, ROOT, "Write", {"file_path": f"{SETTINGS}\u3000"}, "deny", "TAMPER"),
    ("bom-before", GENERAL, ROOT, "Write", {"file_path": f"\ufeff{SETTINGS}"}, "deny", "TAMPER"),
    ("git-bash-and-newline", GENERAL, ROOT, "Write", {"file_path": f"{BASH_SETTINGS}\r\n"}, "deny", "TAMPER"),
    ("trimmed-in-scope", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\src\\b.py\n"}, "none", None),
    # the orchestrator's and a subagent's Bash in Git Bash
    ("bash-git-bash-main", MAIN, ROOT, "Bash", {"command": f"echo {{}} > {BASH_SETTINGS}"}, "deny", "TAMPER"),
    ("bash-git-bash-sub", GENERAL, ROOT, "Bash", {"command": f"cp x.json {BASH_SETTINGS}"}, "deny", "TAMPER"),
    ("bash-git-bash-in-scope", CODER, ROOT, "Bash", {"command": "echo x > /c/Users/dev/proj/src/b.py"}, "none", None),
]  # fmt: skip


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("config") / "boundary.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("who", "cwd", "tool", "tool_input", "decision", "code"),
    [c[1:] for c in WINDOWS],
    ids=[c[0] for c in WINDOWS],
)
def test_check_reads_a_windows_spelling_as_the_file_it_reaches(
    config_file: str,
    who: str,
    cwd: str,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    assert_foreign_verdict(_payload(who, cwd, tool, tool_input), config_file, decision, code)


def assert_foreign_verdict(
    data: dict[str, Any], config_file: str, decision: str, code: str | None
) -> None:
    """``data``, a payload recorded on another machine, judged by ``check``'s route (the
    recording platform's path rules) with ``config_file`` in enforce."""
    payload = parse_payload(json.dumps(data).encode())
    env = {"PATH": os.environ.get("PATH", "")}
    setup = setup_for(payload, env, config_file=config_file, phase_override=Phase("enforce"))
    got = verdict_summary(judge(payload, setup))
    assert not got.get("error"), got
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


# ---- on (simulated) Windows, with the hook's own setup ----

SIM = [
    ("sim-git-bash-settings", GENERAL, "Write", {"file_path": BASH_SETTINGS}, "deny", "TAMPER"),
    ("sim-git-bash-in-root", GENERAL, "Write", {"file_path": "/c/Users/dev/proj/src/b.py"}, "none", None),
    ("sim-git-bash-write-allow", MAIN, "Write", {"file_path": "/c/Users/dev/proj/STATE.md"}, "none", None),
    ("sim-newline", GENERAL, "Write", {"file_path": f"{SETTINGS}\n"}, "deny", "TAMPER"),
    ("sim-nt-namespace", GENERAL, "Write", {"file_path": f"\\??\\{SETTINGS}"}, "deny", "TAMPER"),
    ("sim-bash-git-bash", GENERAL, "Bash", {"command": f"echo {{}} > {BASH_SETTINGS}"}, "deny", "TAMPER"),
]  # fmt: skip


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("windows-git-bash")
    return judge_on_c(base, SIM, {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"})


@pytest.mark.parametrize(
    ("case_id", "decision", "code"),
    [(c[0], c[4], c[5]) for c in SIM],
    ids=[c[0] for c in SIM],
)
def test_windows_reads_the_spelling_as_the_file_it_reaches(
    simulated: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    got = verdict_of(simulated, case_id)
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


# Claude Code hands a hook run by Git Bash the project folder with forward slashes
# (CLAUDE_PROJECT_DIR=C:/Users/dev/proj), and Git Bash's HOME is /c/Users/dev.
GIT_BASH_ENV = {
    "CLAUDE_PROJECT_DIR": "C:/Users/dev/proj",
    "HOME": "/c/Users/dev",
    "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
}
SIM_GIT_BASH_ENV = [
    ("fwd-settings", GENERAL, "Write", {"file_path": SETTINGS}, "deny", "TAMPER"),
    ("fwd-home-settings", GENERAL, "Write", {"file_path": "/c/Users/dev/.claude/settings.json"}, "deny", "TAMPER"),
    ("fwd-bash-home-settings", GENERAL, "Bash", {"command": "echo {} > ~/.claude/settings.json"}, "deny", "TAMPER"),
    ("fwd-in-root", GENERAL, "Write", {"file_path": f"{ROOT}\\src\\b.py"}, "none", None),
    ("fwd-main-write-allow", MAIN, "Write", {"file_path": f"{ROOT}\\STATE.md"}, "none", None),
    ("fwd-main-src", MAIN, "Write", {"file_path": f"{ROOT}\\src\\a.py"}, "deny", "ORCHESTRATOR_WRITE"),
]  # fmt: skip


def test_a_hook_run_by_git_bash_finds_its_project_and_home(tmp_path: Path) -> None:
    got = judge_on_c(tmp_path, SIM_GIT_BASH_ENV, GIT_BASH_ENV)
    assert "crashed" not in got, "the judge did not run:\n" + got["crashed"]
    decided = {case_id: (got[case_id].get("decision"), got[case_id].get("code")) for case_id, *_ in SIM_GIT_BASH_ENV}  # fmt: skip
    assert decided == {c[0]: (c[4], c[5]) for c in SIM_GIT_BASH_ENV}


# ---- this machine (POSIX), the hook's own setup ----

# (id, who, path below the root with {root} for the root, decision, code)
HERE = [
    ("newline-after", GENERAL, "{root}/.claude/settings.json\n", "deny", "TAMPER"),
    ("crlf-after", MAIN, "{root}/.claude/boundary.toml\r\n", "deny", "TAMPER"),
    ("tab-after-slash", GENERAL, "{root}/.claude/settings.json/\t", "deny", "TAMPER"),
    ("spaces-before", GENERAL, "   {root}/.claude/settings.json", "deny", "TAMPER"),
    ("no-break-space", GENERAL, "{root}/.claude/settings.json\u00a0", "deny", "TAMPER"),
    ("line-separator", GENERAL, "{root}/.claude/settings.json\u2028", "deny", "TAMPER"),
    ("ideographic-space", GENERAL, "{root}/.claude/settings.json\u3000", "deny", "TAMPER"),
    ("macos-data-volume", GENERAL, "/System/Volumes/Data{root}/.claude/settings.json", "deny", "TAMPER"),
    ("trimmed-ordinary", GENERAL, "{root}/src/a.py\n", "none", None),
    # to a tool that does not trim, "STATE.md\n" is another file: both must be allowed
    ("trimmed-main-write-allow", MAIN, "{root}/STATE.md\n", "deny", "ORCHESTRATOR_WRITE"),
    ("trimmed-main-src", MAIN, "{root}/src/a.py\n", "deny", "ORCHESTRATOR_WRITE"),
    # white space inside a name is part of it; only a zero-width space is not white space
    ("zero-width-space", GENERAL, "{root}/.claude/settings.json\u200b", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "path", "decision", "code"), [c[1:] for c in HERE], ids=[c[0] for c in HERE]
)
def test_this_machine_reads_the_path_claude_code_writes(
    tmp_path: Path, who: str, path: str, decision: str, code: str | None
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(CONFIG, encoding="utf-8")
    (root / ".claude" / "settings.json").write_text("{}\n", encoding="utf-8")
    (root / "src").mkdir()
    real = os.path.realpath(root)
    data = {
        "session_id": "s",
        "transcript_path": f"{tmp_path}/home/.claude/projects/p/s.jsonl",
        "cwd": real,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path.format(root=real), "content": "{}"},
    }
    if who != MAIN:
        data.update(agent_id="a1b2c3d4e5f607182", agent_type=who)
    env = {"CLAUDE_PROJECT_DIR": real, "HOME": str(tmp_path / "home")}
    env["ORCHESTRATOR_BOUNDARY_NO_DAEMON"] = "1"
    payload = parse_payload(json.dumps(data).encode())
    got = verdict_summary(judge(payload, setup(real, env)))
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


@pytest.mark.parametrize(
    ("raw", "windows", "spelt", "guard_only"),
    [
        ("/c/Users/x", True, ["C:\\Users/x"], ["/c/Users/x"]),
        ("/c", True, ["C:\\"], ["/c"]),
        ("/cd/x", True, ["/cd/x"], []),
        ("/cygdrive/d/x", True, ["/cygdrive/d/x", "D:\\x"], []),
        ("\\??\\C:\\x", True, ["\\??\\C:\\x", "\\\\?\\C:\\x"], []),
        ("C:\\x\n", True, ["C:\\x", "C:\\x\n"], []),
        ("C:\\x", True, ["C:\\x"], []),
        ("/a\\b", False, ["/a\\b", "/a/b"], []),
        ("/System/Volumes/Data/Users/x", False, ["/System/Volumes/Data/Users/x", "/Users/x"], []),
        ("/c/x", False, ["/c/x"], []),
        ("/x\t", False, ["/x", "/x\t"], []),
        ("\n", False, ["\n"], []),
    ],
    ids=[
        "git-bash", "git-bash-drive-root", "two-letters", "cygdrive", "nt-namespace", "trimmed",
        "plain", "posix-backslash", "macos-data", "posix-keeps-slash-c", "posix-trimmed",
        "only-white-space",
    ],
)  # fmt: skip
def test_the_readings_of_a_path(
    raw: str, windows: bool, spelt: list[str], guard_only: list[str]
) -> None:
    assert readings(raw, windows) == (spelt, guard_only)


@pytest.mark.parametrize(
    ("raw", "relatives", "absolutes", "aliases"),
    [
        ("/c/Users/dev/proj/src/a.py", ("src/a.py",), ("C:\\Users\\dev\\proj\\src\\a.py", "C:\\c\\Users\\dev\\proj\\src\\a.py"), ("C:\\c\\Users\\dev\\proj\\src\\a.py",)),
        ("/cygdrive/c/Users/dev/proj/src/a.py", (), ("C:\\cygdrive\\c\\Users\\dev\\proj\\src\\a.py", "C:\\Users\\dev\\proj\\src\\a.py"), ()),
        ("C:\\Users\\dev\\proj\\src\\a.py\n", ("src/a.py", "src/a.py\n"), ("C:\\Users\\dev\\proj\\src\\a.py", "C:\\Users\\dev\\proj\\src\\a.py\n"), ()),
    ],
    ids=["git-bash", "cygdrive", "trimmed"],
)  # fmt: skip
def test_a_git_bash_drives_literal_reading_is_for_the_guard_only(
    raw: str, relatives: tuple[str, ...], absolutes: tuple[str, ...], aliases: tuple[str, ...]
) -> None:
    """Scope rules read ``relatives`` and every absolute but ``aliases``; the protected set
    reads every absolute (ADR 0051)."""
    got = locate(raw, ROOT, ForeignFileSystem(True, drive="C:"))
    assert (got.relatives, got.absolutes, got.aliases) == (relatives, absolutes, aliases)
