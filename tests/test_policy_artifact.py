"""Artifact saves files where ``out_dir`` says (ADR 0053, issue 14).

2.1.330's Artifact tool publishes (network class), but ``action: "read_file"`` saves
``<out_dir>/<published path>`` and ``read_db`` with ``out_dir`` saves JSON files there (the
binary's own tool text); the published path is whatever was published, ``settings.json``
included. Without ``out_dir`` it saves in the CLI's scratchpad and nothing is judged. With it,
the folder is a write target: TAMPER when it is or holds a protected entry, the write rules
otherwise, as ``tar -C DIR -x`` is judged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import Project, make_project

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
URL = "https://claude.ai/artifact/x"

# (id, agent type or None for the main agent, tool, input ({root}/{home} expanded), decision,
# code)
TABLE = [
    ("main-no-out-dir", None, "Artifact", {"action": "read_file", "url": URL, "path": "a"},
     "none", None),
    ("main-publish", None, "Artifact", {"action": "publish", "path": "{root}/docs/p.html"},
     "none", None),
    ("main-out-dir-docs", None, "Artifact", {"action": "read_file", "out_dir": "{root}/docs"},
     "deny", "ORCHESTRATOR_WRITE"),
    ("main-out-dir-claude", None, "Artifact", {"action": "read_file", "out_dir": "{root}/.claude"},
     "deny", "TAMPER"),
    ("sub-out-dir-claude", "coder", "Artifact", {"action": "read_db", "out_dir": "{root}/.claude"},
     "deny", "TAMPER"),
    ("sub-out-dir-skills", "coder", "Artifact",
     {"action": "read_file", "out_dir": "{root}/.claude/skills/x"}, "deny", "TAMPER"),
    ("sub-out-dir-home-claude", "coder", "ArtifactData",
     {"action": "read_db", "out_dir": "{home}/.claude"}, "deny", "TAMPER"),
    ("sub-out-dir-src", "coder", "Artifact", {"action": "read_file", "out_dir": "{root}/src"},
     "none", None),
]  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    p.configure("")
    return p


@pytest.mark.parametrize(
    ("agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_an_artifact_save_is_judged_where_it_lands(
    project: Project,
    agent: str | None,
    tool: str,
    tool_input: dict[str, str],
    decision: str,
    code: str | None,
) -> None:
    places = {"{root}": str(project.root), "{home}": str(project.home)}
    for k, v in list(tool_input.items()):
        for mark, value in places.items():
            v = v.replace(mark, value)
        tool_input = {**tool_input, k: v}
    _, rec = project.call(project.payload(tool, tool_input, agent=agent), env=ENFORCE)
    assert (rec["decision"], rec["code"]) == (decision, code)
