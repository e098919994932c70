from __future__ import annotations

from dataclasses import dataclass

import pytest

from orchestrator_boundary.paths import Located, Resolved, locate
from orchestrator_boundary.scope import PatternError, check, validate

ROOT = "/p"


@dataclass
class FakeFS:
    windows: bool = False
    insensitive: bool = False
    links: dict[str, str] | None = None

    def realpath(self, path: str) -> str:
        import posixpath

        norm = posixpath.normpath(path)
        for src, dst in (self.links or {}).items():
            if norm == src or norm.startswith(src + "/"):
                norm = dst + norm[len(src) :]
        return norm.replace("//", "/")

    def resolve(self, path: str, real_root: str) -> Resolved:
        return Resolved(self.realpath(path))

    def case_insensitive(self, root: str) -> bool:
        return self.insensitive

    def identity(self, path: str) -> None:
        return None

    def files_below(self, folder: str, limit: int) -> list[str]:
        return []


def inside(rel: str) -> Located:
    return Located("/p/" + rel, ("/p/" + rel,), (rel,), "")


@pytest.mark.parametrize(
    ("patterns", "rel", "allowed"),
    [
        (["STATE.md"], "STATE.md", True),
        (["STATE.md"], "docs/STATE.md", False),  # anchored, unlike gitignore
        (["STATE.md"], "STATE.md/evil.py", False),  # names exactly what it reads
        (["**/STATE.md"], "docs/STATE.md", True),
        (["**/STATE.md"], "STATE.md", True),
        (["src/*"], "src/a.py", True),
        (["src/*"], "src/sub/a.py", False),  # * stays within one folder
        (["src/**"], "src/sub/a.py", True),
        (["src/"], "src/sub/a.py", True),
        (["src/**"], "srcx/a.py", False),
        (["*.md"], "README.md", True),
        (["*.md"], "docs/README.md", False),
        (["src/**", "!src/gen/**"], "src/gen/x.py", False),
        (["!src/gen/**", "src/**"], "src/gen/x.py", False),  # exclusion wins whatever the order
        (["src/**", "!src/gen/**", "src/gen/keep.py"], "src/gen/keep.py", False),
        (["src/**", "!src/gen/**"], "src/other.py", True),
        ([], "src/a.py", False),
    ],
)
def test_anchored_patterns(patterns: list[str], rel: str, allowed: bool) -> None:
    assert check(inside(rel), patterns, False).allowed is allowed


def test_match_names_the_pattern_and_the_exclusion() -> None:
    m = check(inside("src/gen/x.py"), ["src/**", "!src/gen/**"], False)
    assert (m.allowed, m.excluded_by) == (False, "!src/gen/**")
    m = check(inside("src/x.py"), ["src/**", "!src/gen/**"], False)
    assert (m.allowed, m.pattern) == (True, "src/**")


def test_relative_patterns_never_match_outside_the_root() -> None:
    fs = FakeFS()
    outside = locate("/elsewhere/src/a.py", ROOT, fs)
    assert not outside.inside
    assert not check(outside, ["**", "src/**"], False).allowed


def test_absolute_patterns_match_outside_the_root() -> None:
    located = locate("/tmp/build/x.log", ROOT, FakeFS())
    assert check(located, ["/tmp/**"], False).allowed
    assert not check(located, ["/tmp/**", "!/tmp/build/**"], False).allowed


def test_case_folding_only_where_the_filesystem_is_insensitive() -> None:
    assert not check(inside("State.MD"), ["STATE.md"], False).allowed
    assert check(inside("State.MD"), ["STATE.md"], True).allowed


@pytest.mark.parametrize("bad", ["", " x", "../x", "a/../../b", "x\x00"])
def test_invalid_patterns_rejected(bad: str) -> None:
    with pytest.raises(PatternError):
        validate([bad])
