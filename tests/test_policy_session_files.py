"""The main agent's own session files: plan, auto-memory, workflow scripts (ADR 0053, #14).

Claude Code 2.1.330 tells the main agent to write them with its file tools (observed offline
with the pinned CLI): in plan mode "Write your final plan to the plan file (the only file you
can edit)" at ``CONFIG/plans/NAME.md``; with auto-memory "write to it directly with the Write
tool" at ``CONFIG/projects/PROJECT/memory/``; the Workflow tool's result "Edit this file with
Write/Edit and re-invoke Workflow" for ``CONFIG/projects/PROJECT/SESSION/workflows/scripts/
NAME.js``. Denying them broke plan mode in enforce and made
every memory note a violation in warn. Allowed: Markdown files directly in those folders, found
from the payload's ``transcript_path``, as resolved; nothing else moves.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

from orchestrator_boundary.write_rules import session_folders

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
PROJ = "-tmp-proj"
SID = "sess-1"  # harden_support's session_id
WF = f".claude/projects/{PROJ}/{SID}/workflows/scripts"
W, E = "Write", "Edit"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    (p.home / ".claude" / "plans").mkdir()
    (p.home / ".claude" / "projects" / PROJ / "memory").mkdir(parents=True)
    (p.home / ".claude" / "projects" / "-other" / "memory").mkdir(parents=True)
    (p.home / ".claude" / "projects" / PROJ / SID / "workflows" / "scripts").mkdir(parents=True)
    return p


def _input(tool: str, path: str) -> dict[str, Any]:
    if tool == "Bash":
        return {"command": f"echo x > {path}"}
    if tool == E:
        return {"file_path": path, "old_string": "a", "new_string": "b"}
    return {"file_path": path, "content": "x"}


# (id, tool, path under the home folder or {root}, subagent?, decision, code)
TABLE: list[tuple[str, str, str, bool, str, str | None]] = [
    ("plan-write", W, ".claude/plans/bright-otter.md", False, "none", None),
    ("plan-edit", E, ".claude/plans/bright-otter.md", False, "none", None),
    ("memory-write", W, f".claude/projects/{PROJ}/memory/user-prefers-tabs.md", False, "none",
     None),
    ("memory-index", E, f".claude/projects/{PROJ}/memory/MEMORY.md", False, "none", None),
    ("workflow-script-edit", E, f"{WF}/review-wf_83a8.js", False, "none", None),
    ("workflow-script-not-js", W, f"{WF}/run.sh", False, "deny", "ORCHESTRATOR_WRITE"),
    ("other-sessions-workflow", W, f".claude/projects/{PROJ}/other/workflows/scripts/a.js",
     False, "deny", "ORCHESTRATOR_WRITE"),
    # nothing more than that
    ("plan-subfolder", W, ".claude/plans/x/y.md", False, "deny", "ORCHESTRATOR_WRITE"),
    ("plan-not-markdown", W, ".claude/plans/run.sh", False, "deny", "ORCHESTRATOR_WRITE"),
    ("plan-by-bash", "Bash", ".claude/plans/p.md", False, "deny", "BASH_WRITE"),
    ("other-projects-memory", W, ".claude/projects/-other/memory/x.md", False, "deny",
     "ORCHESTRATOR_WRITE"),
    ("transcript-folder", W, f".claude/projects/{PROJ}/notes.md", False, "deny",
     "ORCHESTRATOR_WRITE"),
    ("dotdot-to-settings", W, ".claude/plans/../settings.json", False, "deny", "TAMPER"),
    ("in-the-project", W, "{root}/docs/plan.md", False, "deny", "ORCHESTRATOR_WRITE"),
    # a subagent's rules are unchanged: the plan folder is outside the root
    ("subagent-plan", W, ".claude/plans/p.md", True, "deny", "SCOPE_VIOLATION"),
]  # fmt: skip


def _path(project: Project, rel: str) -> str:
    if rel.startswith("{root}/"):
        return str(project.root / rel.removeprefix("{root}/"))
    return str(project.home / rel)


def _judge(project: Project, tool: str, rel: str, subagent: bool = False) -> dict[str, Any]:
    transcript = project.home / ".claude" / "projects" / PROJ / "sess.jsonl"
    data = project.payload(
        tool,
        _input(tool, _path(project, rel)),
        agent="coder" if subagent else None,
        transcript_path=str(transcript),
    )
    return project.call(data, env=ENFORCE)[1]


@pytest.mark.parametrize(
    ("tool", "rel", "subagent", "decision", "code"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_the_main_agent_writes_its_plan_and_memory(
    project: Project, tool: str, rel: str, subagent: bool, decision: str, code: str | None
) -> None:
    project.configure('[orchestrator]\nwrite_allow = ["STATE.md"]\n')
    rec = _judge(project, tool, rel, subagent)
    assert (rec["decision"], rec["code"]) == (decision, code)


def test_a_plan_folder_that_links_into_the_project_is_no_plan_folder(project: Project) -> None:
    plans = project.home / ".claude" / "plans"
    plans.rmdir()
    (project.root / "src" / "plans").mkdir()
    os.symlink(project.root / "src" / "plans", plans)
    rec = _judge(project, W, ".claude/plans/p.md")
    assert (rec["decision"], rec["code"]) == ("deny", "ORCHESTRATOR_WRITE")


def test_a_plan_file_that_links_out_is_judged_where_it_lands(project: Project) -> None:
    target = project.root / "src" / "app.md"
    target.write_text("x\n")
    os.symlink(target, project.home / ".claude" / "plans" / "p.md")
    rec = _judge(project, W, ".claude/plans/p.md")
    assert (rec["decision"], rec["code"]) == ("deny", "ORCHESTRATOR_WRITE")


H = "/h/.claude"
HOME_FOLDERS = ((f"{H}/plans", ".md"), (f"{H}/projects/-p/memory", ".md"))


@pytest.mark.parametrize(
    ("transcript", "session", "folders"),
    [
        (f"{H}/projects/-p/s.jsonl", "s", (*HOME_FOLDERS, (f"{H}/projects/-p/s/workflows/scripts",
                                                          ".js"))),
        ("/c/projects/-p/s.jsonl", "", (("/c/plans", ".md"), ("/c/projects/-p/memory", ".md"))),
        (f"{H}/projects/-p/s.jsonl", "../x", HOME_FOLDERS),
        (f"{H}/projects/-p/s.jsonl", "..", HOME_FOLDERS),
        (f"{H}/other/-p/s.jsonl", "s", ()),
        ("s.jsonl", "s", ()),
        ("", "s", ()),
        (f"{H}/projects/s.jsonl", "s", ()),
    ],
    ids=["home", "config-dir-no-session", "session-with-slash", "session-dotdot", "not-projects",
         "relative", "empty", "no-project-folder"],
)  # fmt: skip
def test_session_folders_come_from_the_transcript_path(
    transcript: str, session: str, folders: tuple[tuple[str, str], ...]
) -> None:
    assert session_folders(transcript, session, windows=False) == folders
