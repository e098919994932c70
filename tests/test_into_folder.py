"""Copies into a folder and folders on the way: what they write, and how scopes judge them.

`cp a src/` writes `src/a`; the analysis named the folder `src`, which a subagent's
`write_scope = ["src/**"]` does not cover, so the copy was refused (a false SCOPE_VIOLATION),
and so was `mkdir -p src`, the folder every write of that scope lands in. The rows run in bash
in a throwaway folder (``reality.py``) and are compared with the analysis; the policy rows
judge the calls as the hook does.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
import reality
from harden_support import bash_violation
from reality import Seed

from orchestrator_boundary.bash import analyze
from orchestrator_boundary.bash.explain import explain

CWD = "/r/work"
STUFF = Seed(files=(("stuff/settings.json", "{}"), ("sub/.keep", ""), ("sub/a", "old\n")))

# (id, command, what bash changes, what the analysis must name)
INTO: list[tuple[str, str, set[str], set[str]]] = [
    ("cp-slash", "cp a b d/", {"d/a", "d/b"}, {"d/a", "d/b"}),
    ("cp-several", "cp a b d", {"d/a", "d/b"}, {"d/a", "d/b"}),
    ("cp-t", "cp -t d a", {"d/a"}, {"d/a"}),
    ("mv-slash", "mv a d/", {"a", "d/a"}, {"a", "d/a"}),
    ("install-slash", "install -m 644 a d/", {"d/a"}, {"d/a"}),
    ("ln-slash", "ln -s ../a d/", {"d/a"}, {"d/a"}),
    ("cp-r-folder", "cp -r stuff sub/", {"sub/stuff", "sub/stuff/settings.json"}, {"sub/stuff"}),
    # the folder itself, where the names that land are not certain: BSD cp copies the
    # contents of `stuff/`, `--parents` keeps the source's path, `-T` makes d the copy
    ("cp-r-trailing-slash", "cp -r stuff/ sub/", {"sub/stuff", "sub/stuff/settings.json"}, {"sub"}),
    ("cp-parents", "cp --parents d/g.txt sub/", {"sub/d", "sub/d/g.txt"}, {"sub"}),
    ("cp-dot", "cp -r stuff/. sub/", {"sub/settings.json"}, {"sub"}),
    # round nine: -S (or -b) moves a target that exists to its name with the suffix
    ("cp-backup-suffix", "cp -S .json a sub/", {"sub/a", "sub/a.json"}, {"sub/a", "sub/a.json"}),
    (
        "mv-backup-suffix",
        "mv -b -S .json a sub/",
        {"a", "sub/a", "sub/a.json"},
        {"a", "sub/a", "sub/a.json"},
    ),
]


@pytest.mark.parametrize(
    ("command", "changed", "named"), [r[1:] for r in INTO], ids=[r[0] for r in INTO]
)
def test_a_copy_into_a_folder_names_what_lands_there(
    command: str, changed: set[str], named: set[str]
) -> None:
    outcome = reality.run(command, STUFF)
    assert outcome.paths == changed, outcome.describe()
    result = analyze(command, cwd=CWD, home="/r/home")
    got = {posixpath.relpath(e.resolved, CWD) for e in result.effects if e.resolved}
    assert got == named, explain(result)


SCOPED = 'phase = "enforce"\n[agents."*"]\nwrite_scope = ["src/**"]\n'
SUB = {"agent_id": "a1", "agent_type": "general-purpose"}


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("cp a src/", "-"),
        ("cp a b src", "-"),
        ("mv a src/", "SCOPE_VIOLATION"),  # the source `a` leaves the root
        ("mkdir -p src", "-"),
        ("mkdir -p src/new", "-"),
        ("mkdir lib", "SCOPE_VIOLATION"),
        ("touch src", "SCOPE_VIOLATION"),  # the folder itself, by a program that is no mkdir
        ("cp a lib/", "SCOPE_VIOLATION"),
        ("cp x .claude/", "SCOPE_VIOLATION"),
        ("cp settings.json .claude/", "TAMPER"),
        ("cp -R stuff/ .claude/", "TAMPER"),  # macOS copies the contents
        ("cp -r . .claude/", "TAMPER"),
        ('cp "$X" .claude/', "TAMPER"),
        ("cp -r agents .claude/", "TAMPER"),
        ("cp -S .json settings .claude/", "TAMPER"),  # .claude/settings -> settings.json
        ("cp -b settings .claude/", "TAMPER"),  # the suffix may be SIMPLE_BACKUP_SUFFIX
    ],
)
def test_a_subagents_scope_judges_what_lands(tmp_path: Path, command: str, code: str) -> None:
    assert bash_violation(tmp_path.resolve(), SCOPED, command, **SUB) == code


def test_the_main_agent_may_make_the_folder_its_allow_list_writes_in(tmp_path: Path) -> None:
    config = 'phase = "enforce"\n[orchestrator]\nwrite_allow = ["docs/**"]\n'
    root = tmp_path.resolve()
    assert bash_violation(root, config, "mkdir -p docs") == "-"
    assert bash_violation(root, config, "mkdir -p docs/api") == "-"
    assert bash_violation(root, config, "touch docs") == "BASH_WRITE"
    assert bash_violation(root, config, "mkdir -p src") == "BASH_WRITE"
