"""Targets the text does not fix, spelled so that the protected file hides behind a folder
name: `$D/../settings.json`, `$D//settings.json`, `$D/./settings.json`, a trailing `/`, a
brace expansion (attack round nine). Each row runs in bash in a throwaway folder, where it
changes a protected file, and the hook must call it TAMPER for any agent."""

from __future__ import annotations

from pathlib import Path

import pytest
import reality
from harden_support import bash_violation
from reality import Seed
from test_into_folder import SCOPED, SUB

from orchestrator_boundary.bash import analyze
from orchestrator_boundary.bash.explain import explain

CLAUDE = Seed(files=((".claude/settings.json", "{}"), (".claude/agents/.keep", ""), ("e.md", "")))

# (id, command, a protected file bash changes)
ROWS: list[tuple[str, str, str]] = [
    (
        "dot-dot",
        'D=$(echo .claude/agents); echo {} > "$D/../settings.json"',
        ".claude/settings.json",
    ),
    ("glob-dot-dot", "echo {} > .claude/*/../settings.json", ".claude/settings.json"),
    ("double-slash", 'D=$(echo .claude); echo {} > "$D"//settings.json', ".claude/settings.json"),
    ("dot", 'D=$(echo .claude); echo {} > "$D"/./settings.json', ".claude/settings.json"),
    ("into-variable-folder", 'D=$(echo .claude/agents); cp e.md "$D"/', ".claude/agents/e.md"),
    ("into-glob-folder", "cp e.md .claude/ag*/", ".claude/agents/e.md"),
    ("brace", "echo {} | tee .claude/{settings.json,x}", ".claude/settings.json"),
]


@pytest.mark.parametrize(("command", "hit"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_a_hidden_protected_target_is_tamper(tmp_path: Path, command: str, hit: str) -> None:
    outcome = reality.run(command, CLAUDE)
    assert hit in outcome.paths, outcome.describe()
    assert bash_violation(tmp_path.resolve(), SCOPED, command, **SUB) == "TAMPER"
    assert bash_violation(tmp_path.resolve(), 'phase = "enforce"\n', command) == "TAMPER"


# zsh (macOS runs the Bash tool in zsh) reads `$F:r`, `"$F:h"`, `$PWD:h` as modifiers of the
# value (the root, the head), where bash appends the text: no zsh here, so the rows are judged
# by the analysis and the hook alone; in zsh each writes .claude/settings.json
ZSH: list[tuple[str, str]] = [
    ("root", "F=.claude/settings.json.bak; echo {} > $F:r"),
    ("root-quoted", 'F=.claude/settings.json.bak; echo {} > "$F:r"'),
    ("substitute", "F=.claude/settings.jsox; echo {} > $F:s/x/n/"),
    ("pwd-head", "cd .claude/agents && echo {} > $PWD:h/settings.json"),
]


@pytest.mark.parametrize("command", [r[1] for r in ZSH], ids=[r[0] for r in ZSH])
def test_zsh_modifiers_leave_the_target_unfixed(tmp_path: Path, command: str) -> None:
    result = analyze(command, cwd="/r/work", home="/r/home")
    assert None in {e.resolved for e in result.effects}, explain(result)
    assert bash_violation(tmp_path.resolve(), SCOPED, command, **SUB) == "TAMPER"


@pytest.mark.parametrize(
    "command",
    [
        "cp a *(e:'REPLY=.claude/settings.json':)",  # zsh: the qualifier's REPLY is the name
        "cp a *(+f) x=.claude/settings.json:y (",
        "cp a b {x,'.claude/agents/e.md'} $((",
    ],
)
def test_text_that_does_not_parse_is_read_in_pieces(tmp_path: Path, command: str) -> None:
    """A subagent's command that does not parse passes its scope, so only the protected set
    stands between it and the settings: each piece of its words between quotes, `=`, `:`,
    `,` and braces counts as a word that may name a protected file."""
    assert bash_violation(tmp_path.resolve(), SCOPED, command, **SUB) == "TAMPER"
    # ("src" and "lib" name folders that hold the hook's own files: a word spelling them
    # after a brace that may be any text could be one)
    harmless = command.replace(".claude/settings.json", "docs/x").replace(".claude/agents", "docs")
    assert bash_violation(tmp_path.resolve(), SCOPED, harmless, **SUB) == "-"


def test_an_opaque_programs_brace_expansion_hands_it_each_name(tmp_path: Path) -> None:
    """`frob {a,.claude/settings.json}`: bash hands frob both names; the protected one is
    TAMPER as a word of its own would be (ADR 0055), and a harmless pair is not."""
    root = tmp_path.resolve()
    assert bash_violation(root, SCOPED, "frob {a,.claude/settings.json}", **SUB) == "TAMPER"
    assert bash_violation(root, SCOPED, "frob {a,src/b}", **SUB) == "-"
    assert bash_violation(root, SCOPED, "frob x}{a,b", **SUB) == "-"  # no hang, no crash
