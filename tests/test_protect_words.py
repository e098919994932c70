"""A word of an opaque command counts only when it spells a protected entry's name as a name
(ADR 0055, ADR 0066).

The word check read "spells the entry's name" as "holds it anywhere": ``fetch`` held ``etc``
(the folder that holds ``/etc/claude-code``), so a PR comment whose heredoc body said
`` `fetch` `` (a backtick pair, read as a substitution that could be anything) was TAMPER, in
warn too. Found in the corpus replay: ``gh pr comment 27 --body "$(cat <<'EOF' ... `fetch` ...
EOF)"``. A name counts now when it stands between separators, quotes or an option's ``=``.
"""

from __future__ import annotations

import pytest

from orchestrator_boundary.protect import Protected, index
from orchestrator_boundary.protect_guess import could_name

ROOT, HOME = "/home/dev/proj", "/home/dev"
PROTECTED = index(
    (
        Protected("/etc/claude-code", True, "managed settings"),
        Protected(f"{ROOT}/.claude/settings.json", False, ".claude/settings.json"),
        Protected(f"{ROOT}/.claude/agents", True, ".claude/agents/"),
        Protected(f"{ROOT}/.claude/boundary/audit.jsonl.", False, "the audit trail", prefix=True),
        Protected(f"{ROOT}/.env.", False, ".env.*", prefix=True),
    ),
    False,
    [ROOT],
)

# (id, word, the label it could name or None)
WORDS = [
    ("backticks around fetch", "`fetch`", None),
    ("a variable then fetch", "$BASE/fetch", None),
    ("sketches", "`sketches`", None),
    ("etc as a name", "$X/etc", "a folder holding managed settings"),
    ("settings by a variable", '"$D/.claude/settings.json"', ".claude/settings.json"),
    ("settings in single quotes", "'$D/.claude/settings.json'", ".claude/settings.json"),
    ("settings.json.bak", "$D/.claude/settings.json.bak", None),
    ("my-settings.json", "$D/my-settings.json", None),
    ("an agent by a glob", ".claude/agents/*.md", ".claude/agents/"),
    ("agents in a longer name", "$D/myagents/x.md", None),
    ("a rotated trail", "$D/.claude/boundary/audit.jsonl.*", "the audit trail"),
    ("an env file by a variable", "$D/.env.local", ".env.*"),
]


@pytest.mark.parametrize(("word", "label"), [w[1:] for w in WORDS], ids=[w[0] for w in WORDS])
def test_a_word_counts_when_it_spells_the_name_as_a_name(word: str, label: str | None) -> None:
    found = could_name(
        word, PROTECTED, cwd=ROOT, home=HOME, windows=False, anchors=(ROOT, HOME), literal=True
    )
    assert (found.label if found else None) == label
