"""Issue 15, point 3: Windows paths in every rule, judged on (simulated) Windows.

Payloads shaped like the ones Claude Code records on Windows (drive paths, UNC paths, ``\\\\?\\``
prefixes, mixed separators, other letter case) go through the public judging API
(``setups.setup`` + ``shell.judge``, as ``orchestrator-boundary check`` uses it) in one
interpreter started under the Windows simulation (tests/windows_sim.py, ``paths=True``): the
project lives on ``C:`` (and on ``\\\\server\\share``), folders mapped to this test's tmp dir.
Every row says what enforce must answer: ``decision`` ``none`` (no objection) or ``deny`` with
the rule's code.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest
from windows_sim import python_argv, sim_env

ROOT = "C:\\Users\\dev\\proj"
UNC_ROOT = "\\\\server\\share\\proj"
CONFIG = textwrap.dedent(
    """
    phase = "enforce"

    [orchestrator]
    write_allow = ["STATE.md", "docs/**", "notes/**"]

    [agents.coder]
    write_scope = ["src/**"]
    """
)

# The judge runs in a process of its own under the simulation; it reads every case and
# writes one summary (or the error) per case.
DRIVER = textwrap.dedent(
    """
    import json, sys
    from orchestrator_boundary.cmd_check import verdict_summary
    from orchestrator_boundary.setups import setup
    from orchestrator_boundary.shell import judge
    from orchestrator_boundary.payload import parse_payload

    with open(sys.argv[1]) as fh:
        cases = json.load(fh)
    out = {}
    for case in cases:
        try:
            payload = parse_payload(json.dumps(case["payload"]).encode())
            out[case["id"]] = verdict_summary(judge(payload, setup(payload.cwd, case["env"])))
        except Exception as exc:
            out[case["id"]] = {"error": "%s: %s" % (type(exc).__name__, exc)}
    with open(sys.argv[2], "w") as fh:
        json.dump(out, fh)
    """
)

MAIN, CODER, GENERAL = "main", "coder", "general-purpose"

# (id, who, root, tool, tool_input, decision, code, shown path or None)
CASES: list[tuple[str, str, str, str, dict[str, Any], str, str | None, str | None]] = [
    # the orchestrator: reads go, writes only to write_allow, never to the protected set
    ("main-read-drive", MAIN, ROOT, "Read", {"file_path": f"{ROOT}\\src\\a.py"}, "none", None, None),
    ("main-write-allowed", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\STATE.md"}, "none", None, "STATE.md"),
    ("main-write-allowed-case", MAIN, ROOT, "Write", {"file_path": "c:\\users\\DEV\\Proj\\state.md"}, "none", None, "STATE.md"),
    ("main-write-allowed-new-folder-case", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\NOTES\\today.md"}, "none", None, None),
    ("main-write-allowed-forward-slashes", MAIN, ROOT, "Write", {"file_path": "C:/Users/dev/proj/docs/guide.md"}, "none", None, "docs/guide.md"),
    ("main-write-allowed-long-prefix", MAIN, ROOT, "Write", {"file_path": f"\\\\?\\{ROOT}\\STATE.md"}, "none", None, "STATE.md"),
    ("main-write-src-mixed", MAIN, ROOT, "Write", {"file_path": "C:/Users/dev/proj\\src/a.py"}, "deny", "ORCHESTRATOR_WRITE", "src/a.py"),
    ("main-write-src-case", MAIN, ROOT, "Edit", {"file_path": "c:\\users\\DEV\\Proj\\SRC\\a.py"}, "deny", "ORCHESTRATOR_WRITE", "src/a.py"),
    ("main-write-src-long-prefix", MAIN, ROOT, "Write", {"file_path": f"\\\\?\\{ROOT}\\src\\a.py"}, "deny", "ORCHESTRATOR_WRITE", "src/a.py"),
    ("main-write-allowed-dotdot-escape", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\docs\\..\\src\\a.py"}, "deny", "ORCHESTRATOR_WRITE", "src/a.py"),
    ("main-write-outside", MAIN, ROOT, "Write", {"file_path": "C:\\Users\\dev\\other\\STATE.md"}, "deny", "ORCHESTRATOR_WRITE", None),
    ("main-protected-settings", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\.claude\\settings.json"}, "deny", "TAMPER", None),
    ("main-protected-settings-case", MAIN, ROOT, "Edit", {"file_path": "c:\\USERS\\dev\\proj\\.CLAUDE\\Settings.json"}, "deny", "TAMPER", None),
    ("main-protected-config-slashes", MAIN, ROOT, "Edit", {"file_path": "C:/Users/dev/proj/.claude/boundary.toml"}, "deny", "TAMPER", None),
    ("main-protected-via-dotdot", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\src\\..\\.claude\\settings.json"}, "deny", "TAMPER", None),
    ("main-protected-long-prefix", MAIN, ROOT, "Write", {"file_path": f"\\\\?\\{ROOT}\\.claude\\settings.local.json"}, "deny", "TAMPER", None),
    ("main-protected-trailing-dot", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\.claude\\settings.json."}, "deny", "TAMPER", None),
    ("main-protected-trailing-space", MAIN, ROOT, "Edit", {"file_path": f"{ROOT}\\.claude\\boundary.toml "}, "deny", "TAMPER", None),
    ("main-protected-data-stream", MAIN, ROOT, "Write", {"file_path": f"{ROOT}\\.claude\\settings.json::$DATA"}, "deny", "TAMPER", None),
    ("main-protected-home-settings", MAIN, ROOT, "Write", {"file_path": "c:\\users\\dev\\.claude\\settings.json"}, "deny", "TAMPER", None),
    # a subagent with a write scope (coder: src/**)
    ("coder-write-in-scope", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\src\\b.py"}, "none", None, "src/b.py"),
    ("coder-write-in-scope-case", CODER, ROOT, "Write", {"file_path": "c:\\users\\dev\\proj\\SRC\\b.py"}, "none", None, "src/b.py"),
    ("coder-write-in-scope-mixed", CODER, ROOT, "Edit", {"file_path": "C:/Users/dev/proj\\src/a.py"}, "none", None, "src/a.py"),
    ("coder-write-in-scope-trailing-dot", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\src\\b.py."}, "none", None, None),
    ("coder-write-out-of-scope", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\docs\\x.md"}, "deny", "SCOPE_VIOLATION", "docs/x.md"),
    ("coder-write-dotdot-out-of-scope", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\src\\..\\docs\\x.md"}, "deny", "SCOPE_VIOLATION", "docs/x.md"),
    ("coder-write-outside-root", CODER, ROOT, "Write", {"file_path": "C:\\Users\\dev\\other\\x.py"}, "deny", "SCOPE_VIOLATION", None),
    ("coder-write-other-drive", CODER, ROOT, "Write", {"file_path": "D:\\Users\\dev\\proj\\src\\x.py"}, "deny", "SCOPE_VIOLATION", None),
    ("coder-write-unc", CODER, ROOT, "Write", {"file_path": f"{UNC_ROOT}\\src\\x.py"}, "deny", "SCOPE_VIOLATION", None),
    ("coder-write-protected", CODER, ROOT, "Write", {"file_path": f"{ROOT}\\.claude\\settings.json"}, "deny", "TAMPER", None),
    # a subagent without a profile: anywhere inside the root
    ("general-write-root", GENERAL, ROOT, "Write", {"file_path": f"{ROOT}\\docs\\x.md"}, "none", None, "docs/x.md"),
    ("general-write-unc-long-prefix", GENERAL, ROOT, "Write", {"file_path": "\\\\?\\UNC\\server\\share\\proj\\x.md"}, "deny", "SCOPE_VIOLATION", None),
    ("general-write-escape", GENERAL, ROOT, "Write", {"file_path": f"{ROOT}\\..\\other\\x.md"}, "deny", "SCOPE_VIOLATION", None),
    # a project on a UNC share
    ("unc-main-write-allowed", MAIN, UNC_ROOT, "Write", {"file_path": f"{UNC_ROOT}\\STATE.md"}, "none", None, "STATE.md"),
    ("unc-main-write-src", MAIN, UNC_ROOT, "Write", {"file_path": "\\\\SERVER\\Share\\proj\\src\\a.py"}, "deny", "ORCHESTRATOR_WRITE", "src/a.py"),
    ("unc-coder-write-in-scope", CODER, UNC_ROOT, "Write", {"file_path": "//server/share/proj/src/b.py"}, "none", None, "src/b.py"),
    ("unc-coder-write-drive-path", CODER, UNC_ROOT, "Write", {"file_path": f"{ROOT}\\src\\b.py"}, "deny", "SCOPE_VIOLATION", None),
    ("unc-protected-settings", GENERAL, UNC_ROOT, "Write", {"file_path": f"{UNC_ROOT}\\.claude\\settings.json"}, "deny", "TAMPER", None),
    # the orchestrator's Bash naming Windows paths
    ("main-bash-read", MAIN, ROOT, "Bash", {"command": "cat C:/Users/dev/proj/src/a.py"}, "none", None, None),
    ("main-bash-write-src", MAIN, ROOT, "Bash", {"command": "echo x > C:/Users/dev/proj/src/a.py"}, "deny", "BASH_WRITE", None),
    ("main-bash-write-allowed", MAIN, ROOT, "Bash", {"command": "echo x > 'C:\\Users\\dev\\proj\\STATE.md'"}, "none", None, None),
    ("main-bash-write-protected", MAIN, ROOT, "Bash", {"command": "echo {} > 'c:\\users\\dev\\proj\\.claude\\settings.json'"}, "deny", "TAMPER", None),
]  # fmt: skip


def _payload(who: str, root: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000a",
        "transcript_path": "C:\\Users\\dev\\.claude\\projects\\C--Users-dev-proj\\6d1c5b2e.jsonl",
        "cwd": root,
        "permission_mode": "acceptEdits",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01WIN",
    }
    if who != MAIN:
        data["agent_id"] = "a1b2c3d4e5f607182"
        data["agent_type"] = who
    return data


def _project(folder: Path) -> None:
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "boundary.toml").write_text(CONFIG)
    (folder / ".claude" / "settings.json").write_text("{}\n")
    (folder / "src").mkdir()
    (folder / "src" / "a.py").write_text("x = 1\n")
    (folder / "docs").mkdir()
    (folder / "STATE.md").write_text("state\n")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every case judged in one interpreter under the simulation: {case id: summary}."""
    base = tmp_path_factory.mktemp("windows")
    c, share = base / "C", base / "share"
    _project(c / "Users" / "dev" / "proj")
    (c / "Users" / "dev" / "other").mkdir()
    (c / "Users" / "dev" / ".claude").mkdir()
    _project(share / "proj")
    cases = []
    for case_id, who, root, tool, tool_input, *_ in CASES:
        env = {
            "CLAUDE_PROJECT_DIR": root,
            "HOME": "C:\\Users\\dev",
            "USERPROFILE": "C:\\Users\\dev",
            "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        }
        cases.append({"id": case_id, "env": env, "payload": _payload(who, root, tool, tool_input)})
    return run_simulated(base, cases, {"C:": str(c), "\\\\server\\share": str(share)})


def judge_on_c(
    base: Path, cases: list[Any], env: dict[str, str] | None = None, shares: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``cases`` (``(id, who, tool, tool_input, ...)``) judged under the simulation in the
    project ``C:\\Users\\dev\\proj`` (drive C: mapped below ``base``, and each of ``shares``
    mapped to the same disk), with ``env`` on top of the hook's usual environment."""
    c = base / "C"
    _project(c / "Users" / "dev" / "proj")
    (c / "Users" / "dev" / ".claude").mkdir()
    full = {
        "CLAUDE_PROJECT_DIR": ROOT,
        "HOME": "C:\\Users\\dev",
        "USERPROFILE": "C:\\Users\\dev",
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        **(env or {}),
    }
    judged = [
        {"id": case_id, "env": full, "payload": _payload(who, ROOT, tool, tool_input)}
        for case_id, who, tool, tool_input, *_ in cases
    ]
    return run_simulated(base, judged, {"C:": str(c), **dict.fromkeys(shares, str(c))})


def verdict_of(judged: dict[str, Any], case_id: str) -> dict[str, Any]:
    """The summary of ``case_id`` from ``run_simulated``, once the judge ran and judged it."""
    assert "crashed" not in judged, "the judge did not run under Windows:\n" + judged["crashed"]
    got: dict[str, Any] = judged[case_id]
    assert not got.get("error"), got
    return got


def table_on_c(cases: list[Any]) -> pytest.MarkDecorator:
    """Parametrize a test over ``cases`` of ``judge_on_c`` (``(id, who, tool, tool_input,
    decision, code)``) as ``case_id, decision, code``."""
    return pytest.mark.parametrize(
        ("case_id", "decision", "code"),
        [(c[0], c[4], c[5]) for c in cases],
        ids=[c[0] for c in cases],
    )


def assert_decided(judged: dict[str, Any], case_id: str, decision: str, code: str | None) -> None:
    got = verdict_of(judged, case_id)
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


def run_simulated(
    base: Path, cases: list[dict[str, Any]], drives: dict[str, str]
) -> dict[str, Any]:
    """Judge ``cases`` (``{id, env, payload}``) in one interpreter under the simulation, with
    ``drives`` (a drive or share -> a folder here): {case id: summary}, or {"crashed": ...}."""
    (base / "cases.json").write_text(json.dumps(cases))
    (base / "driver.py").write_text(DRIVER)
    env = sim_env(
        {"PATH": os.environ.get("PATH", ""), "HOME": "C:\\Users\\dev"}, drives=drives, cwd=ROOT
    )
    argv = python_argv(str(base / "driver.py"), str(base / "cases.json"), str(base / "out.json"))
    done = subprocess.run(argv, env=env, capture_output=True, timeout=300, check=False)
    if done.returncode != 0:
        return {"crashed": done.stderr.decode(errors="replace")[-3000:]}
    result: dict[str, Any] = json.loads((base / "out.json").read_text())
    return result


@pytest.mark.parametrize(
    ("case_id", "who", "root", "tool", "tool_input", "decision", "code", "shown"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_windows_paths_are_judged_with_windows_rules(
    judged: dict[str, Any],
    case_id: str,
    who: str,
    root: str,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
    shown: str | None,
) -> None:
    got = verdict_of(judged, case_id)
    assert got["session_kind"] == ("main" if who == MAIN else "subagent")
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")
    if shown is not None:
        assert got["paths"] == [shown]
