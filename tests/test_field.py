"""The field check's core (ADR 0029): which changes the analysis predicted, which it missed,
which it never claimed to know; and Claude Code's ``bashEditDiff`` as 2.1.330 sends it."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator_boundary.bash import analyze
from orchestrator_boundary.field import (
    EditDiff,
    Finding,
    Prediction,
    compare,
    edit_diff,
    prediction,
    relative,
)

ROOT = "/home/u/proj"


def _compare(p: Prediction, changed: list[str], **kw: Any) -> Finding:
    base: dict[str, Any] = {"fold": False, "source": "scan", "partial": False, "overlapped": False}
    return compare(p, changed, ROOT, **{**base, **kw})


@pytest.mark.parametrize(
    ("command", "changed", "missed", "opaque"),
    [
        ("cat a.txt", ["pwned.txt"], ["pwned.txt"], []),
        ("cat a.txt", [], [], []),
        ("echo hi > out.txt", ["out.txt"], [], []),
        ("echo hi > out.txt", ["out.txt", "other.txt"], ["other.txt"], []),
        ("rm -r build", ["build", "build/a.o", "build/sub/b.o"], [], []),
        ("mkdir -p d && echo x > d/new.txt", ["d", "d/new.txt"], [], []),
        ("cd sub && echo x > f", ["sub/f"], [], []),
        ("make", ["build/app"], [], ["build/app"]),
        ("echo x > $OUT", ["anything"], [], ["anything"]),
    ],
    ids=[
        "read-only-that-wrote",
        "read-only-that-did-not",
        "predicted-write",
        "write-plus-an-unpredicted-one",
        "folder-target-covers-below",
        "new-folder-and-file",
        "cd-followed",
        "opaque-runner",
        "unresolved-target",
    ],
)
def test_changes_against_the_analysis(
    command: str, changed: list[str], missed: list[str], opaque: list[str]
) -> None:
    p = prediction(analyze(command, cwd=ROOT))
    found = _compare(p, changed)
    assert (list(found.missed), list(found.opaque)) == (missed, opaque)
    assert list(found.changed) == sorted(changed)


def test_a_target_spelled_another_way_covers() -> None:
    p = Prediction("writes", ("/link/proj/out.txt", "/home/u/proj/out.txt"))
    assert _compare(p, ["out.txt"]).missed == ()


def test_case_folds_where_the_file_system_ignores_case() -> None:
    p = Prediction("writes", ("/home/u/proj/OUT.txt",))
    assert _compare(p, ["out.txt"], fold=True).missed == ()
    assert _compare(p, ["out.txt"], fold=False).missed == ("out.txt",)


def test_windows_paths_compare_with_either_separator() -> None:
    p = Prediction("writes", ("C:/Users/u/proj/out.txt",))
    found = compare(
        p,
        ["out.txt", "b.txt"],
        "C:\\Users\\u\\proj",
        fold=True,
        source="scan",
        partial=False,
        overlapped=False,
    )
    assert found.missed == ("b.txt",)


def test_the_audit_value_is_bounded_and_counts_everything() -> None:
    changed = [f"f{n:03}" for n in range(50)]
    value = _compare(Prediction("read_only"), changed, overlapped=True).audit(ms=1.5)
    assert value["changed_count"] == value["missed_count"] == 50
    assert len(value["changed"]) == len(value["missed"]) == 20
    assert (value["overlapped"], value["partial"], value["ms"]) == (True, False, 1.5)
    assert "opaque" not in value


# What 2.1.330 sent for `echo hi > out.txt && mkdir -p d && ...` (research notes, section 2).
def _diff(n_changed: int, files: int, more: int, **extra: Any) -> dict[str, Any]:
    return {
        "stdout": "",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
        "bashEditDiff": {
            "files": [
                {"filePath": f"{ROOT}/f{i}.txt", "hunks": [], "created": True} for i in range(files)
            ],
            "moreFiles": more,
            "changedFiles": [f"{ROOT}/f{i}.txt" for i in range(n_changed)],
            **extra,
        },
    }


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ({"stdout": "", "stderr": "", "interrupted": False}, None),
        ("not an object", None),
        (_diff(5, 5, 0), EditDiff(tuple(f"{ROOT}/f{i}.txt" for i in range(5)), False, False)),
        (_diff(200, 5, 255), EditDiff(tuple(f"{ROOT}/f{i}.txt" for i in range(200)), True, False)),
        (_diff(0, 0, 0, unavailable=True), EditDiff((), False, True)),
    ],
    ids=["no-diff", "not-a-mapping", "five-files", "cut-at-200", "unavailable"],
)
def test_edit_diff_as_the_cli_sends_it(response: object, expected: EditDiff | None) -> None:
    assert edit_diff(response) == expected


def test_edit_diff_without_changed_files_falls_back_to_the_shown_ones() -> None:
    response = _diff(0, 2, 0)
    del response["bashEditDiff"]["changedFiles"]
    assert edit_diff(response) == EditDiff((f"{ROOT}/f0.txt", f"{ROOT}/f1.txt"), False, False)


@pytest.mark.parametrize(
    ("path", "fold", "expected"),
    [
        (f"{ROOT}/src/a.py", False, "src/a.py"),
        ("/home/u/other/a.py", False, None),
        ("/home/u/proj2/a.py", False, None),
        (ROOT, False, None),
        ("/HOME/u/proj/a.py", True, "a.py"),
        ("C:\\Users\\u\\proj\\a.py", True, "a.py"),
    ],
    ids=["inside", "outside", "sibling-prefix", "the-root", "folded", "windows"],
)
def test_relative_to_the_root(path: str, fold: bool, expected: str | None) -> None:
    root = "C:/Users/u/proj" if path.startswith("C:") else ROOT
    assert relative(path, root, fold=fold) == expected
