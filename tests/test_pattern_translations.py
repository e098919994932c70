"""A compiled config keeps its scope patterns' translations (ADR 0043): a hook process that
loads it judges writes against those patterns without importing pathspec, with the verdicts
pathspec's own translation gives."""

from __future__ import annotations

import json
from pathlib import Path

import pathspec
import pytest
from test_config_cache import FULL
from test_lean_imports import _imported, _payload, _project, _registered_with_importtime

from orchestrator_boundary import config, scope
from orchestrator_boundary.config import ConfigProblem, compiled_folder, compiled_key, entry_name


def _pathspec_regex(glob: str) -> str:
    return str(pathspec.util.lookup_pattern("gitignore")(glob).regex.pattern)


def _entry(tmp_path: Path, text: str) -> tuple[str, dict[str, str], Path]:
    folder = compiled_folder(str(tmp_path / "rt"))
    assert folder is not None
    path = tmp_path / "boundary.toml"
    path.write_text(text)
    loaded = config.load_compiled(str(path), "/home/u", folder)
    assert not isinstance(loaded, ConfigProblem)
    key = compiled_key(str(path), "/home/u", text.encode())
    return folder, key, Path(folder) / entry_name(key)


def test_the_entry_keeps_every_pattern_translated_both_ways(tmp_path: Path) -> None:
    _, _, entry = _entry(tmp_path, FULL + '\n[agents.docs]\nwrite_scope = ["Docs/**"]\n')
    kept = json.loads(entry.read_text())["regex"]
    loaded = config.load_config(str(tmp_path / "boundary.toml"), "/home/u")
    assert not isinstance(loaded, ConfigProblem)
    listed = config.patterns(loaded)
    # every list of patterns the config has: write_allow, write_outside_root, write_scope,
    # protect.paths, an intent's owned_scope
    assert {"STATE.md", "/tmp/**", "!**/*.lock", "secrets/**", "src/auth/**"} <= set(listed)
    for text in listed:
        for insensitive in (False, True):
            glob = scope._compile(text, insensitive).glob
            assert kept[glob] == _pathspec_regex(glob), text
    assert "/Docs/**" in kept and "/docs/**" in kept  # as written, and folded


def test_a_broken_translation_table_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scope, "_KNOWN", {})  # what earlier loads in this process kept
    folder, key, entry = _entry(tmp_path, FULL)
    data = json.loads(entry.read_text())
    data["regex"] = {"/src/**": "[unclosed", "/STATE.md": 7}
    entry.write_text(json.dumps(data))
    assert config.compiled_entry(folder, key) is not None  # the config itself still verifies
    assert scope._KNOWN == {}  # a table with a non-text value is not taken
    monkeypatch.setitem(
        scope._KNOWN, "/nowhere/**", "[unclosed"
    )  # nor is a translation that does not compile
    assert scope._regex("/nowhere/**", "nowhere/**").pattern == _pathspec_regex("/nowhere/**")


SUB_CONFIG = """\
[agents.coder]
tools = ["Write", "Edit", "Read"]
write_scope = ["src/**", "!**/*.lock"]

[protect]
paths = ["src/vendor/**"]
"""


@pytest.mark.parametrize(
    ("file", "verdict"),
    [
        ("src/app.py", ""),
        ("src/deps.lock", "deny"),
        ("README.md", "deny"),
        ("src/vendor/lib.py", "deny"),
    ],
    ids=["inside", "excluded", "outside", "protected"],
)
def test_a_subagent_write_is_judged_without_pathspec(
    tmp_path: Path, file: str, verdict: str
) -> None:
    root, env = _project(tmp_path)
    (root / ".claude" / "boundary.toml").write_text(SUB_CONFIG)
    argv = _registered_with_importtime("PreToolUse")
    data = json.loads(_payload(root, "Write", "PreToolUse", content="x"))
    data["tool_input"]["file_path"] = str(root / file)
    data |= {"agent_id": "a1", "agent_type": "coder"}
    first, code, _ = _imported(argv, json.dumps(data).encode(), env, root)
    assert code == 0 and "pathspec" in first  # the first process validates the config
    names, code, out = _imported(argv, json.dumps(data).encode(), env, root)
    decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"] if out else ""
    assert (code, decision) == (0, verdict)
    assert "orchestrator_boundary.shell" in names and "pathspec" not in names
