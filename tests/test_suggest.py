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
    assert suitable_agent(config(AGENTS), path) == agent


def test_without_a_writer_the_built_in_agent_is_named() -> None:
    only_readers = config('[agents.explorer]\ntools = ["Read"]\n[agents."*"]\ntools = ["Write"]\n')
    assert suitable_agent(only_readers, "src/app.py") == "general-purpose"
    assert suitable_agent(compile_config(Config()).writers, "src/app.py") == "general-purpose"


def test_each_config_is_read_for_itself() -> None:
    """A long-lived evaluator sees the config change: the new one's profiles count at once."""
    first = config('[agents.coder]\ntools = ["Write"]\nwrite_scope = ["src/**"]\n')
    second = config('[agents.coder]\ntools = ["Write"]\nwrite_scope = ["lib/**"]\n')
    for _ in range(2):
        assert suitable_agent(first, "src/a.py") == "coder"
        assert suitable_agent(second, "src/a.py") == "general-purpose"
        assert suitable_agent(second, "lib/a.py") == "coder"
    many = [config(f'[agents.a{i}]\ntools = ["Write"]\n') for i in range(12)]
    assert [suitable_agent(c, "x") for c in many * 2] == [f"a{i}" for i in range(12)] * 2


def test_the_hint_is_a_ready_agent_call() -> None:
    hint = delegate_hint(config(AGENTS), 'src/"quoted"\n.py', "Write")
    call = json.loads(hint.partition("Agent(")[2].removesuffix(").").strip())
    assert call["subagent_type"] == "coder"
    assert call["prompt"].startswith('In src/"quoted"\n.py: ')
    assert "instead of using Write yourself" in hint
