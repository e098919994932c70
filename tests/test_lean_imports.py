"""What an in-process hook call imports (issue 15 point 7, ADR 0030): only what it needs.

Each case runs the command ``install`` registers (``registration.entries``), with
``ORCHESTRATOR_BOUNDARY_NO_DAEMON=1`` so the call is judged in the hook's own process, and
with ``-X importtime`` added after the interpreter so that the process lists every module it
imported. The first call of a project validates its config (pydantic) and leaves the compiled
form; the calls compared here are the ones after it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary import registration

# Never imported by an orchestrator Read judged in process: pattern matching (no pattern is
# matched), the state store (nothing is asked of it before the call), config validation (the
# compiled form is read), the Bash analysis, and a logging stack for the audit line (ADR 0035).
NOT_FOR_A_READ = frozenset(
    {"pathspec", "sqlite3", "pydantic", "tomllib", "tree_sitter"}
    | {"structlog", "asyncio", "ssl", "logging"}
    # the package's value classes are ``values``, its annotations need no ``typing`` at run
    # time, and the digests and timestamps come from built-ins (ADR 0042)
    | {"dataclasses", "inspect", "typing", "hashlib", "_hashlib", "datetime"}
    # nor the protected set, made when a call first asks for it (and with it, the
    # interpreter's own paths, from sysconfig)
    | {"sysconfig"}
)
# Nor, of the package, what only other calls reach (issue 15 point 7): the field check (warn
# only, ADR 0029), the Bash model and analysis (a command), the delegation-contract rules and
# records (an Agent call, a subagent, a write asked of the state store), the argument walk of
# an unknown tool, and, through those, urllib.parse, ipaddress and zlib.
PACKAGE_NOT_FOR_A_READ = frozenset(
    {"field_check", "field_scan", "field_cli", "field_store", "field", "bash"}
    | {"contracts", "delegation", "tool_args", "state", "stores", "config_schema"}
)
NOT_FOR_A_READ |= {"urllib", "ipaddress", "zlib"}
# A denied orchestrator Write matches its path against write_allow with the translations the
# compiled config kept (ADR 0043), and is denied before its staleness is asked of the state
# store: it imports no more than a Read, but for the protected set it is checked against.
NOT_FOR_A_DENIED_WRITE = NOT_FOR_A_READ - {"sysconfig"}

CONFIG = """\
[orchestrator]
write_allow = ["STATE.md", "docs/plans/**"]

[agents.coder]
tools = ["Write", "Edit", "Read", "Glob", "Grep"]
write_scope = ["src/**", "tests/**", "!**/*.lock"]
"""


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / ".claude").mkdir()
    (root / ".claude" / "boundary.toml").write_text(CONFIG)
    rt = tmp_path / "rt"
    rt.mkdir(mode=0o700)
    env = {
        **os.environ,
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(rt),  # where the compiled config is kept
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
    }
    return root, env


def _payload(root: Path, tool: str, event: str, **tool_input: str) -> bytes:
    data: dict[str, object] = {
        "session_id": "s-1",
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(root),
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": {"file_path": str(root / "src" / "app.py"), **tool_input},
        "tool_use_id": "toolu_1",
    }
    if event == "PostToolUse":
        data["tool_response"] = {"type": "text"}
    return json.dumps(data).encode()


def _registered_with_importtime(event: str) -> list[str]:
    """The registered command for ``event``, with ``-X importtime`` after the interpreter."""
    entry = registration.entries("local", "enforce", python=sys.executable)[event]
    argv = registration.entry_argv(entry)  # past the guard for a removed package (ADR 0052)
    assert argv[0] == sys.executable and argv[1:3] == ["-I", "-S"], argv
    return [argv[0], "-X", "importtime", *argv[1:]]


def _imported(
    argv: list[str], payload: bytes, env: dict[str, str], root: Path
) -> tuple[set[str], int, str]:
    done = subprocess.run(
        argv, input=payload, env=env, cwd=root, capture_output=True, timeout=120, check=False
    )
    names = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr.decode(), re.M)
    return set(names), done.returncode, done.stdout.decode()


def _top_level(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


def _package(names: set[str]) -> set[str]:
    """The package's own modules among ``names``, by their first name below the package
    (``bash.model`` counts as ``bash``)."""
    prefix = "orchestrator_boundary."
    return {n[len(prefix) :].split(".")[0] for n in names if n.startswith(prefix)}


@pytest.mark.parametrize(
    ("tool", "extra", "never", "verdict"),
    [
        ("Read", {}, NOT_FOR_A_READ, ""),
        ("Write", {"content": "x = 2\n"}, NOT_FOR_A_DENIED_WRITE, "deny"),
    ],
    ids=["orchestrator-read", "orchestrator-write-denied"],
)
def test_an_in_process_call_imports_only_what_it_needs(
    tmp_path: Path, tool: str, extra: dict[str, str], never: frozenset[str], verdict: str
) -> None:
    root, env = _project(tmp_path)
    argv = _registered_with_importtime("PreToolUse")
    payload = _payload(root, tool, "PreToolUse", **extra)
    first, code, _ = _imported(argv, payload, env, root)
    assert code == 0 and "pydantic" in _top_level(first)  # the first call validates the config
    names, code, out = _imported(argv, payload, env, root)
    decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"] if out else ""
    assert (code, decision) == (0, verdict)
    assert "orchestrator_boundary.shell" in names  # judged in this process
    assert _top_level(names) & never == set()
    assert _package(names) & PACKAGE_NOT_FOR_A_READ == set()


def test_the_check_sees_the_modules_a_call_does_not_need(tmp_path: Path) -> None:
    # the same check on calls that need them: a Bash command (the analysis), an Agent call
    # with an intent directive (the contract rules and records), a file: URI for an unknown
    # tool (the argument walk and urllib.parse)
    root, env = _project(tmp_path)
    argv = _registered_with_importtime("PreToolUse")
    cases = {
        "Bash": ({"command": "ls src"}, {"bash"}, set()),
        "Agent": ({"prompt": "Intent: none", "subagent_type": "coder"}, {"contracts"}, set()),
        "mcp__fs__read": ({"uri": f"file://{root}/src/app.py"}, {"tool_args"}, {"urllib"}),
    }
    for tool, (tool_input, package, stdlib) in cases.items():
        data = json.loads(_payload(root, tool, "PreToolUse"))
        data["tool_input"] = tool_input
        names, code, _ = _imported(argv, json.dumps(data).encode(), env, root)
        assert code in (0, 2), tool
        assert package <= _package(names) & PACKAGE_NOT_FOR_A_READ, tool
        assert stdlib <= _top_level(names) & NOT_FOR_A_READ, tool


def test_a_read_is_still_recorded_in_the_state_store_after_it_ran(tmp_path: Path) -> None:
    # what an agent read is kept for the stale-write check (ADR 0027): the PostToolUse of a
    # Read opens the store, and so imports sqlite3, where its PreToolUse did not
    root, env = _project(tmp_path)
    argv = _registered_with_importtime("PostToolUse")
    names, code, _ = _imported(argv, _payload(root, "Read", "PostToolUse"), env, root)
    assert code == 0 and "sqlite3" in _top_level(names)
    state = root / ".claude" / "boundary" / "audit.jsonl.state.sqlite3"
    assert state.is_file()
