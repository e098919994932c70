"""A payload recorded on a Mac, judged here (``check``, ``replay``) with a Mac's path rules.

APFS and HFS+ as macOS formats them ignore case and Unicode normalisation, and ``/tmp`` and
``/var`` are links into ``/private``: on a Mac, ``.Claude/SETTINGS.json`` is the project's
settings. A payload is taken as a Mac's when its cwd or transcript lies under ``/Users/``,
``/Volumes/`` or ``/private/var/folders/`` (ADR 0051); a Linux payload keeps Linux's rules.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from test_paths_spellings import assert_foreign_verdict

ROOT = "/Users/dev/proj"
MAC_TRANSCRIPT = "/Users/dev/.claude/projects/-Users-dev-proj/s.jsonl"
LINUX_TRANSCRIPT = "/home/dev/.claude/projects/-home-dev-proj/s.jsonl"
CONFIG = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["src/**"]\n'
GENERAL, CODER = "general-purpose", "coder"
NFD_ROOT = "/Users/dev/proje\u0301t"  # the folder "projét" in NFD, as HFS+ stored names

# (id, who, cwd, transcript, file_path, decision, code)
CASES = [
    ("other-case-settings", GENERAL, ROOT, MAC_TRANSCRIPT, f"{ROOT}/.Claude/SETTINGS.json", "deny", "TAMPER"),
    ("other-case-root", GENERAL, ROOT, MAC_TRANSCRIPT, "/users/DEV/proj/.claude/settings.json", "deny", "TAMPER"),
    ("other-case-home", GENERAL, ROOT, MAC_TRANSCRIPT, "/Users/dev/.CLAUDE/Settings.json", "deny", "TAMPER"),
    ("home-from-transcript", GENERAL, ROOT, MAC_TRANSCRIPT, "/Users/dev/.claude.json", "deny", "TAMPER"),
    ("managed-other-case", GENERAL, ROOT, MAC_TRANSCRIPT, "/library/application support/claudecode/MANAGED-SETTINGS.json", "deny", "TAMPER"),
    ("nfc-path-nfd-root", GENERAL, NFD_ROOT, MAC_TRANSCRIPT, "/Users/dev/proj\u00e9t/.claude/settings.json", "deny", "TAMPER"),
    ("var-to-private", GENERAL, "/private/var/folders/ab/T/proj", MAC_TRANSCRIPT, "/var/folders/ab/T/proj/.claude/settings.json", "deny", "TAMPER"),
    ("private-to-var", GENERAL, "/var/folders/ab/T/proj", MAC_TRANSCRIPT, "/private/var/folders/ab/T/proj/.claude/settings.json", "deny", "TAMPER"),
    ("tmp-to-private", GENERAL, "/private/tmp/proj", MAC_TRANSCRIPT, "/tmp/proj/.claude/boundary.toml", "deny", "TAMPER"),
    ("data-volume", GENERAL, ROOT, MAC_TRANSCRIPT, f"/System/Volumes/Data{ROOT}/.claude/settings.json", "deny", "TAMPER"),
    ("coder-other-case-in-scope", CODER, ROOT, MAC_TRANSCRIPT, "/USERS/dev/proj/SRC/a.py", "none", None),
    ("coder-other-case-out-of-scope", CODER, ROOT, MAC_TRANSCRIPT, f"{ROOT}/Docs/a.md", "deny", "SCOPE_VIOLATION"),
    ("coder-tmp-in-scope", CODER, "/private/tmp/proj", MAC_TRANSCRIPT, "/tmp/proj/src/a.py", "none", None),
    # Linux compares names as they are: another case is another file
    ("linux-other-case", GENERAL, "/home/dev/proj", LINUX_TRANSCRIPT, "/home/dev/proj/.Claude/SETTINGS.json", "none", None),
    ("linux-coder-other-case", CODER, "/home/dev/proj", LINUX_TRANSCRIPT, "/home/dev/proj/SRC/a.py", "deny", "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("config") / "boundary.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return str(path)


def _payload(who: str, cwd: str, transcript: str, file_path: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000b",
        "transcript_path": transcript,
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": file_path, "content": "{}"},
        "tool_use_id": "toolu_01MAC",
    }
    if who != "main":
        data.update(agent_id="a1b2c3d4e5f607183", agent_type=who)
    return data


@pytest.mark.skipif(os.uname().sysname == "Darwin", reason="judges a Mac's payloads elsewhere")
@pytest.mark.parametrize(
    ("who", "cwd", "transcript", "file_path", "decision", "code"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_check_judges_a_macs_payload_with_a_macs_path_rules(
    config_file: str,
    who: str,
    cwd: str,
    transcript: str,
    file_path: str,
    decision: str,
    code: str | None,
) -> None:
    assert_foreign_verdict(_payload(who, cwd, transcript, file_path), config_file, decision, code)
