"""Windows spellings of a protected file that name it under another name: NTFS streams on a
file or a folder component (``settings.json::$DATA.``, ``.claude::$INDEX_ALLOCATION``,
``.claude:$I30:$INDEX_ALLOCATION``, named streams) and administrative shares of this machine
(``\\\\localhost\\C$``, ``\\\\127.0.0.1\\c$``, below ``\\\\?\\UNC\\`` and ``\\\\.\\UNC\\``).

Judged two ways, both through the public entries: as ``orchestrator-boundary check`` judges a
payload recorded on Windows from this machine (``foreign.setup_for`` + ``shell.judge``, the
Windows path rules without the Windows file system), and on (simulated) Windows with the
hook's own ``setup`` (tests/windows_sim.py), the project on ``C:``.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from test_windows_paths import _payload, judge_on_c, verdict_of

from orchestrator_boundary.cmd_check import verdict_summary
from orchestrator_boundary.foreign import setup_for
from orchestrator_boundary.payload import parse_payload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.shell import judge

ROOT = "C:\\Users\\dev\\proj"
SETTINGS = f"{ROOT}\\.claude\\settings.json"
MAIN, GENERAL = "main", "general-purpose"

# (id, path) of spellings that name .claude\settings.json of the project
PROTECTED = [
    ("data-stream-then-dot", f"{SETTINGS}::$DATA."),
    ("data-stream-then-dots-and-spaces", f"{SETTINGS}::$DATA. . "),
    ("data-stream-lower-case", f"{SETTINGS}::$data."),
    ("folder-index-allocation", f"{ROOT}\\.claude::$INDEX_ALLOCATION\\settings.json"),
    ("folder-i30-index-allocation", f"{ROOT}\\.claude:$I30:$INDEX_ALLOCATION\\settings.json"),
    ("named-stream", f"{SETTINGS}:stream"),
    ("named-stream-data", f"{SETTINGS}:stream:$DATA"),
    ("stream-on-both", f"{ROOT}\\.claude::$INDEX_ALLOCATION\\settings.json::$DATA."),
    ("admin-share-localhost", "\\\\localhost\\C$\\Users\\dev\\proj\\.claude\\settings.json"),
    ("admin-share-loopback-ip", "\\\\127.0.0.1\\c$\\Users\\dev\\proj\\.claude\\settings.json"),
    ("admin-share-long-unc", "\\\\?\\UNC\\localhost\\C$\\Users\\dev\\proj\\.claude\\settings.json"),
    ("admin-share-device-unc", "\\\\.\\UNC\\127.0.0.1\\C$\\Users\\dev\\proj\\.claude\\settings.json"),
    ("admin-share-forward-slashes", "//LOCALHOST/c$/users/dev/proj/.claude/settings.json"),
    ("admin-share-and-stream", "\\\\localhost\\C$\\Users\\dev\\proj\\.claude\\settings.json::$DATA."),
]  # fmt: skip

# (id, who, tool, tool_input, decision in warn, code): other tools and other files
OTHERS: list[tuple[str, str, str, dict[str, Any], str, str | None]] = [
    ("edit-config-named-stream", GENERAL, "Edit", {"file_path": f"{ROOT}\\.claude\\boundary.toml:s:$DATA", "old_string": "a", "new_string": "b"}, "deny", "TAMPER"),
    ("mcp-admin-share", GENERAL, "mcp__fs__write_file", {"path": "\\\\127.0.0.1\\c$\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("mcp-relative-folder-stream", GENERAL, "mcp__fs__write_file", {"relative_path": ".claude:$I30:$INDEX_ALLOCATION\\settings.json"}, "deny", "TAMPER"),
    ("bash-data-stream-then-dot", MAIN, "Bash", {"command": f"echo {{}} > '{SETTINGS}::$DATA.'"}, "deny", "TAMPER"),
    ("bash-rm-folder-stream", GENERAL, "Bash", {"command": f"rm -rf '{ROOT}\\.claude::$INDEX_ALLOCATION'"}, "deny", "TAMPER"),
    # in a Bash command a UNC or \\?\ path keeps its two leading slashes (it read as C:\localhost)
    ("bash-admin-share", GENERAL, "Bash", {"command": "echo {} > '\\\\localhost\\C$\\Users\\dev\\proj\\.claude\\settings.json'"}, "deny", "TAMPER"),
    ("bash-long-prefix", GENERAL, "Bash", {"command": f"echo {{}} > '\\\\?\\{SETTINGS}'"}, "deny", "TAMPER"),
    ("bash-other-host", GENERAL, "Bash", {"command": "echo x > '\\\\fileserver\\share\\notes.txt'"}, "warn", "SCOPE_VIOLATION"),
    ("home-settings-admin-share", GENERAL, "Write", {"file_path": "\\\\localhost\\C$\\Users\\dev\\.claude\\settings.json"}, "deny", "TAMPER"),
    # ordinary files stay ordinary, and an admin share of this machine is inside the project
    ("ordinary-named-stream", GENERAL, "Write", {"file_path": f"{ROOT}\\src\\a.py:stream"}, "none", None),
    ("ordinary-admin-share", GENERAL, "Write", {"file_path": "\\\\localhost\\C$\\Users\\dev\\proj\\src\\a.py"}, "none", None),
    ("main-ordinary-admin-share", MAIN, "Write", {"file_path": "\\\\localhost\\C$\\Users\\dev\\proj\\src\\a.py"}, "warn", "ORCHESTRATOR_WRITE"),
    # another machine's share is another machine's disk
    ("other-host-share", GENERAL, "Write", {"file_path": "\\\\fileserver\\C$\\Users\\dev\\proj\\.claude\\settings.json"}, "warn", "SCOPE_VIOLATION"),
    # below \\?\ a trailing dot is part of the name: another file, inside the project
    ("long-prefix-literal-dot", GENERAL, "Write", {"file_path": f"\\\\?\\{SETTINGS}."}, "none", None),
]  # fmt: skip

CASES = [
    (f"{who}-write-{case_id}", who, "Write", {"file_path": path, "content": "{}"}, "deny", "TAMPER")
    for case_id, path in PROTECTED
    for who in (MAIN, GENERAL)
] + OTHERS


def _checked(who: str, cwd: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """What ``orchestrator-boundary check --json --phase warn`` says of the payload."""
    payload = parse_payload(json.dumps(_payload(who, cwd, tool, tool_input)).encode())
    env = {"PATH": os.environ.get("PATH", "")}
    setup = setup_for(payload, env, phase_override=Phase("warn"))
    return verdict_summary(judge(payload, setup))


@pytest.mark.parametrize(
    ("who", "tool", "tool_input", "decision", "code"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_check_reads_windows_spellings_of_a_protected_file(
    who: str, tool: str, tool_input: dict[str, Any], decision: str, code: str | None
) -> None:
    got = _checked(who, ROOT, tool, tool_input)
    assert not got.get("error"), got
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (SETTINGS, "TAMPER"),
        ("\\\\localhost\\C$\\Users\\dev\\proj\\.claude\\settings.json", "TAMPER"),
        (f"{SETTINGS}::$DATA.", "TAMPER"),
        (f"{ROOT}\\src\\a.py", None),
    ],
    ids=["drive", "admin-share", "stream", "ordinary"],
)
def test_a_project_opened_through_an_admin_share_is_the_same_project(
    path: str, code: str | None
) -> None:
    """The root spelt ``\\\\localhost\\C$\\...``: its protected files are spelt so, and a
    target spelt ``C:\\...`` is the same file."""
    got = _checked(GENERAL, "\\\\localhost\\C$\\Users\\dev\\proj", "Write", {"file_path": path})
    assert got["code"] == code, got.get("reason")


# ---- on (simulated) Windows, with the hook's own setup ----

SIM_CASES = [
    (f"sim-{case_id}", GENERAL, "Write", {"file_path": path}, "deny", "TAMPER")
    for case_id, path in PROTECTED
    if "127.0.0.1" not in path  # the simulation maps \\localhost\C$, not every loopback name
] + [
    ("sim-ordinary-stream", GENERAL, "Write", {"file_path": f"{ROOT}\\src\\a.py::$DATA."}, "none", None),
    ("sim-ordinary-admin-share", GENERAL, "Write", {"file_path": "\\\\localhost\\C$\\Users\\dev\\proj\\src\\a.py"}, "none", None),
]  # fmt: skip


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every simulated case judged in one interpreter under the simulation: {id: summary}."""
    base = tmp_path_factory.mktemp("windows-spellings")
    return judge_on_c(
        base, SIM_CASES, {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}, ("\\\\localhost\\C$",)
    )


@pytest.mark.parametrize(
    ("case_id", "decision", "code"),
    [(c[0], c[4], c[5]) for c in SIM_CASES],
    ids=[c[0] for c in SIM_CASES],
)
def test_windows_reads_the_spellings_as_the_protected_file(
    simulated: dict[str, Any], case_id: str, decision: str, code: str | None
) -> None:
    got = verdict_of(simulated, case_id)
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")
