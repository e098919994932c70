"""Issue 6.2: adversarial paths, through ``shell.evaluate`` with real files and CLAUDE_PROJECT_DIR.

Two callers throughout (phase enforce):
  main  - orchestrator, ``write_allow = ["STATE.md", "docs/**"]``
  coder - subagent profile, ``write_scope = ["src/**", "!src/secrets/**"]``
Each case states the exact (decision, code) for both. ``ok`` = no decision, no code.
"""

from __future__ import annotations

import os
import posixpath
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from harden_support import Project, make_project

from orchestrator_boundary import fs as fs_mod
from orchestrator_boundary import setups
from orchestrator_boundary.paths import Resolved


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


OK = ("none", None)
ORCH = ("deny", "ORCHESTRATOR_WRITE")
SCOPE = ("deny", "SCOPE_VIOLATION")
TAMPER = ("deny", "TAMPER")
ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}


@pytest.fixture
def tree(project: Project) -> Project:
    r = project.root
    outside = r.parent / "outside"
    outside.mkdir()
    (r / "scripts").mkdir()
    (r / "docs" / "out").symlink_to(outside)  # folder out of the root
    (r / "src" / "lnk").symlink_to(r / "scripts")  # folder out of the scope
    (r / "src" / "pub").symlink_to(r / "src" / "secrets")  # folder into the exclusion
    (r / "src" / "cfg").symlink_to(r / ".claude")  # folder into the protected folder
    (r / "docs" / "note.md").symlink_to(r / "src" / "app.py")  # file out of the scope
    (r / "docs" / "s.json").symlink_to(r / ".claude" / "settings.json")  # file into protected
    (r / "docs" / "dangling.md").symlink_to(r / "src" / "new.py")  # not there yet
    (r / "src" / "up").symlink_to(r.parent)  # above the root
    return project


def _check(
    project: Project, raw: str, expect_main: tuple, expect_coder: tuple, cwd: str | None = None
) -> None:
    for agent, expected in ((None, expect_main), ("coder", expect_coder)):
        decision, code, answer = project.judge(
            "Write", {"file_path": raw, "content": "x"}, agent=agent, cwd=cwd, env=ENFORCE
        )
        assert (decision, code) == expected, (agent or "main", raw)
        assert answer.exit_code == 0
        assert (answer.stdout != "") == (decision == "deny")


R = "{R}"
CASES: list[tuple[str, str, tuple, tuple]] = [
    # id, path ({R} = project root), main, coder
    ("plain docs", "{R}/docs/x.md", OK, SCOPE),
    ("plain src", "{R}/src/x.py", ORCH, OK),
    ("plain secret", "{R}/src/secrets/key.txt", ORCH, SCOPE),
    ("state", "{R}/STATE.md", OK, SCOPE),
    ("state nested is not state", "{R}/docs/../src/STATE.md", ORCH, OK),
    # .. segments
    ("dotdot into src", "{R}/docs/../src/app.py", ORCH, OK),
    ("dotdot into docs", "{R}/src/../docs/x.md", OK, SCOPE),
    ("dotdot out of root", "{R}/docs/../../outside.txt", ORCH, SCOPE),
    ("dotdot far out", "{R}/src/../../../../../../etc/passwd", ORCH, SCOPE),
    ("dotdot into secrets", "{R}/src/x/../secrets/key.txt", ORCH, SCOPE),
    ("dotdot into protected", "{R}/src/../.claude/settings.json", TAMPER, TAMPER),
    # the root itself is never a file inside it; writing into the root is judged by the write
    # rules (deleting it is TAMPER: tests/test_tamper.py)
    ("dotdot root itself", "{R}/src/..", ORCH, SCOPE),
    # absolute paths outside
    ("etc", "/etc/passwd", ORCH, SCOPE),
    ("tmp", "/tmp/boundary-adv-x", ORCH, SCOPE),
    ("root prefix sibling", "{R}-evil/docs/x.md", ORCH, SCOPE),
    # symlinks
    ("dir link out of root", "{R}/docs/out/x.md", ORCH, SCOPE),
    ("dir link out of scope", "{R}/src/lnk/run.sh", ORCH, SCOPE),
    ("dir link into exclusion", "{R}/src/pub/key.txt", ORCH, SCOPE),
    ("dir link into protected", "{R}/src/cfg/settings.json", TAMPER, TAMPER),
    ("dir link into protected agents", "{R}/src/cfg/agents/evil.md", TAMPER, TAMPER),
    ("dir link above root", "{R}/src/up/outside/x", ORCH, SCOPE),
    ("file link out of scope", "{R}/docs/note.md", ORCH, OK),
    ("file link into protected", "{R}/docs/s.json", TAMPER, TAMPER),
    ("dangling link out of scope", "{R}/docs/dangling.md", ORCH, OK),
    # trailing slashes, //, ./
    ("trailing slash secrets", "{R}/src/secrets/", ORCH, SCOPE),
    ("trailing slash protected", "{R}/.claude/settings.json/", TAMPER, TAMPER),
    ("trailing slash file", "{R}/STATE.md/", OK, SCOPE),
    ("double slash secret", "{R}//src//secrets//key.txt", ORCH, SCOPE),
    ("double slash docs", "{R}/docs//x.md", OK, SCOPE),
    ("double slash leading", "/{R}/src/x.py", ORCH, OK),
    ("dot segments secret", "{R}/./src/./secrets/./key.txt", ORCH, SCOPE),
    ("dot segments protected", "{R}/./.claude/./boundary.toml", TAMPER, TAMPER),
    ("mixed", "{R}/src/.//./../src/secrets//./key.txt", ORCH, SCOPE),
    # Unicode look-alikes: different names, so ordinary files under the ordinary rules
    ("cyrillic o in docs", "{R}/d\u043ecs/x.md", ORCH, SCOPE),
    ("fullwidth docs", "{R}/\uff44\uff4f\uff43\uff53/x.md", ORCH, SCOPE),
    ("cyrillic s in src", "{R}/\u0455rc/x.py", ORCH, SCOPE),
    ("cyrillic c in .claude", "{R}/.\u0441laude/settings.json", ORCH, SCOPE),
    ("fullwidth slash", "{R}/docs\uff0f..\uff0f..\uff0fx", ORCH, SCOPE),  # one odd name in the root
    # Windows forms on Linux: never inside
    ("drive letter", "C:\\proj\\docs\\x.md", ORCH, SCOPE),
    ("drive letter slashes", "C:/proj/src/x.py", ORCH, SCOPE),
    ("unc", "\\\\server\\share\\docs\\x.md", ORCH, SCOPE),
    ("unc slashes", "//server/share/src/x.py", ORCH, SCOPE),
    ("backslash dotdot", "{R}/docs\\..\\src\\app.py", ORCH, SCOPE),
    ("backslash into protected", "{R}/src\\..\\.claude\\settings.json", TAMPER, TAMPER),
    ("backslash secrets", "{R}/src/secrets\\key.txt", ORCH, SCOPE),
    # NUL bytes, empty
    ("nul", "{R}/docs/x.md\x00/../../src/app.py", ORCH, SCOPE),
    ("nul protected", "{R}/.claude/settings.json\x00", ORCH, SCOPE),
    ("empty", "", ORCH, SCOPE),
    # very long
    ("over the cap", "{R}/docs/" + "a/" * 9000 + "x.md", ORCH, SCOPE),
    ("long but under the cap", "{R}/src/" + "b" * 200 + "/" + "c" * 200 + ".py", ORCH, OK),
    ("long dotdot escape", "{R}/src/" + "a/" * 2000 + "../" * 2002 + "etc/passwd", ORCH, SCOPE),
]


@pytest.mark.parametrize(
    ("raw", "main", "coder"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_adversarial_path(tree: Project, raw: str, main: tuple, coder: tuple) -> None:
    _check(tree, raw.replace(R, str(tree.root)), main, coder)


def test_nul_byte_path_is_never_silently_allowed(tree: Project) -> None:
    """A NUL byte makes a path unresolvable (the OS refuses such a name anyway): it is never
    inside a scope, so even in warn it is reported, and in enforce denied. Its text, with the
    NUL dropped, names the settings: that is TAMPER, denied in warn too."""
    raw = f"{tree.root}/src/x.py\x00/../../.claude/settings.json"
    decision, code, _ = tree.judge("Write", {"file_path": raw, "content": ""}, agent="coder")
    assert (decision, code) == TAMPER
    plain = f"{tree.root}/src/x.py\x00/notes.md"
    decision, code, _ = tree.judge("Write", {"file_path": plain, "content": ""}, agent="coder")
    assert (decision, code) == ("warn", "SCOPE_VIOLATION")
    assert (
        tree.judge("Write", {"file_path": plain, "content": ""}, agent="coder", env=ENFORCE)[:2]
        == SCOPE
    )


def test_symlink_created_earlier_in_the_session(tree: Project) -> None:
    """Create a link (as an allowed earlier step would), then write through it."""
    r = tree.root
    link = r / "src" / "later"
    # step 1: the subagent creates the link inside its scope (an ordinary path for the guard)
    tree.judge("Bash", {"command": f"ln -s {r}/.claude {link}"}, agent="coder", env=ENFORCE)
    link.symlink_to(r / ".claude")
    # step 2: write through it
    _check(tree, f"{link}/settings.json", TAMPER, TAMPER)
    # same with a link out of the scope and one into the exclusion
    (r / "src" / "later2").symlink_to(r / "scripts")
    _check(tree, f"{r}/src/later2/x.sh", ORCH, SCOPE)
    (r / "docs" / "later3").symlink_to(r / "src" / "secrets")
    _check(tree, f"{r}/docs/later3/key.txt", ORCH, SCOPE)


def test_symlink_swapped_after_an_allowed_check(tree: Project) -> None:
    """The known race (ADR 0010): the hook decides on what the path is *now*. A later swap is
    judged again at the next call; here we only show each decision is about the current link."""
    r = tree.root
    link = r / "src" / "swap"
    (r / "src" / "real").mkdir()
    link.symlink_to(r / "src" / "real")
    _check(tree, f"{link}/x.py", ORCH, OK)
    link.unlink()
    link.symlink_to(r / ".claude")
    _check(tree, f"{link}/settings.json", TAMPER, TAMPER)


@pytest.mark.parametrize(
    ("cwd", "raw", "main", "coder"),
    [
        ("src", "app.py", ORCH, SCOPE),  # relative: never inside anything
        ("docs", "x.md", ORCH, SCOPE),
        ("src", "../docs/x.md", ORCH, SCOPE),
        ("src", "./secrets/key.txt", ORCH, SCOPE),
        ("src", "../.claude/settings.json", TAMPER, TAMPER),
        ("docs", "../.env", TAMPER, TAMPER),
        # absolute paths ignore cwd
        ("/tmp", "{R}/docs/x.md", OK, SCOPE),
        ("/tmp", "{R}/src/x.py", ORCH, OK),
        ("/", "etc/passwd", ORCH, SCOPE),
    ],
)
def test_paths_relative_to_a_changed_cwd(
    tree: Project, cwd: str, raw: str, main: tuple, coder: tuple
) -> None:
    where = cwd if cwd.startswith("/") else str(tree.root / cwd)
    _check(tree, raw.replace(R, str(tree.root)), main, coder, cwd=where)


def test_nfc_and_nfd_forms_on_a_case_sensitive_filesystem(tree: Project) -> None:
    """On Linux NFC and NFD spell different files: each form is judged as itself."""
    for form in ("NFC", "NFD"):
        name = unicodedata.normalize(form, "caf\u00e9.md")
        _check(tree, f"{tree.root}/docs/{name}", OK, SCOPE)
        _check(tree, f"{tree.root}/src/secrets/{name}", ORCH, SCOPE)
        _check(tree, f"{tree.root}/src/{name}", ORCH, OK)


def test_unicode_look_alike_folders_are_really_different(tree: Project) -> None:
    """A look-alike of ``secrets`` is allowed because it is a different folder, not a way in."""
    r = tree.root
    for alike in ("\u0455ecrets", "\uff53\uff45\uff43\uff52\uff45\uff54\uff53", "secret\u0455"):
        _check(tree, f"{r}/src/{alike}/key.txt", ORCH, OK)
        (r / "src" / alike).mkdir()
        (r / "src" / alike / "key.txt").write_text("other\n")
        other = r / "src" / alike / "key.txt"
        assert not other.samefile(r / "src" / "secrets" / "key.txt")


# --- case-insensitive filesystems, faked ----------------------------------------------------


class InsensitiveFS:
    """A FileSystem double that says what macOS/Windows would: names fold, NFC == NFD."""

    windows = False

    def __init__(self) -> None:
        self.asked: list[str] = []

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def resolve(self, path: str, real_root: str) -> Resolved:
        return Resolved(os.path.realpath(path))

    def case_insensitive(self, root: str) -> bool:
        self.asked.append(root)
        return True

    def identity(self, path: str) -> None:
        return None  # no hard links on this double

    def script_text(self, path: str, limit: int) -> str | None:
        from orchestrator_boundary.fs import RealFileSystem  # files' text as they are

        return RealFileSystem().script_text(path, limit)

    def files_below(self, folder: str, limit: int) -> list[str]:
        return []


@pytest.fixture
def insensitive(tree: Project, monkeypatch: pytest.MonkeyPatch) -> InsensitiveFS:
    fake = InsensitiveFS()
    monkeypatch.setattr(setups, "FS", fake)
    return fake


CASE_CASES = [
    ("{R}/SRC/Secrets/key.txt", ORCH, SCOPE),
    ("{R}/src/SECRETS/new.txt", ORCH, SCOPE),
    ("{R}/.CLAUDE/Settings.JSON", TAMPER, TAMPER),
    ("{R}/.Claude/Agents/evil.md", TAMPER, TAMPER),
    ("{R}/.claude/BOUNDARY.toml", TAMPER, TAMPER),
    ("{R}/.ENV", TAMPER, TAMPER),
    ("{R}/Docs/x.md", OK, SCOPE),  # the same folder there: allowed is right
    ("{R}/state.md", OK, SCOPE),
    ("{R}/Src/x.py", ORCH, OK),
    ("{R}/src/secre\u0301ts/key.txt".replace("e\u0301", "e"), ORCH, SCOPE),
]


@pytest.mark.parametrize(("raw", "main", "coder"), CASE_CASES)
def test_mixed_case_on_a_case_insensitive_filesystem(
    tree: Project, insensitive: InsensitiveFS, raw: str, main: tuple, coder: tuple
) -> None:
    _check(tree, raw.replace(R, str(tree.root)), main, coder)
    assert insensitive.asked, "the policy must ask the filesystem, not assume"


def test_root_spelled_in_another_case_on_a_case_insensitive_filesystem(
    tree: Project, insensitive: InsensitiveFS
) -> None:
    root = str(tree.root)
    swapped = posixpath.join(posixpath.dirname(root), posixpath.basename(root).upper())
    _check(tree, f"{swapped}/.claude/settings.json", TAMPER, TAMPER)


def test_nfd_spelling_of_protected_file_on_a_normalising_filesystem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root with a non-ASCII name; the payload spells it in NFD (as macOS tools may)."""
    from harden_support import BASE_CONFIG
    from harden_support import Project as P

    root = tmp_path / unicodedata.normalize("NFC", "caf\u00e9-proj")
    (root / ".claude").mkdir(parents=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    p = P(root, tmp_path / "home")
    p.env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path / "home")}
    p.configure(BASE_CONFIG)
    monkeypatch.setattr(setups, "FS", InsensitiveFS())
    nfd_root = unicodedata.normalize("NFD", str(root))
    assert nfd_root != str(root)
    _check(p, f"{nfd_root}/.claude/settings.json", TAMPER, TAMPER)
    _check(p, f"{nfd_root}/docs/x.md", OK, SCOPE)


def test_case_sensitivity_is_probed_not_assumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe: Callable[[str], bool] = fs_mod._probe_case_insensitive
    sensitive = tmp_path / "Proj"
    sensitive.mkdir()
    probe.cache_clear()  # type: ignore[attr-defined]
    assert probe(str(sensitive)) is False  # Linux: PROJ does not exist
    # a second folder with the swapped name: still two different folders, still sensitive
    other = tmp_path / "x" / "Work"
    other.mkdir(parents=True)
    (tmp_path / "x" / "wORK").mkdir()
    assert probe(str(other)) is False
    # a volume where the swapped spelling reaches the same folder (what a case-insensitive
    # volume does, faked by folding in stat): the probe now says insensitive, so it is a
    # measurement, not a platform guess
    folded = tmp_path / "y" / "data"
    folded.mkdir(parents=True)
    real_stat = os.stat
    monkeypatch.setattr(fs_mod.os, "stat", lambda p, *a, **k: real_stat(str(p).lower(), *a, **k))
    probe.cache_clear()  # type: ignore[attr-defined]
    try:
        assert probe(str(folded).lower()) is True
    finally:
        monkeypatch.undo()
        probe.cache_clear()  # type: ignore[attr-defined]


def test_root_whose_folded_form_changes_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack: on a case-insensitive volume a root named ``Straße`` folds to ``strasse`` (one
    character longer); slicing the real path by the folded root's length shifted the relative
    path by one, so ``<root>/Xdocs/evil.py`` was judged as ``docs/evil.py`` and allowed."""
    from harden_support import BASE_CONFIG
    from harden_support import Project as P

    root = tmp_path / "Stra\u00dfe"
    (root / ".claude").mkdir(parents=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    p = P(root, tmp_path / "home")
    p.env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path / "home")}
    p.configure(BASE_CONFIG)
    monkeypatch.setattr(setups, "FS", InsensitiveFS())
    _check(p, f"{root}/Xdocs/evil.py", ORCH, SCOPE)
    _check(p, f"{root}/Xsrc/evil.py", ORCH, SCOPE)
    _check(p, f"{root}/docs/fine.md", OK, SCOPE)
    _check(p, f"{root}/src/fine.py", ORCH, OK)


@pytest.mark.parametrize("rel", ["src/secrets", "src/secrets/", "src"])
def test_changing_the_folder_that_holds_an_exclusion_is_out_of_scope(
    tree: Project, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    """Attack: ``!src/secrets/**`` excluded the files inside but not the folder itself, so a
    subagent could ``rm -rf src/secrets`` or ``mv src/secrets src/x`` and then edit freely.
    (The Bash analysis is replaced by a stand-in that reports the delete.)"""
    from orchestrator_boundary import bash as bash_mod
    from orchestrator_boundary.bash.model import BashAnalysis, Command, Effect, EffectKind, Status

    tree.configure('[agents.coder]\nwrite_scope = ["**", "!src/secrets/**"]\n')
    command = f"rm -rf {rel}"
    effect = Effect(
        EffectKind.DELETE, rel, os.path.normpath(str(tree.root / rel)), command, "stand-in"
    )
    analysis = BashAnalysis(
        Status.WRITES, (Command(command, "rm", Status.WRITES, (effect,)),), (effect,)
    )
    monkeypatch.setattr(bash_mod, "analyze", lambda *_a, **_k: analysis)
    decision, code, _ = tree.judge("Bash", {"command": command}, agent="coder", env=ENFORCE)
    assert (decision, code) == SCOPE
    # an ordinary folder stays deletable
    other = Effect(EffectKind.DELETE, "build", str(tree.root / "build"), "rm -rf build", "stand-in")
    monkeypatch.setattr(
        bash_mod,
        "analyze",
        lambda *_a, **_k: BashAnalysis(
            Status.WRITES, (Command("rm -rf build", "rm", Status.WRITES, (other,)),), (other,)
        ),
    )
    assert tree.judge("Bash", {"command": "rm -rf build"}, agent="coder", env=ENFORCE)[:2] == OK
