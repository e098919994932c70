"""The hook shell attacked from outside (ADR 0057): input Claude Code never writes, a trail
written on a full disk, many writers at once, and the per-user trail's folder name.

Each case runs where the fault is: the registered command as a real process for what reaches
stdin, ``audit.write`` in a child process for a file-size limit, ``hook_main`` for the name.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harden_support import write_call

import orchestrator_boundary
from orchestrator_boundary import audit, hook_main, report_trail, trail_chain
from orchestrator_boundary.errors import PayloadError
from orchestrator_boundary.payload import parse_payload

LAUNCHER = Path(orchestrator_boundary.__file__).parent / "launcher.py"
TS = "2026-11-24T10:00:00.000000+00:00"


def _hook(root: Path, raw: bytes, phase: str = "enforce") -> subprocess.CompletedProcess[bytes]:
    """The command ``install`` registers, judged in its own process."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ["HOME"],
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_PHASE": phase,
    }
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    return subprocess.run(argv, input=raw, capture_output=True, env=env, cwd=root, timeout=60)


# ---- 1. input Claude Code never writes ----

# (id, how the Write call is changed): each must be refused, never read one way by the policy
# and another way by someone else. Python keeps the last copy of a name given twice.
NOT_STRICT = [
    ("tool-name-twice", lambda t: t.replace('"Write"', '"Write", "tool_name": "Read"')),
    ("agent-id-twice", lambda t: t[:-1] + ', "agent_id": "a1", "agent_id": null}'),
    ("file-path-twice", lambda t: t.replace('"content"', '"file_path": "/tmp/o.py", "content"')),
    ("nested-twice", lambda t: t.replace('"content"', '"x": {"p": 1, "p": 2}, "content"')),
    ("nan", lambda t: t[:-1] + ', "n": NaN}'),
    ("infinity", lambda t: t.replace('"content"', '"n": -Infinity, "content"')),
]


@pytest.mark.parametrize("change", [c[1] for c in NOT_STRICT], ids=[c[0] for c in NOT_STRICT])
def test_input_claude_code_never_writes_is_refused(change: object) -> None:
    text = change(write_call(Path("/p")))  # type: ignore[operator]
    json.loads(text)  # Python alone reads it: the parser must refuse it on purpose
    with pytest.raises(PayloadError, match="not strict JSON"):
        parse_payload(text.encode())


def test_a_tool_name_given_twice_is_blocked_by_the_registered_command(project: Path) -> None:
    """Before: the last copy won, so ``Write`` then ``Read`` got no answer at all."""
    raw = write_call(project).replace('"Write"', '"Write", "tool_name": "Read"').encode()
    done = _hook(project, raw)
    assert (done.returncode, done.stdout) == (2, b""), done
    assert b"given twice" in done.stderr
    plain = _hook(project, write_call(project).encode())
    assert plain.returncode == 0 and b'"permissionDecision": "deny"' in plain.stdout


# ---- 2. the audit line stays valid UTF-8 ----


def test_a_lone_surrogate_reaches_the_trail_as_valid_utf8(project: Path) -> None:
    """Before: ``\\ud800`` in a payload was written as the bytes ED A0 80, which no UTF-8
    reader takes (``json.loads`` of the file's text failed)."""
    raw = write_call(project).replace('"s"', '"s\\ud800"').replace("a.py", "a\\udfff.py")
    assert _hook(project, raw.encode()).returncode == 0
    data = (project / ".claude" / "boundary" / "audit.jsonl").read_bytes()
    record = json.loads(data.decode("utf-8"))  # strict: raises on the old bytes
    assert record["session_id"] == "s\ud800"
    assert record["decision"] == "deny"


# ---- 3. a write cut short is taken back ----

_LIMITED = """
import resource, sys
from orchestrator_boundary import audit
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
try:
    audit.write(sys.argv[1], {"ts": sys.argv[3], "event": "PreToolUse", "pad": "x" * 400})
except OSError as exc:
    print(exc.errno)
"""


def test_a_line_cut_short_by_a_full_disk_is_taken_back(tmp_path: Path) -> None:
    """Before: a write stopped by a file size limit (as a full disk stops it) left part of the
    line; the next line was appended to it and both were garbage."""
    trail = tmp_path / "audit.jsonl"
    audit.write(str(trail), {"ts": TS, "event": "PreToolUse", "i": 1})
    size = trail.stat().st_size
    # -B: the limited child writes no bytecode (a cut .pyc would break later imports)
    done = subprocess.run(
        [sys.executable, "-B", "-c", _LIMITED, str(trail), str(size + 100), TS],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "27", done.stderr  # EFBIG: the line did not fit
    assert trail.stat().st_size == size
    audit.write(str(trail), {"ts": TS, "event": "PreToolUse", "i": 2})
    lines = trail.read_bytes().splitlines()
    assert [json.loads(line)["i"] for line in lines] == [1, 2]
    assert _chain(trail).intact


# ---- 4. many writers at once ----


def _chain(trail: Path) -> trail_chain.ChainResult:
    files = audit.trail_files(str(trail))
    check = report_trail.chain_check(str(trail), files, 20)
    for _ in report_trail.iter_records(files, None, check):
        pass
    return check.result()


def _writer(path: str, worker: int) -> None:
    for i in range(40):
        audit.write(path, {"ts": TS, "event": "PreToolUse", "w": worker, "i": i}, max_bytes=20_000)


def test_sixteen_writers_rotating_lose_no_line_and_keep_one_chain(tmp_path: Path) -> None:
    trail = tmp_path / "audit.jsonl"
    procs = [multiprocessing.Process(target=_writer, args=(str(trail), w)) for w in range(16)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 16
    seen = set()
    for name in audit.trail_files(str(trail)):
        for line in Path(name).read_bytes().splitlines():
            record = json.loads(line)
            seen.add((record["w"], record["i"]))
    assert len(seen) == 16 * 40
    result = _chain(trail)
    assert result.intact, result.findings


# ---- 5. one per-user trail folder per project ----

ALIKE = [("dash-underscore", "/w/my-app", "/w/my_app"), ("dot-space", "/w/a.b", "/w/a b")]


@pytest.mark.parametrize(("a", "b"), [c[1:] for c in ALIKE], ids=[c[0] for c in ALIKE])
def test_projects_that_read_alike_keep_their_own_trails(a: str, b: str) -> None:
    assert hook_main.legacy_slug(a) == hook_main.legacy_slug(b)  # the old name was shared
    assert hook_main.project_slug(a) != hook_main.project_slug(b)
    assert hook_main.project_slug(a).startswith(hook_main.legacy_slug(a) + "-")


SAME = [("trailing-slash", "/w/p/"), ("dot-dot", "/w/p/src/.."), ("dot", "/w/./p")]


@pytest.mark.parametrize("spelling", [c[1] for c in SAME], ids=[c[0] for c in SAME])
def test_one_project_spelled_two_ways_has_one_trail(spelling: str) -> None:
    """Before: ``CLAUDE_PROJECT_DIR=/w/p/`` gave the hooks ``-w-p-`` and ``report`` ``-w-p``."""
    env = {"HOME": "/h"}
    assert hook_main.user_trail(spelling, env) == hook_main.user_trail("/w/p", env)


def test_a_long_project_path_still_names_a_folder_that_can_be_made(tmp_path: Path) -> None:
    root = "/" + "/".join(["a-very-long-folder-name-" + str(i) for i in range(20)])
    trail = hook_main.user_trail(root, {"HOME": str(tmp_path)})
    assert len(os.path.basename(os.path.dirname(trail)).encode()) <= 255
    audit.write(trail, {"ts": TS, "event": "PreToolUse"})
    assert Path(trail).is_file()


def _legacy(home: Path, root: str) -> Path:
    folder = home / ".claude/orchestrator-boundary/projects" / hook_main.legacy_slug(root)
    folder.mkdir(parents=True)
    (folder / "audit.jsonl").write_text('{"old": 1}\n')
    return folder


def test_a_legacy_trail_is_taken_over_by_its_project(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path, "/w/my-app")
    trail = Path(hook_main.user_trail("/w/my-app", {"HOME": str(tmp_path)}))
    assert trail.read_text() == '{"old": 1}\n' and not legacy.exists()
    assert hook_main.user_trail("/w/my_app", {"HOME": str(tmp_path)}) != str(trail)


def test_a_legacy_trail_two_known_projects_shared_is_left_in_place(tmp_path: Path) -> None:
    legacy = _legacy(tmp_path, "/w/my-app")
    listed = tmp_path / ".claude/orchestrator-boundary/user-projects"
    listed.write_text("/w/my_app\n/w/my-app\n")
    trail = Path(hook_main.user_trail("/w/my-app", {"HOME": str(tmp_path)}))
    assert not trail.exists() and (legacy / "audit.jsonl").is_file()


# ---- 6. an answer stdout cannot take ----


def _closed_stdout() -> None:
    os.close(1)


def _enforce_hook(root: Path) -> tuple[dict[str, str], list[str]]:
    """The environment and argv of the registered PreToolUse command, in process, enforce."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ["HOME"],
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
    }
    return env, [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]


def _hook_to(root: Path, raw: bytes, how: str) -> subprocess.CompletedProcess[bytes]:
    """The registered command with its stdout closed, a pipe nobody reads, or a full disk."""
    env, argv = _enforce_hook(root)
    if how == "closed":
        return subprocess.run(
            argv,
            input=raw,
            stderr=subprocess.PIPE,
            env=env,
            cwd=root,
            timeout=60,
            preexec_fn=_closed_stdout,
        )
    if how == "full":
        target = os.open("/dev/full", os.O_WRONLY)
    else:  # a pipe nobody will read: the write fails with EPIPE
        unread, target = os.pipe()
        os.close(unread)
    try:
        return subprocess.run(
            argv, input=raw, stdout=target, stderr=subprocess.PIPE, env=env, cwd=root, timeout=60
        )
    finally:
        os.close(target)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("how", ["closed", "broken-pipe", "full"])
def test_a_deny_stdout_cannot_take_still_blocks(project: Path, how: str) -> None:
    """Before: the write to stdout raised, the hook crashed with exit 1, and exit 1 lets the
    call through. Now the deny is given as exit 2 with its reason on stderr."""
    done = _hook_to(project, write_call(project).encode(), how)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary: orchestrator-boundary blocked Write")
    assert b"Traceback" not in done.stderr
    lines = (project / ".claude" / "boundary" / "audit.jsonl").read_bytes().splitlines()
    assert [json.loads(line)["decision"] for line in lines] == ["deny"]


def _closed_stderr() -> None:
    os.close(2)


def test_an_unreadable_call_with_stderr_closed_still_blocks(project: Path) -> None:
    """Exit 2 blocks with or without its reason; before, writing the reason raised and the
    hook exited 1, which lets the call through."""
    env, argv = _enforce_hook(project)
    done = subprocess.run(
        argv,
        input=b"{not json",
        capture_output=True,
        env=env,
        cwd=project,
        timeout=60,
        preexec_fn=_closed_stderr,
    )
    assert (done.returncode, done.stdout) == (2, b"")


# ---- 7. a cached .pyc cut short by a full disk ----


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package copied with its sources' times, and compiled: its own bytecode to cut."""
    import shutil

    base = tmp_path_factory.mktemp("installed")
    shutil.copytree(
        LAUNCHER.parent,
        base / "orchestrator_boundary",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    subprocess.run(
        [sys.executable, "-I", "-m", "compileall", "-q", str(base / "orchestrator_boundary")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return base / "orchestrator_boundary"


@pytest.mark.parametrize("module", ["wire", "payload"], ids=["before-the-client", "in-process"])
def test_a_cut_pyc_is_dropped_and_the_call_judged(
    project: Path, package_copy: Path, module: str
) -> None:
    """Before: a ``.pyc`` cut to 100 bytes made every later call fail (``EOFError: marshal
    data too short``): exit 1 for a module the launcher loads (the call went through), a block
    in every phase for one loaded later, until someone removed the file."""
    cached = package_copy / "__pycache__" / f"{module}.{sys.implementation.cache_tag}.pyc"
    cached.write_bytes(cached.read_bytes()[:100])
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ["HOME"],
        "CLAUDE_PROJECT_DIR": str(project),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
    }
    argv = [sys.executable, "-I", "-S", str(package_copy / "launcher.py"), "PreToolUse"]
    raw = write_call(project).encode()
    done = subprocess.run(argv, input=raw, capture_output=True, env=env, cwd=project, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b'"permissionDecision": "deny"' in done.stdout
    assert not cached.exists()  # dropped: the next call compiles the module again
