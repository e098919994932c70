"""``protect.hit`` looks entries up in the index built with the protected set; it answers what
a plain walk over the set answers, for every set."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from orchestrator_boundary.paths import Located, fold
from orchestrator_boundary.protect import Protected, hit, index

PARTS = st.sampled_from(["a", "b", "B", ".claude", "x.1"])
PATHS = st.lists(PARTS, max_size=4).map(lambda parts: "/" + "/".join(parts)) | st.sampled_from(
    ["/", "//a", "/a/", "/a//b", "\\a\\b", "a/b"]
)
ENTRIES = st.builds(Protected, PATHS, st.booleans(), st.sampled_from(["one", "two"]), st.booleans())


def _key(path: str, insensitive: bool) -> str:
    return fold(path.replace("\\", "/"), insensitive).rstrip("/")


def _plain(
    located: Located, protected: tuple[Protected, ...], insensitive: bool, anchors: tuple[str, ...]
) -> Protected | None:
    """hit() as its docstring reads, the set walked in order for every question."""
    entries = [e for e in protected if not e.prefix]
    for absolute in located.absolutes or (located.raw,):
        raw = fold(absolute.replace("\\", "/"), insensitive)
        for e in protected:
            if e.prefix and raw.startswith(fold(e.path.replace("\\", "/"), insensitive)):
                return e
        a = raw.rstrip("/")
        for e in entries:
            if _key(e.path, insensitive) == a:
                return e
        parent = a
        while "/" in parent:
            parent = parent.rpartition("/")[0]
            for e in entries:
                if e.folder and _key(e.path, insensitive) == parent:
                    return e
        for e in entries:
            above, key = [], _key(e.path, insensitive)
            while "/" in key:
                key = key.rpartition("/")[0]
                above.append(key)
            if a in above:
                keys = [_key(x, insensitive) for x in anchors]
                if any(k == a or k.startswith(a + "/") for k in keys):
                    break  # an anchor, or a folder above one: not a holder
                return Protected(e.path, e.folder, f"a folder holding {e.label}")
    return None


@given(
    st.lists(ENTRIES, max_size=6).map(tuple),
    st.lists(PATHS, min_size=0, max_size=2).map(tuple),
    PATHS,
    st.booleans(),
    st.sampled_from([(), ("/a",), ("/a/b", "/B")]),
)
def test_hit_answers_what_a_walk_over_the_set_answers(
    protected: tuple[Protected, ...],
    absolutes: tuple[str, ...],
    raw: str,
    insensitive: bool,
    anchors: tuple[str, ...],
) -> None:
    located = Located(raw, absolutes, (), "")
    assert hit(located, index(protected, insensitive), anchors) == _plain(
        located, protected, insensitive, anchors
    )


def test_each_protected_set_is_read_for_itself() -> None:
    """A set made later (after FS_TTL) has its own index, and older ones still answer."""
    sets = [index((Protected(f"/p/{i}", True, f"set {i}"),), False) for i in range(12)]
    for _ in range(2):
        for i, protected in enumerate(sets):
            found = hit(Located("", (f"/p/{i}/f",), (), ""), protected)
            assert found is not None and found.label == f"set {i}"
            assert hit(Located("", (f"/p/{i + 1}/f",), (), ""), protected) is None
