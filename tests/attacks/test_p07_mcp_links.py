"""Point 7, second round: routes an attacker found past the MCP path walk.

- a hard link or a symlinked folder named by a relative path, or under a key that does not
  say "path" (the walk found the string, the file system was not asked);
- a shell or code tool whose command sits under a key other than ``command``/``cmd``;
- a path longer than the walk read (a server normalises ``a/../`` x 820 itself);
- a tool the config reclassifies as ``write`` or ``execute``, whose other keys went unread.

Each runs through the registered hook and through the evaluator, in warn with the bypass (and
in enforce where noted), by a subagent whose type may write anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from harden_support import WIDE_OPEN

from .support import ENFORCE, Arena, Attack, attempt, new_arena, params, route_params

LONG = "{root}/" + "a/../" * 820 + ".claude/settings.local.json"

ATTACKS = [
    Attack("hard link by a relative path", "mcp__fs__write_file", {"path": "src/h.toml"}),
    Attack("hard link under an odd key", "mcp__fs__save", {"name": "src/h.toml", "body": "x"}),
    Attack(
        "symlinked folder under an odd key",
        "mcp__fs__save",
        {"name": "cl/settings.local.json", "body": "{}"},
    ),
    Attack("symlinked file under an odd key", "mcp__fs__put", {"x": "src/link.json"}, env=ENFORCE),
    Attack("a path longer than 4096 characters", "mcp__fs__write_file", {"path": LONG}),
    Attack(
        "a path past every bound",
        "mcp__fs__write_file",
        {"path": "{root}/" + "a/../" * 4000 + ".claude/settings.json"},
        env=ENFORCE,
    ),
    *(
        Attack(
            f"shell tool with its command under {key!r}",
            "mcp__shell__run",
            {key: "echo '{}' > .claude/settings.local.json"},
            env=ENFORCE,
        )
        for key in ("script", "shell", "bash", "exec", "run", "program", "cmdline", "line")
    ),
    Attack(
        "an absolute protected path in a script",
        "mcp__shell__run",
        {"script": "cp /tmp/x {root}/.claude/settings.json"},
    ),
    Attack(
        "code an IDE tool runs",
        "mcp__ide__executeCode",
        {"code": "open('.claude/settings.json', 'w').write('{}')"},
        env=ENFORCE,
    ),
    Attack(
        "reclassified execute tool, command under cmd",
        "mcp__shellx__run",
        {"cmd": "echo '{}' > .claude/settings.json"},
        env=ENFORCE,
    ),
    Attack(
        "reclassified write tool, a nested edit",
        "mcp__files__edit_file",
        {"path": "{root}/src/app.py", "edits": [{"path": "{root}/.claude/settings.json"}]},
    ),
    Attack(
        "reclassified write tool, destination",
        "mcp__files__move_file",
        {"source": "{root}/src/app.py", "destination": "{root}/.claude/settings.json"},
    ),
]

RECLASSIFIED = WIDE_OPEN + '\n[tools]\n"mcp__shellx__*" = "execute"\n"mcp__files__*" = "write"\n'


@pytest.fixture(scope="module")
def linked() -> Iterator[Arena]:
    """An arena with a hard link to the config in ``src/``, a symlink ``cl`` to ``.claude``
    and a symlinked file to the settings: made as a subagent's ``ln`` would make them."""
    with new_arena(RECLASSIFIED) as a:
        os.link(a.root / ".claude" / "boundary.toml", a.root / "src" / "h.toml")
        os.symlink(".claude", a.root / "cl")
        os.symlink("../.claude/settings.json", a.root / "src" / "link.json")
        a.warm()
        yield a


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_links_odd_keys_and_long_paths_are_tamper(
    linked: Arena, attack: Attack, route: str
) -> None:
    attempt(linked, attack, route)


ORDINARY = [
    ("a script that writes a source file", {"script": "echo x > src/app.py"}),
    ("code that computes", {"code": "print(sum(range(10)))"}),
    ("code that reads the settings", {"code": "print(open('.claude/settings.json').read())"}),
    ("names of ordinary files", {"name": "src/app.py", "other": "README.md"}),
    ("a long one-line text value", {"title": "x" * 20_000}),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(("label", "tool_input"), ORDINARY, ids=[c for c, _ in ORDINARY])
def test_ordinary_values_keep_their_verdict(
    linked: Arena, label: str, tool_input: dict[str, object], route: str
) -> None:
    attack = Attack(label, "mcp__x__do", tool_input, env=ENFORCE, expect=("none", None))
    attempt(linked, attack, route)
