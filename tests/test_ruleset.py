"""The policy reads a config in the form compiled once at load (``ruleset.compile_config``):
every config is read for itself, however many are in use."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from orchestrator_boundary import scope
from orchestrator_boundary.config import Config, parse_config
from orchestrator_boundary.context import Context
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.policy import assess
from orchestrator_boundary.ruleset import compile_config


def _config(text: str) -> Config:
    loaded = parse_config(text, "boundary.toml")
    assert isinstance(loaded, Config), loaded
    return loaded


def _code(config: Config, root: Path, tool: str, tool_input: Mapping[str, str], **who: str) -> str:
    payload = HookPayload(
        hook_event_name="PreToolUse",
        session_id="s",
        cwd=str(root),
        tool_name=tool,
        tool_input=dict(tool_input),
        **who,
    )
    v = assess(payload, compile_config(config), Context(str(root), RealFileSystem())).violation
    return v.code.value if v else "-"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path.resolve() / "proj"
    (r / "src").mkdir(parents=True)
    (r / "lib").mkdir()
    return r


def test_each_config_is_read_for_itself(root: Path) -> None:
    src = {"file_path": str(root / "src" / "a.py"), "content": "x"}
    lib = {"file_path": str(root / "lib" / "a.py"), "content": "x"}
    coder = {"agent_id": "a1", "agent_type": "coder"}
    first = _config(
        '[orchestrator]\nwrite_allow = ["src/**"]\n'
        '[agents.coder]\ntools = ["Write"]\nwrite_scope = ["src/**"]\n'
    )
    second = _config(
        '[orchestrator]\nwrite_allow = ["lib/**"]\n'
        '[agents.coder]\ntools = ["Edit"]\nwrite_scope = ["lib/**", "!lib/a.py"]\n'
    )
    for _ in range(2):  # the second round reads the lists built in the first
        assert _code(first, root, "Write", src) == "-"
        assert _code(second, root, "Write", src) == "ORCHESTRATOR_WRITE"
        assert _code(second, root, "Write", lib) == "-"
        assert _code(first, root, "Write", src, **coder) == "-"
        assert _code(first, root, "Write", lib, **coder) == "SCOPE_VIOLATION"
        assert _code(second, root, "Edit", lib, **coder) == "SCOPE_VIOLATION"  # excluded
        assert _code(second, root, "Write", lib, **coder) == "TOOL_NOT_ALLOWED"
    many = [_config(f'[orchestrator]\nwrite_allow = ["src/a{i}.py"]\n') for i in range(12)]
    for _ in range(2):  # more configs than are kept: each still gets its own lists
        for i, config in enumerate(many):
            mine = {"file_path": str(root / "src" / f"a{i}.py"), "content": "x"}
            other = {"file_path": str(root / "src" / f"a{i + 1}.py"), "content": "x"}
            assert _code(config, root, "Write", mine) == "-"
            assert _code(config, root, "Write", other) == "ORCHESTRATOR_WRITE"


def test_bash_lists_follow_the_config(root: Path) -> None:
    cmd = {"command": "echo hi > out.txt"}
    plain = _config("")
    allowed = _config('[bash]\nallow_write = ["out.txt"]\n')
    for _ in range(2):
        assert _code(plain, root, "Bash", cmd) == "BASH_WRITE"
        assert _code(allowed, root, "Bash", cmd) == "-"
        # bash.allow_write is for Bash only
        assert _code(allowed, root, "Write", {"file_path": str(root / "out.txt")}) == (
            "ORCHESTRATOR_WRITE"
        )


@pytest.mark.parametrize(
    ("patterns", "heads"),
    [
        (("src/**", "!**/*.lock"), ()),  # no literal head: nothing to compare
        (("!src/secrets/**",), (("!src/secrets/**", False, "src/secrets"),)),
        (
            ("!/etc/x/*.conf", "!a/b*/c"),
            (("!/etc/x/*.conf", True, "etc/x"), ("!a/b*/c", False, "a")),
        ),
    ],
)
def test_exclusion_heads(patterns: tuple[str, ...], heads: tuple[object, ...]) -> None:
    assert scope._exclusion_heads(patterns, False) == heads
