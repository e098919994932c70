"""Issue 15 points 7 and 1, ADR 0041: the compiled config on (simulated) Windows.

The runtime folder is ``%LOCALAPPDATA%\\orchestrator-boundary`` when LOCALAPPDATA is an absolute
drive path, and nothing otherwise. The hooks here are the real entry point run as a new process
under the Windows simulation (tests/windows_sim.py: ntpath rules, no fcntl, no AF_UNIX, no
``os.getuid``) on a project at ``C:\\Users\\dev\\proj``; which modules a call imported is read
from the simulation's exit report. The folder and entry checks that replace POSIX's owner and
mode check are shown in this process under the simulation.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO
from harden_support import same_stat_edit
from windows_sim import Simulation, python_argv, sim_env

ROOT = "C:\\Users\\dev\\proj"
LOCAL = "C:\\Users\\dev\\AppData\\Local"
HOOK = str(REPO / "hooks" / "hook.py")
CONFIG = '[orchestrator]\nwrite_allow = ["aaaa.md"]\n'
VALIDATION = {"pydantic", "tomllib"}
# what tests/test_lean_imports.py keeps out of an in-process Read, less what the simulation
# itself imports before it starts (asyncio, and logging and ssl through it)
NOT_FOR_A_READ = VALIDATION | {"pathspec", "sqlite3", "tree_sitter"}


@pytest.fixture
def drive_c(tmp_path: Path) -> Path:
    """Drive C: with the project (and its config) and the user's profile on it."""
    c = tmp_path / "C"
    proj = c / "Users" / "dev" / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / ".claude" / "boundary.toml").write_text(CONFIG)
    (proj / "src").mkdir()
    (proj / "src" / "a.py").write_text("x = 1\n")
    (c / "Users" / "dev" / "AppData" / "Local").mkdir(parents=True)
    return c


def _payload(tool: str, path: str, *, subagent: bool = False) -> bytes:
    data: dict[str, Any] = {
        "session_id": "6d1c5b2e-0000-4000-8000-00000000000c",
        "cwd": ROOT,
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"file_path": path},
        "tool_use_id": "toolu_01WINCACHE",
    }
    if tool == "Write":
        data["tool_input"]["content"] = "y = 2\n"
    if subagent:
        data["agent_id"] = "a1b2c3d4e5f607182"
        data["agent_type"] = "general-purpose"
    return json.dumps(data).encode()


def _env(local_app_data: str | None, **more: str) -> dict[str, str]:
    """What Claude Code hands a hook on Windows; the call is judged in the hook's process."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CLAUDE_PROJECT_DIR": ROOT,
        "HOME": "C:\\Users\\dev",
        "USERPROFILE": "C:\\Users\\dev",
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        **more,
    }
    if local_app_data is not None:
        env["LOCALAPPDATA"] = local_app_data
    return env


def _call(drive_c: Path, raw: bytes, env: dict[str, str]) -> tuple[str, set[str]]:
    """Run the hook once: (its verdict, the top-level modules it imported)."""
    report = drive_c.parent / "report.json"
    full = sim_env(env, drives={"C:": str(drive_c)}, cwd=ROOT, report=str(report))
    done = subprocess.run(
        python_argv(HOOK, "PreToolUse"),
        input=raw,
        env=full,
        capture_output=True,
        timeout=120,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 0, err[-1500:]
    facts = json.loads(report.read_text())
    assert facts["blocked"] == []
    verdict = "none"
    if done.stdout:
        out = json.loads(done.stdout)["hookSpecificOutput"]
        verdict = out["permissionDecision"]
        if "(TAMPER)" in out.get("permissionDecisionReason", ""):
            verdict += "/tamper"
    return verdict, {m.split(".")[0] for m in facts["modules"]}


def _entries(drive_c: Path) -> list[Path]:
    folder = drive_c / "Users" / "dev" / "AppData" / "Local" / "orchestrator-boundary"
    return sorted((folder / "configs").glob("*.json"))


def _write(name: str) -> bytes:
    return _payload("Write", f"{ROOT}\\{name}")


# ---- where the runtime folder is ----

RUNTIME_DIRS = [
    ("profile", None, LOCAL, LOCAL + "\\orchestrator-boundary"),
    (
        "forward-slashes",
        None,
        "c:/Users/dev/AppData/Local",
        "c:" + LOCAL[2:] + "\\orchestrator-boundary",
    ),
    ("explicit-wins", "D:\\rt", LOCAL, "D:\\rt"),
    ("unset", None, None, None),
    ("empty", None, "", None),
    ("relative", None, "AppData\\Local", None),
    ("drive-relative", None, "C:AppData\\Local", None),
    ("rooted-no-drive", None, "\\Users\\dev\\AppData\\Local", None),
    ("posix-form", None, "/home/dev/.local", None),
    ("drive-root", None, "C:\\", None),
    ("dot-dot-to-root", None, "C:\\Users\\..", None),
    ("unc-share", None, "\\\\server\\share\\dev", None),
    ("device-path", None, "\\\\?\\C:\\Users\\dev\\AppData\\Local", None),
]


@pytest.mark.parametrize(
    ("explicit", "local", "expected"),
    [r[1:] for r in RUNTIME_DIRS],
    ids=[r[0] for r in RUNTIME_DIRS],
)
def test_windows_runtime_folder(
    explicit: str | None, local: str | None, expected: str | None
) -> None:
    """Never a folder at a drive's root or on a share, which another user could make first."""
    from orchestrator_boundary import wire

    assert wire.windows_runtime_dir(explicit, local) == expected


# ---- the compiled config is used, under simulated Windows ----


def test_the_next_call_reads_the_compiled_config(drive_c: Path) -> None:
    """The first call validates (pydantic, tomllib) and leaves an entry in
    ``%LOCALAPPDATA%\\orchestrator-boundary\\configs``; the next ones judge from it, by the
    config it holds (write_allow), without importing either."""
    env = _env(LOCAL)
    first = _call(drive_c, _payload("Read", f"{ROOT}\\src\\a.py"), env)
    assert first[0] == "none" and first[1] >= VALIDATION
    assert len(_entries(drive_c)) == 1
    for name, verdict in [("src\\a.py", "deny"), ("aaaa.md", "none")]:
        got, modules = _call(drive_c, _write(name), env)
        assert got == verdict, name
        assert not VALIDATION & modules, name
    read = _call(drive_c, _payload("Read", f"{ROOT}\\src\\a.py"), env)
    assert read[0] == "none" and not NOT_FOR_A_READ & read[1]
    assert len(_entries(drive_c)) == 1


@pytest.mark.parametrize(
    "local",
    [None, "AppData\\Local", "C:\\", "\\\\server\\share\\dev"],
    ids=["unset", "relative", "drive-root", "unc-share"],
)
def test_without_a_usable_localappdata_nothing_is_cached(drive_c: Path, local: str | None) -> None:
    """Every call validates, judges as it would anywhere, and leaves no folder behind (not
    ``C:\\orchestrator-boundary``, nor one beside the project)."""
    env = _env(local)
    for _ in range(2):
        got, modules = _call(drive_c, _write("src\\a.py"), env)
        assert got == "deny" and modules >= VALIDATION
        got, modules = _call(drive_c, _write("aaaa.md"), env)
        assert got == "none" and modules >= VALIDATION
    left = [p for p in drive_c.rglob("*") if "orchestrator-boundary" in p.name]
    assert left == []


def test_a_config_edit_keeping_size_and_mtime_is_never_answered_from_the_old_entry(
    drive_c: Path,
) -> None:
    env = _env(LOCAL)
    assert _call(drive_c, _write("aaaa.md"), env)[0] == "none"
    got, modules = _call(drive_c, _write("aaaa.md"), env)
    assert got == "none" and not VALIDATION & modules  # from the entry
    cfg = drive_c / "Users" / "dev" / "proj" / ".claude" / "boundary.toml"
    same_stat_edit(cfg, CONFIG.replace("aaaa", "bbbb"))
    got, modules = _call(drive_c, _write("aaaa.md"), env)
    assert got == "deny" and modules >= VALIDATION  # validated afresh
    got, modules = _call(drive_c, _write("aaaa.md"), env)
    assert got == "deny" and not VALIDATION & modules  # and kept under the new key
    assert _call(drive_c, _write("bbbb.md"), env)[0] == "none"
    assert len(_entries(drive_c)) == 2


@pytest.mark.parametrize(
    ("phase", "bypass"), [("enforce", ""), ("warn", "1")], ids=["enforce", "warn+bypass"]
)
@pytest.mark.parametrize("subagent", [False, True], ids=["main", "subagent"])
def test_the_runtime_folder_is_protected_on_windows(
    drive_c: Path, phase: str, bypass: str, subagent: bool
) -> None:
    """A Write into the folder the compiled configs live in is tamper, in every phase, as the
    runtime folder is on POSIX."""
    env = _env(LOCAL, ORCHESTRATOR_BOUNDARY_PHASE=phase, AMPLIFIER_BYPASS_BOUNDARY=bypass)
    target = LOCAL + "\\orchestrator-boundary\\configs\\0123.json"
    got, _ = _call(drive_c, _payload("Write", target, subagent=subagent), env)
    assert got == "deny/tamper"


# ---- the checks that replace the owner and mode check (in this process, simulated) ----

S_IFDIR, S_IFREG, S_IFLNK = stat.S_IFDIR, stat.S_IFREG, stat.S_IFLNK
REPARSE = stat.FILE_ATTRIBUTE_REPARSE_POINT
NODES = [
    ("folder", S_IFDIR | 0o777, 0x10, S_IFDIR, True),
    ("junction", S_IFDIR | 0o777, 0x10 | REPARSE, S_IFDIR, False),
    ("folder-symlink", S_IFLNK | 0o777, 0x10 | REPARSE, S_IFDIR, False),
    ("file", S_IFREG | 0o666, 0x20, S_IFREG, True),
    ("read-only-file", S_IFREG | 0o444, 0x21, S_IFREG, True),
    ("file-symlink", S_IFLNK | 0o777, REPARSE, S_IFREG, False),
    ("reparse-file", S_IFREG | 0o666, 0x20 | REPARSE, S_IFREG, False),
    ("file-not-folder", S_IFREG | 0o666, 0x20, S_IFDIR, False),
    ("folder-not-file", S_IFDIR | 0o777, 0x10, S_IFREG, False),
]


@pytest.mark.parametrize(
    ("mode", "attributes", "kind", "plain"), [n[1:] for n in NODES], ids=[n[0] for n in NODES]
)
def test_plain_node(mode: int, attributes: int, kind: int, plain: bool) -> None:
    """Windows' lstat shows a junction as a folder: only the reparse attribute tells it."""
    from orchestrator_boundary import wire

    st = SimpleNamespace(st_mode=mode, st_file_attributes=attributes)
    assert wire.plain_node(st, kind) is plain  # type: ignore[arg-type]


def _as_reparse_point(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """``os.lstat(target)`` answers as Windows does for a junction (or another reparse point):
    the node's own type, with FILE_ATTRIBUTE_REPARSE_POINT."""
    real = os.lstat

    def lstat(path: Any, *args: Any, **kw: Any) -> Any:
        st = real(path, *args, **kw)
        if os.fspath(path) != str(target):
            return st
        return SimpleNamespace(st_mode=st.st_mode, st_file_attributes=REPARSE, st_size=st.st_size)

    monkeypatch.setattr(os, "lstat", lstat)


def _stored(tmp_path: Path) -> tuple[str, str, dict[str, str]]:
    """(the compiled folder, the config file, its key), under simulated Windows, after one
    load: the entry exists and verifies."""
    from orchestrator_boundary import config

    path = tmp_path / "boundary.toml"
    path.write_text(CONFIG)
    folder = config.compiled_folder(str(tmp_path / "rt"))
    assert folder is not None
    first = config.load_compiled(str(path), None, folder)
    key = config.compiled_key(str(path), None, CONFIG.encode())
    assert config.compiled_entry(folder, key) == first
    return folder, str(path), key


def test_an_entry_is_kept_and_read_without_an_owner_check(
    windows_sim: Simulation, tmp_path: Path
) -> None:
    assert not hasattr(os, "getuid")
    _stored(tmp_path)


@pytest.mark.parametrize("how", ["symlink", "reparse-point"])
def test_an_entry_that_is_a_link_is_not_used(
    windows_sim: Simulation, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> None:
    """The entry is replaced by one claiming ``phase = "off"`` under the right key, behind a
    link: it is ignored, the file validated afresh, and a regular entry takes its place."""
    from orchestrator_boundary import config

    folder, path, key = _stored(tmp_path)
    entry = Path(folder) / config.entry_name(key)
    forged = json.loads(entry.read_text())
    forged["config"]["phase"] = "off"
    if how == "symlink":
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text(json.dumps(forged))
        entry.unlink()
        entry.symlink_to(elsewhere)
    else:
        entry.write_text(json.dumps(forged))
        _as_reparse_point(monkeypatch, entry)
    assert config.compiled_entry(folder, key) is None
    got = config.load_compiled(path, None, folder)
    assert not isinstance(got, config.ConfigProblem) and got.phase == "warn"
    monkeypatch.undo()
    assert not entry.is_symlink() and json.loads(entry.read_text())["config"]["phase"] == "warn"


@pytest.mark.parametrize("which", ["runtime", "configs"])
@pytest.mark.parametrize("how", ["symlink", "junction"])
def test_no_cache_in_a_folder_that_is_a_link(
    windows_sim: Simulation, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, which: str, how: str
) -> None:
    from orchestrator_boundary import config

    real = tmp_path / "real"
    (real / config.COMPILED_SUBDIR).mkdir(parents=True)
    rt = tmp_path / "rt"
    if which == "runtime":
        target, link_to = rt, real
    else:
        rt.mkdir()
        target, link_to = rt / config.COMPILED_SUBDIR, real / config.COMPILED_SUBDIR
    if how == "symlink":
        target.symlink_to(link_to, target_is_directory=True)
    else:
        target.mkdir()
        _as_reparse_point(monkeypatch, target)
    assert config.compiled_folder(str(rt)) is None


def test_no_folder_above_the_runtime_folder_is_made(
    windows_sim: Simulation, tmp_path: Path
) -> None:
    """A parent made here would inherit its own parent's ACL (at a drive's root: every user
    may modify it), so a runtime folder whose parent is missing gives no cache."""
    from orchestrator_boundary import config

    assert config.compiled_folder(str(tmp_path / "missing" / "rt")) is None
    assert not (tmp_path / "missing").exists()
    assert config.compiled_folder(str(tmp_path / "rt")) == str(tmp_path / "rt" / "configs")


def test_a_setup_reads_localappdata_and_is_keyed_on_it(windows_sim: Simulation) -> None:
    """The runtime folder is in the protected set, and on Windows LOCALAPPDATA places it: a
    long-lived process must not reuse a Setup made for another value (wire.DECISION_ENV)."""
    from orchestrator_boundary import setups, wire

    read: set[str] = set()

    class Recording(dict[str, str]):
        def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
            read.add(key)
            return super().get(key, default)

    env = Recording({"LOCALAPPDATA": LOCAL})
    assert setups.evaluator_dir(env) == LOCAL + "\\orchestrator-boundary"
    assert LOCAL + "\\orchestrator-boundary" in setups.package_dirs(env)
    assert "LOCALAPPDATA" in read and read <= set(setups.KEY_ENV)
    assert wire.DECISION_ENV.count("LOCALAPPDATA") == 1
    assert setups.evaluator_dir({}) is None
    assert all(setups.package_dirs({}))  # no empty entry for the missing folder
