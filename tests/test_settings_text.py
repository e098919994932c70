"""The settings file's own layout survives install, uninstall and phase (ADR 0052): only what
the edit changed is rewritten, in the style of the place it lands in."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from orchestrator_boundary import cli, registration, settings_text
from orchestrator_boundary import settings_edit as se

# A hand-written file: one-line arrays and objects, a blank line, an escape, 4 spaces.
HAND = """{
    "permissions": {"allow": ["Bash(npm test)", "Read"], "deny": []},

    "env": {"FOO": "b\\u00e4r"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}],
        "Stop": [
            {"hooks": [{"type": "command", "command": "notify-send done"}]}
        ]
    },
    "model": "opus"
}
"""


def install_text(text: str, phase: str = "warn") -> str:
    old = se.parse_settings(text, "f")
    change = se.with_hooks(old, "f", entries=registration.entries("project", phase))
    return se.render_settings(text, old, change.new)


def uninstall_text(text: str) -> str:
    old = se.parse_settings(text, "f")
    return se.render_settings(text, old, se.without_hooks(old, "f").new)


def removed_lines(old: str, new: str) -> list[str]:
    """The old lines a reviewer sees removed (or changed) in the diff."""
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
    return [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]


def test_install_changes_only_lines_it_adds_to() -> None:
    new = install_text(HAND)
    assert removed_lines(HAND, new) == [
        # our group joins the one-line array on its line; the last group gets a comma
        '        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}],',
        '            {"hooks": [{"type": "command", "command": "notify-send done"}]}',
    ]
    assert list(json.loads(new)) == ["permissions", "env", "hooks", "model"]
    assert '"FOO": "b\\u00e4r"' in new  # the escape as the user wrote it


def test_uninstall_after_install_gives_back_the_same_bytes() -> None:
    assert uninstall_text(install_text(HAND)) == HAND


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ('{\n  "model": "x"\n}\n', "  "),
        ('{\n    "model": "x"\n}\n', "    "),
        ('{\n\t"model": "x"\n}\n', "\t"),
        ('\r\n{\r\n\t"model": "x"\r\n}\r\n', "\t"),
    ],
    ids=["2 spaces", "4 spaces", "tab", "tab, CRLF, a blank first line"],
)
def test_new_parts_take_the_files_indentation_and_line_ending(text: str, unit: str) -> None:
    new = install_text(text)
    newline = "\r\n" if "\r\n" in text else "\n"
    assert f'{newline}{unit}"hooks": {{{newline}{unit}{unit}"PreToolUse": [' in new
    assert new.replace("\r\n", "").count("\n") == 0 or newline == "\n"
    assert new.endswith("}" + newline)


def test_a_one_line_file_stays_one_line() -> None:
    new = install_text('{"model": "opus"}')
    assert "\n" not in new and new.startswith('{"model": "opus", "hooks": {"PreToolUse": [')


def test_phase_in_step_changes_only_the_entries_lines() -> None:
    installed = install_text(HAND, "warn")
    old = json.loads(installed)
    stepped = se.render_settings(installed, old, se.in_step(old, "enforce", "f").new)
    before, after = installed.splitlines(), stepped.splitlines()
    added = [line for line in after if line not in before]
    removed = [line for line in before if line not in after]
    assert all("launch.sh" in line or "onFailure" in line or "timeout" in line for line in added)
    assert all("launch.sh" in line or "timeout" in line for line in removed)
    assert sum('"onFailure": "block"' in line for line in after) == 2  # Pre and PostToolUse
    assert '"onFailure": "block"' in after[5]  # inside the one-line PreToolUse array


@pytest.mark.parametrize(
    "text",
    ['{"a": 1, "a": 2}', '{"hooks": {"Stop": [], "Stop": []}}'],
    ids=["duplicate top-level key", "duplicate nested key"],
)
def test_duplicate_keys_are_written_whole(text: str) -> None:
    old = se.parse_settings(text, "f")
    new = se.with_hooks(old, "f").new
    assert settings_text.patch(text, old, new) is None
    assert json.loads(se.render_settings(text, old, new)) == new


def _project_with_hand_settings(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose ``.claude/settings.json`` is the hand-written ``HAND``."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    path = root / ".claude" / "settings.json"
    path.write_text(HAND, encoding="utf-8")
    return root, path


def test_install_keeps_a_compact_settings_file_and_its_diff_is_small(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, path = _project_with_hand_settings(tmp_path)
    assert cli.main(["install", "--project", str(root)]) == 0
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert text.startswith(HAND.split('"hooks"')[0])  # permissions, blank line, env untouched
    assert text.endswith('    "model": "opus"\n}\n')
    assert cli.main(["uninstall", "--project", str(root)]) == 0
    assert path.read_text(encoding="utf-8") == HAND


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    data=st.dictionaries(
        st.text(max_size=6).filter(lambda k: k != "hooks"), JSON_VALUE, max_size=4
    ),
    indent=st.sampled_from([None, 1, 2, 4, "\t"]),
    ascii_only=st.booleans(),
    phase=st.sampled_from(["warn", "enforce"]),
)
def test_any_file_patched_parses_to_the_new_document_in_order(
    data: dict[str, Any], indent: int | str | None, ascii_only: bool, phase: str
) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    new = install_text(text, phase)
    want = se.with_hooks(data, "f", entries=registration.entries("project", phase)).new
    assert json.dumps(json.loads(new)) == json.dumps(want)
    assert uninstall_text(new) == text


def test_the_dry_run_diff_names_each_file_by_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, path = _project_with_hand_settings(tmp_path)
    assert cli.main(["install", "--project", str(root), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"--- {path}\n+++ {path}\n" in out  # not a//tmp/...
    assert f"--- /dev/null\n+++ {root / '.claude' / 'boundary.toml'}\n" in out
    assert path.read_text(encoding="utf-8") == HAND
