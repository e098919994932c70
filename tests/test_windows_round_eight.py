"""Round eight on Windows (ADR 0066), judged as ``orchestrator-boundary check`` judges a payload
recorded on Windows (``foreign.setup_for`` + ``shell.judge``, the Windows path rules), in warn:
only a TAMPER is a deny there.

- A path rooted on no drive (``\\Users\\dev\\proj\\.claude\\settings.json``, or with forward
  slashes) is on the current drive for Claude Code's file tools (Node's ``path.resolve``): the
  project's. It was read as a path of no drive, outside the project, and missed.
- ``\\\\?\\GLOBALROOT\\??\\C:\\...`` names the drive path through the NT object namespace, as
  ``\\??\\C:\\...`` does.
- PowerShell's analysis keeps no text of a target built from a variable (``Set-Content -Path
  "$env:USERPROFILE\\.claude\\settings.json"``): the command's words are the guess now, so a
  protected name spelled in them is TAMPER, as a Bash redirect to ``"$X/.claude/settings.json"``
  already was.
- A word of an opaque command made of a variable alone (``npm run build -- --out "$OUT"``)
  named the POSIX root there, which holds ``/etc/claude-code``: TAMPER for every such command
  on Windows. The root has no name a word could spell.
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
MAIN, GENERAL = "main", "general-purpose"
PS = "PowerShell"

# (id, who, tool, tool_input, decision in warn, code)
CASES: list[tuple[str, str, str, dict[str, Any], str, str | None]] = [
    ("rooted-backslashes", GENERAL, "Write", {"file_path": "\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("rooted-forward-slashes", GENERAL, "Write", {"file_path": "/Users/dev/proj/.claude/settings.json"}, "deny", "TAMPER"),
    ("rooted-main", MAIN, "Edit", {"file_path": "\\Users\\dev\\proj\\.claude\\boundary.toml"}, "deny", "TAMPER"),
    ("rooted-home-settings", GENERAL, "Write", {"file_path": "\\Users\\dev\\.claude\\cowork_settings.json"}, "deny", "TAMPER"),
    ("rooted-mcp", GENERAL, "mcp__fs__write_file", {"path": "\\Users\\dev\\proj\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("globalroot", GENERAL, "Write", {"file_path": f"\\\\?\\GLOBALROOT\\??\\{ROOT}\\.claude\\settings.json"}, "deny", "TAMPER"),
    ("ps-env-userprofile", GENERAL, PS, {"command": "Set-Content -Path \"$env:USERPROFILE\\.claude\\settings.json\" -Value '{}'"}, "deny", "TAMPER"),
    ("ps-env-unquoted", GENERAL, PS, {"command": "Set-Content -Path $env:USERPROFILE\\.claude\\settings.json -Value x"}, "deny", "TAMPER"),
    ("ps-home", GENERAL, PS, {"command": "Out-File -FilePath \"$HOME\\.claude\\settings.json\""}, "deny", "TAMPER"),
    ("ps-redirect-var", GENERAL, PS, {"command": "'{}' > \"$root\\.claude\\settings.local.json\""}, "deny", "TAMPER"),
    # what stays ordinary
    ("rooted-ordinary", GENERAL, "Write", {"file_path": "/Users/dev/proj/src/a.py"}, "none", None),
    ("rooted-ordinary-main", MAIN, "Write", {"file_path": "\\Users\\dev\\proj\\src\\a.py"}, "warn", "ORCHESTRATOR_WRITE"),
    ("ps-var-ordinary", GENERAL, PS, {"command": "Set-Content -Path \"$out\\report.txt\" -Value x"}, "none", None),
    ("ps-var-alone", GENERAL, PS, {"command": "Set-Content -Path $p -Value x"}, "none", None),
    # a lone variable handed to a program the analysis does not know named the POSIX root,
    # which holds /etc/claude-code: TAMPER for every such command on Windows, in warn too
    ("bash-opaque-var", GENERAL, "Bash", {"command": "frob \"$X\""}, "none", None),
    ("bash-npm-var", GENERAL, "Bash", {"command": "npm run build -- --out \"$OUT\""}, "none", None),
    ("bash-script-arg", GENERAL, "Bash", {"command": "python scripts/x.py \"$1\""}, "none", None),
    ("bash-opaque-var-spelled", GENERAL, "Bash", {"command": "frob \"$X/.claude/settings.json\""}, "deny", "TAMPER"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "tool", "tool_input", "decision", "code"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_round_eight_windows_spellings(
    who: str, tool: str, tool_input: dict[str, Any], decision: str, code: str | None
) -> None:
    payload = parse_payload(json.dumps(_payload(who, ROOT, tool, tool_input)).encode())
    setup = setup_for(payload, {"PATH": os.environ.get("PATH", "")}, phase_override=Phase("warn"))
    got = verdict_summary(judge(payload, setup))
    assert not got.get("error"), got
    assert (got["decision"], got["code"]) == (decision, code), got.get("reason")


# The same rooted spellings with the hook's own Setup on (simulated) Windows, the project on
# C: (tests/windows_sim.py): there the file system, not the foreign rules, reads the path.
SIMULATED = [c for c in CASES if c[0].startswith("rooted")]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return judge_on_c(tmp_path_factory.mktemp("round-eight"), SIMULATED)


@pytest.mark.parametrize(
    ("case_id", "code"), [(c[0], c[5]) for c in SIMULATED], ids=[c[0] for c in SIMULATED]
)
def test_a_path_rooted_on_no_drive_is_on_the_projects_drive(
    simulated: dict[str, Any], case_id: str, code: str | None
) -> None:
    got = verdict_of(simulated, case_id)
    assert got["code"] == code, got.get("reason")
