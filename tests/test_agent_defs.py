"""Issue 14.4: the agent types defined in .claude/agents/*.md reach the deny hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harden_support import Project, make_project, parse_answer

from orchestrator_boundary import setups
from orchestrator_boundary.agent_defs import agent_folders, defined_agents, front_matter_name
from orchestrator_boundary.fs import RealFileSystem

# (id, file text, the name Claude Code would register)
FRONT_MATTER = [
    ("plain", "---\nname: coder\ndescription: x\n---\nbody\n", "coder"),
    ("quoted", '---\ndescription: "a: b"\nname: "doc-writer"\n---\n', "doc-writer"),
    ("comment", "---\nname: tester # the test writer\n---\n", "tester"),
    ("bom", "\ufeff---\nname: bom\n---\n", "bom"),
    ("no-front-matter", "name: coder\n", None),
    ("name-in-body", "---\ndescription: x\n---\nname: coder\n", None),
    ("nested-key", "---\nmeta:\n  name: inner\n---\n", None),
    ("empty-name", "---\nname:\n---\n", None),
]


@pytest.mark.parametrize(
    ("text", "name"), [c[1:] for c in FRONT_MATTER], ids=[c[0] for c in FRONT_MATTER]
)
def test_the_name_comes_from_the_front_matter(text: str, name: str | None) -> None:
    assert front_matter_name(text) == name


def test_project_and_user_definitions_are_gathered(tmp_path: Path) -> None:
    root, home, config_dir = tmp_path / "p", tmp_path / "h", tmp_path / "cfg"
    for folder, file, name in (
        (root / ".claude/agents", "a.md", "project-agent"),
        (root / ".claude/agents/team", "b.md", "nested-agent"),
        (home / ".claude/agents", "c.md", "user-agent"),
        (config_dir / "agents", "d.md", "config-dir-agent"),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(f"---\nname: {name}\n---\n")
    (root / ".claude/agents/notes.txt").write_text("---\nname: not-a-definition\n---\n")
    fs = RealFileSystem()
    found = defined_agents(agent_folders(str(root), str(home), None), fs)
    assert found == {"project-agent", "nested-agent", "user-agent"}
    # CLAUDE_CONFIG_DIR moves the user's folder
    found = defined_agents(agent_folders(str(root), str(home), str(config_dir)), fs)
    assert found == {"project-agent", "nested-agent", "config-dir-agent"}
    assert defined_agents(agent_folders(str(tmp_path / "none"), None, None), fs) == frozenset()


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def _named(project: Project) -> str:
    setups.CACHE.fs_facts.clear()  # as when the ttl of the file-system facts has passed
    setups.CACHE.setups.clear()
    _, _, answer = project.judge(
        "Write",
        {"file_path": str(project.root / "src/app.py"), "content": ""},
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    )
    out = parse_answer(answer)
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    suggestion = json.loads(reason.splitlines()[-1])["suggestion"]
    call = json.loads(suggestion.partition("Agent(")[2].removesuffix(").").strip())
    return str(call["subagent_type"])


def test_the_hint_skips_a_profile_without_a_definition(project: Project) -> None:
    project.configure(
        '[agents.ghost]\ntools = ["Write"]\n[agents.coder]\ntools = ["Write"]\n'
        'write_scope = ["src/**"]\n'
    )
    assert _named(project) == "coder"  # .claude/agents/coder.md defines it; ghost is undefined
    (project.root / ".claude/agents/coder.md").unlink()
    assert _named(project) == "general-purpose"


def test_a_user_definition_counts(project: Project) -> None:
    project.configure('[agents.mine]\ntools = ["Write"]\n')
    assert _named(project) == "general-purpose"
    (project.home / ".claude/agents").mkdir()
    (project.home / ".claude/agents/mine.md").write_text("---\nname: mine\n---\n")
    assert _named(project) == "mine"


# (id, the config's profiles, the definitions in .claude/agents/, doctor's status)
DOCTOR = [
    ("all-defined", '[agents.coder]\ntools = ["Write"]\n', ("coder",), "ok"),
    ("built-in", '[agents.general-purpose]\nwrite_scope = ["**"]\n', (), "ok"),
    ("catch-all", '[agents."*"]\nwrite_scope = ["**"]\n', (), "ok"),
    ("undefined", '[agents.coder]\ntools = ["Write"]\n[agents.ghost]\n', ("coder",), "warn"),
    # a wildcard name and another spelling apply to the types they match (ADR 0071, 0074)
    ("pattern", '[agents."*-reviewer"]\nwrite_scope = []\n', ("code-reviewer",), "ok"),
    ("spelling", "[agents.Code_Reviewer]\nwrite_scope = []\n", ("code-reviewer",), "ok"),
]


@pytest.mark.parametrize(
    ("config", "defined", "status"), [c[1:] for c in DOCTOR], ids=[c[0] for c in DOCTOR]
)
def test_doctor_flags_a_profile_without_a_definition(
    tmp_path: Path, config: str, defined: tuple[str, ...], status: str
) -> None:
    from orchestrator_boundary.doctor_agents import check_agent_definitions
    from orchestrator_boundary.doctor_context import Context

    root = tmp_path / "p"
    (root / ".claude/agents").mkdir(parents=True)
    (root / ".claude/boundary.toml").write_text(config)
    for name in defined:
        (root / f".claude/agents/{name}.md").write_text(f"---\nname: {name}\n---\n")
    check = check_agent_definitions(Context(str(root), {}, str(tmp_path / "h")))
    assert check.status == status, check
    if status == "warn":
        assert "ghost" in check.message and "coder" not in check.message
        assert ".claude/agents/ghost.md" in check.fix
