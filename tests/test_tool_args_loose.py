"""Issue 13 point 7, the attack suite's holes: what ``tool_args.arguments`` finds beyond the
path arguments (loose strings, the files a patch names, serialised JSON, command lines), and
that its bounds hold."""

from __future__ import annotations

import json
from typing import Any

import pytest

from orchestrator_boundary.tool_args import (
    MAX_COMMANDS,
    MAX_JSON_CHARS,
    MAX_JSON_TOTAL,
    arguments,
    patch_files,
)

PATCHES = [
    (
        "unified",
        "--- a/x/y.txt\n+++ b/x/y.txt\n@@ -1 +1 @@\n",
        ["a/x/y.txt", "x/y.txt", "b/x/y.txt"],
    ),
    ("timestamps", "--- f.c\t2024-01-01\n+++ f.c\t2024-01-02\n", ["f.c"]),
    ("new file", "--- /dev/null\n+++ b/n.txt\n", ["b/n.txt", "n.txt"]),
    (
        "apply_patch",
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n*** Add File: c.py\n"
        "*** Delete File: d.py\n*** End Patch",
        ["a.py", "b.py", "c.py", "d.py"],
    ),
    ("git rename", "diff --git a/o b/n\nrename from o\nrename to n\n", ["a/o", "o", "b/n", "n"]),
    ("prose", "a line\n--- a separator in text", []),
    ("one line", "+++ b/x", []),
]


@pytest.mark.parametrize(("text", "names"), [p[1:] for p in PATCHES], ids=[p[0] for p in PATCHES])
def test_the_files_a_patch_names(text: str, names: list[str]) -> None:
    assert sorted(patch_files(text)) == sorted(names)


CASES: list[tuple[str, dict[str, Any], dict[str, list[str]]]] = [
    ("odd key, relative", {"a": {"b": ["x/y"]}}, {"loose": ["a", "b", "x/y"], "paths": []}),
    ("text keys stay out", {"content": "x/y", "message": "z"}, {"loose": ["content", "message"]}),
    ("hinted stays a path", {"path": "x/y"}, {"paths": ["x/y"], "loose": ["path"]}),
    ("multi-line text is no path", {"v": "a\nb"}, {"loose": ["v"]}),
    ("~/ read in home", {"v": "~/f"}, {"loose": ["v", "~/f", "/h/f"]}),
    ("JSON object", {"r": '{"path": "p/q"}'}, {"paths": ["p/q"], "loose": ["r", "path"]}),
    ("JSON array", {"r": '["/abs/x", "rel"]'}, {"paths": ["/abs/x"], "loose": ["r", "rel"]}),
    ("JSON scalar is text", {"r": '"p/q"'}, {"loose": ["r", '"p/q"']}),
    ("bad JSON is text", {"r": "{not json}"}, {"loose": ["r", "{not json}"]}),
    ("patch key", {"patch": "--- a/f\n+++ b/f\n"}, {"loose": ["a/f", "f", "b/f", "patch"]}),
    ("command", {"command": "ls x"}, {"commands": ["ls x"]}),
    ("argv", {"argv": ["rm", "a b"]}, {"commands": ["rm 'a b'"]}),
    ("commands list", {"commands": ["ls", "pwd"]}, {"commands": ["ls pwd", "ls", "pwd"]}),
]


@pytest.mark.parametrize(("tool_input", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_what_arguments_finds(tool_input: dict[str, Any], want: dict[str, list[str]]) -> None:
    found = arguments(tool_input, "/h")
    assert found.complete
    for name, values in want.items():
        got = getattr(found, name)
        assert (sorted(got) if name == "loose" else got) == sorted(values) or got == values, name


def test_more_commands_than_are_analysed_is_incomplete() -> None:
    found = arguments({"cmds": [{"cmd": f"echo {n}"} for n in range(MAX_COMMANDS + 1)]})
    assert not found.complete and len(found.commands) == MAX_COMMANDS
    assert arguments({"cmds": [{"cmd": "ls"}] * MAX_COMMANDS}).complete


def test_json_strings_are_parsed_within_their_bounds() -> None:
    big = json.dumps({"path": "p/q", "pad": "x" * MAX_JSON_CHARS})
    assert arguments({"r": big}).paths == []  # too long to parse: one (long) string
    many = {f"r{n}": json.dumps({"pad": "x" * (MAX_JSON_CHARS // 2)}) for n in range(130)}
    assert sum(map(len, many.values())) > MAX_JSON_TOTAL
    assert not arguments(many).complete  # past the total: what was not parsed could be any
    nested = "p/q"
    for _ in range(10):  # each level doubles the backslashes: 10 levels are ~10 KiB
        nested = json.dumps({"path": nested})
    assert arguments({"r": nested}).paths == ["p/q"]
