"""Issue 14.6: ordinary cleanup is judged by the write rules; TAMPER only where a protected
file can really be hit. Through the hook shell, against a real project in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import Project, make_project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


# (id, command, caller -> (decision in enforce, code)); callers: main, general-purpose, and
# coder (write_scope src/**)
CLEANUP = [
    ("pyc", "find . -name '*.pyc' -delete",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None),
      "coder": ("deny", "SCOPE_VIOLATION")}),
    ("pyc-in-scope", "find src -name '*.pyc' -delete",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None)}),
    ("py-co", "find . -type f -name '*.py[co]' -delete",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None)}),
    ("iname", "find . -iname '*.PYC' -delete", {"main": ("deny", "BASH_WRITE")}),
    ("pycache-exec", "find . -name __pycache__ -type d -exec rm -rf {} +",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None)}),
    ("pycache-delete", "find . -name __pycache__ -delete",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None)}),
    ("build", "rm -rf build/",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None),
      "coder": ("deny", "SCOPE_VIOLATION")}),
    ("pyc-inside-agents", "find .claude/agents -name '*.pyc' -delete",
     {"main": ("deny", "BASH_WRITE")}),
    # what the protected folders hold is looked at: no .log file is protected here
    ("log-files", "find . -name '*.log' -delete",
     {"main": ("deny", "BASH_WRITE"), "general-purpose": ("none", None)}),
]  # fmt: skip

# Each can delete a protected file (or a folder holding one): TAMPER for every caller.
TAMPER = [
    ("json", "find . -name '*.json' -delete"),
    ("settings-prefix", "find . -name 'settings*' -delete"),
    ("dot-env", "find . -name '.env*' -delete"),
    ("agent-definitions", "find . -name '*.md' -delete"),
    ("agents-folder", "find . -name agents -delete"),
    ("claude-folder", "find . -name .claude -delete"),
    ("iname-upper", "find . -iname '*.JSON' -delete"),
    ("or-expression", "find . -name '*.pyc' -o -name '*.json' -delete"),
    ("delete-first", "find . -delete -name '*.pyc'"),
    ("negated", "find . ! -name '*.pyc' -delete"),
    ("no-filter", "find . -delete"),
    ("rm-claude", "rm -rf .claude"),
    ("inside-agents", "find .claude/agents -name '*' -delete"),
]

CALLERS = {"main": None, "general-purpose": "general-purpose", "coder": "coder"}


def _judge(project: Project, command: str, caller: str, phase: str) -> tuple[str, str | None]:
    decision, code, _ = project.judge(
        "Bash",
        {"command": command},
        agent=CALLERS[caller],
        env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
    )
    return decision, code


@pytest.mark.parametrize(
    ("command", "expected"), [c[1:] for c in CLEANUP], ids=[c[0] for c in CLEANUP]
)
def test_cleanup_is_judged_by_the_write_rules(
    project: Project, command: str, expected: dict[str, tuple[str, str | None]]
) -> None:
    for caller, (decision, code) in expected.items():
        assert _judge(project, command, caller, "enforce") == (decision, code), caller
        if code is not None and code != "TAMPER":  # warn only warns
            assert _judge(project, command, caller, "warn") == ("warn", code), caller


@pytest.mark.parametrize("command", [c for _, c in TAMPER], ids=[i for i, _ in TAMPER])
def test_a_pattern_that_can_name_a_protected_file_is_tamper(project: Project, command: str) -> None:
    for caller in CALLERS:
        for phase in ("warn", "enforce"):
            assert _judge(project, command, caller, phase) == ("deny", "TAMPER"), (caller, phase)
