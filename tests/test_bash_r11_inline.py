"""Round eleven (ADR 0077): node code that binds a file writer to another name and calls it
by that name (``const {writeFileSync: w} = require('fs'); w('x', '')``) was ``read_only``: the
analysis reads writers by the name they are called by. A writer named without being called is
now opaque."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import Status, analyze

RENAMED = [
    ("destructured", "node -e \"const {writeFileSync: w} = require('fs'); w('x', '')\""),
    ("destructured-tight", "node -e \"const {writeFileSync:w}=require('fs'); w('x','')\""),
    ("destructured-rename", "node -e \"const {renameSync: mv} = require('fs'); mv('a', 'b')\""),
    ("member-alias", "node -e \"const w = require('fs').writeFileSync; w('x', '')\""),
]


@pytest.mark.parametrize("command", [r[1] for r in RENAMED], ids=[r[0] for r in RENAMED])
def test_a_writer_under_another_name_is_not_read_only(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is not Status.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "node -e \"const {readFileSync} = require('fs'); console.log(readFileSync('f', 'utf8'))\"",
        'node -e "console.log({open: 1})"',
    ],
)
def test_readers_stay_read_only(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.READ_ONLY
