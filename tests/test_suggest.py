"""The suggested Agent call names an agent type that may make the change."""

from __future__ import annotations

import json

import pytest

from orchestrator_boundary.config import Config, parse_config
from orchestrator_boundary.ruleset import Writer, compile_config
from orchestrator_boundary.suggest import delegate_hint, suitable_agent

AGENTS = """
[agents."*"]
write_scope = ["**"]
[agents.explorer]
tools = ["Read", "Grep", "Bash"]
[agents.docs]
tools = ["Edit", "Read"]
write_scope = ["docs/**", "!docs/generated/**"]
[agents.coder]
tools = ["Write", "Read"]
write_scope = ["src/**", "tests/**", "!**/*.lock"]
[agents.anything]
tools = ["write"]
"""


# the agent types defined in .claude/agents/*.md, as the shell found them
DEFINED = frozenset({"explorer", "docs", "coder", "anything"} | {f"a{i}" for i in range(12)})


def config(text: str) -> tuple[Writer, ...]:
    """The deny hint's candidates, as the config compiled at load holds them."""
    loaded = parse_config(text, "boundary.toml")
    assert isinstance(loaded, Config), loaded
    return compile_config(loaded).writers


@pytest.mark.parametrize(
    ("path", "agent"),
    [
        ("docs/guide.md", "docs"),  # the first writer whose scope covers it
        ("docs/generated/api.md", "anything"),  # an exclusion wins; next writer, no scope
        ("src/app.py", "coder"),  # explorer may not write; docs does not cover src/
        ("src/Cargo.lock", "anything"),
        ("SRC/app.py", "anything"),  # scopes are case-sensitive here
        (None, "docs"),  # no path: the first agent type that may write at all
    ],
)
def test_the_first_writer_whose_scope_covers_the_path(path: str | None, agent: str) -> None:
    assert suitable_agent(config(AGENTS), path, DEFINED) == agent


def test_without_a_writer_the_built_in_agent_is_named() -> None:
    only_readers = config('[agents.explorer]\ntools = ["Read"]\n[agents."*"]\ntools = ["Write"]\n')
    assert suitable_agent(only_readers, "src/app.py") == "general-purpose"
    assert suitable_agent(compile_config(Config()).writers, "src/app.py") == "general-purpose"


def test_each_config_is_read_for_itself() -> None:
    """A long-lived evaluator sees the config change: the new one's profiles count at once."""
    first = config('[agents.coder]\ntools = ["Write"]\nwrite_scope = ["src/**"]\n')
    second = config('[agents.coder]\ntools = ["Write"]\nwrite_scope = ["lib/**"]\n')
    for _ in range(2):
        assert suitable_agent(first, "src/a.py", DEFINED) == "coder"
        assert suitable_agent(second, "src/a.py", DEFINED) == "general-purpose"
        assert suitable_agent(second, "lib/a.py", DEFINED) == "coder"
    many = [config(f'[agents.a{i}]\ntools = ["Write"]\n') for i in range(12)]
    assert [suitable_agent(c, "x", DEFINED) for c in many * 2] == [f"a{i}" for i in range(12)] * 2


def test_the_hint_is_a_ready_agent_call() -> None:
    hint = delegate_hint(config(AGENTS), 'src/"quoted"\n.py', "Write", DEFINED)
    call = json.loads(hint.partition("Agent(")[2].removesuffix(").").strip())
    assert call["subagent_type"] == "coder"
    assert call["prompt"].startswith('In src/"quoted"\n.py: ')
    assert "instead of using Write yourself" in hint


WRITERS_IN_ORDER = """
[agents.Explore]
tools = ["Write"]
[agents.Plan]
write_scope = ["**"]
[agents.ghost]
tools = ["Write"]
[agents.claude]
write_scope = ["docs/**"]
[agents.coder]
tools = ["Write"]
write_scope = ["src/**"]
"""

# (id, path, the agent types defined in .claude/agents/*.md, the type the hint names)
EXISTING = [
    ("undefined-profile-is-skipped", "src/a.py", frozenset({"coder"}), "coder"),
    ("defined-profile-is-named", "src/a.py", frozenset({"ghost", "coder"}), "ghost"),
    ("built-in-needs-no-definition", "docs/a.md", frozenset(), "claude"),
    ("nothing-defined-falls-back", "lib/a.py", frozenset(), "general-purpose"),
    ("explore-never-writes", "lib/a.py", frozenset({"Explore", "Plan"}), "general-purpose"),
]


@pytest.mark.parametrize(
    ("path", "defined", "agent"), [c[1:] for c in EXISTING], ids=[c[0] for c in EXISTING]
)
def test_only_agent_types_that_exist_are_named(
    path: str, defined: frozenset[str], agent: str
) -> None:
    """Issue 14.4: a profile with no definition would give "Agent type 'ghost' not found";
    Explore and Plan cannot write, whatever the config says."""
    assert suitable_agent(config(WRITERS_IN_ORDER), path, defined) == agent
    hint = delegate_hint(config(WRITERS_IN_ORDER), path, "Write", defined)
    assert f'"subagent_type": "{agent}"' in hint


@pytest.mark.parametrize("path", [".git", ".git/index", ".git/refs/heads/main"])
def test_a_git_step_is_delegated_as_a_step_not_as_a_change_to_the_folder(path: str) -> None:
    """``git commit`` by the main agent writes ``.git``: "Change .git" / "In .git: <what to
    change>" made no sense to the model; the hint asks for the git step instead."""
    hint = delegate_hint((), path, "Bash")
    call = json.loads(hint[hint.index("Agent(") + 6 : hint.rindex(")")])
    assert call["description"] == "Run the git step"
    assert call["prompt"].startswith("Run <the git command>")
    assert ".git" not in call["description"] + call["prompt"]
