"""The Windows simulation itself (tests/windows_sim.py): what it hides, what its msvcrt
stand-in guarantees, and how Windows paths reach the Linux file system under it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import windows_sim
from windows_sim import Simulation, python_argv, sim_env

# ---- in this process ----


def test_fcntl_cannot_be_imported_and_comes_back_afterwards() -> None:
    import fcntl

    with Simulation() as sim:
        with pytest.raises(ModuleNotFoundError, match="fcntl"):
            import fcntl
        with pytest.raises(ModuleNotFoundError):
            __import__("posix")
        assert sim.blocked == ["fcntl", "posix"]
    import fcntl as again

    assert again is fcntl


def test_no_unix_sockets() -> None:
    import _socket

    with Simulation():
        assert not hasattr(socket, "AF_UNIX")
        assert not hasattr(_socket, "AF_UNIX")
    assert socket.AF_UNIX and _socket.AF_UNIX


def test_platform_identity_and_os_as_on_windows() -> None:
    with Simulation() as sim:
        assert (os.name, sys.platform, os.sep, os.altsep, os.pathsep) == (
            "nt",
            "win32",
            "\\",
            "/",
            ";",
        )
        for absent in ("fork", "getuid", "setsid", "environb", "O_CLOEXEC", "O_DIRECTORY"):
            assert not hasattr(os, absent), absent
        assert (os.O_APPEND, os.O_CREAT, os.O_EXCL, os.O_BINARY) == (8, 0x100, 0x400, 0x8000)
        assert sys.modules["msvcrt"] is sim.msvcrt
    assert os.name == "posix" and hasattr(os, "fork") and "msvcrt" not in sys.modules


def test_package_is_imported_afresh_and_restored() -> None:
    import orchestrator_boundary.paths as before

    with Simulation():
        import orchestrator_boundary.paths as under

        assert under is not before
    import orchestrator_boundary.paths as after

    assert after is before


def test_windows_sim_fixture(windows_sim: Simulation) -> None:
    assert windows_sim.installed and os.name == "nt"
    with pytest.raises(ModuleNotFoundError):
        import fcntl  # noqa: F401


def test_os_open_of_a_folder_is_refused(tmp_path: Path) -> None:
    with Simulation(), pytest.raises(PermissionError):
        os.open(str(tmp_path), os.O_RDONLY)


def test_windows_flags_reach_the_kernel_translated(tmp_path: Path) -> None:
    target = str(tmp_path / "f")
    with Simulation():
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_BINARY)
        os.close(fd)
        with pytest.raises(FileExistsError):
            os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_BINARY)
        with pytest.raises(OSError, match="Windows O_ flag"):
            os.open(target, os.O_WRONLY | 0x80000)  # Linux's O_CLOEXEC means nothing there


@pytest.mark.parametrize(
    ("binary", "expected"), [(False, b"a\r\nb\r\n"), (True, b"a\nb\n")], ids=["text", "binary"]
)
def test_os_open_is_in_text_mode_without_o_binary(
    tmp_path: Path, binary: bool, expected: bytes
) -> None:
    target = tmp_path / "f"
    with Simulation():
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_BINARY if binary else 0)
        fd = os.open(str(target), flags)
        try:
            assert os.write(fd, b"a\nb\n") == 4
        finally:
            os.close(fd)
    assert target.read_bytes() == expected


# ---- the msvcrt stand-in ----

HOLDER = textwrap.dedent(
    """
    import msvcrt, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_BINARY)
    os.lseek(fd, int(sys.argv[2]), 0)
    msvcrt.locking(fd, msvcrt.LK_NBLCK, int(sys.argv[3]))
    os.write(1, b"held\\n")
    sys.stdin.readline()  # hold until told
    if len(sys.argv) > 4:  # unlock explicitly (else exiting releases it)
        os.lseek(fd, int(sys.argv[2]), 0)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, int(sys.argv[3]))
        os.write(1, b"released\\n")
        sys.stdin.readline()
    """
)


@contextmanager
def held_by_another_process(
    tmp_path: Path, target: Path, start: int, nbytes: int, *extra: str
) -> Iterator[subprocess.Popen[bytes]]:
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    argv = python_argv(str(script), str(target), str(start), str(nbytes), *extra)
    proc = subprocess.Popen(  # a real process, started while the simulation is installed:
        argv,  # a cwd keeps subprocess on its fork_exec path (Python 3.13 would otherwise take
        cwd=tmp_path,  # os.posix_spawn, which the simulated os, like Windows', does not have)
        env=sim_env(dict(os.environ), paths=False),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == b"held\n", (line, proc.stderr.read() if proc.stderr else b"")
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


@pytest.fixture
def msvcrt_fast(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The stand-in with LK_LOCK retrying 3 times, 0.05 s apart (10 x 1 s in the CRT)."""
    monkeypatch.setattr(windows_sim, "LOCK_ATTEMPTS", 3)
    monkeypatch.setattr(windows_sim, "LOCK_RETRY_S", 0.05)
    with Simulation() as sim:
        yield sim.msvcrt


def _open(path: Path) -> int:
    return os.open(str(path), os.O_RDWR | os.O_CREAT | os.O_BINARY)


def test_nonblocking_lock_fails_at_once_while_another_process_holds_it(
    tmp_path: Path, msvcrt_fast: object
) -> None:
    import msvcrt

    target = tmp_path / "lockfile"
    with held_by_another_process(tmp_path, target, 0, 1):
        fd = _open(target)
        try:
            started = time.monotonic()
            with pytest.raises(OSError) as info:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            assert info.value.errno == 13 and time.monotonic() - started < 0.5
            with pytest.raises(OSError):
                msvcrt.locking(fd, msvcrt.LK_NBRLCK, 1)
            os.lseek(fd, 1, os.SEEK_SET)  # the byte after the held one is free
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        finally:
            os.close(fd)
    fd = _open(target)  # the holder exited: its lock went with it
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    finally:
        os.close(fd)


def test_blocking_lock_retries_then_gives_up_with_edeadlock(
    tmp_path: Path, msvcrt_fast: object
) -> None:
    import errno
    import msvcrt

    target = tmp_path / "lockfile"
    with held_by_another_process(tmp_path, target, 0, 4):
        fd = _open(target)
        try:
            started = time.monotonic()
            with pytest.raises(OSError) as info:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 4)
            took = time.monotonic() - started
            assert info.value.errno == errno.EDEADLOCK
            assert 0.15 <= took < 2.0  # 3 attempts, 0.05 s after each
        finally:
            os.close(fd)


def test_blocking_lock_gets_it_once_the_holder_unlocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(windows_sim, "LOCK_RETRY_S", 0.05)
    target = tmp_path / "lockfile"
    with held_by_another_process(tmp_path, target, 0, 1, "unlock") as holder, Simulation():
        import msvcrt

        fd = _open(target)
        try:
            with pytest.raises(OSError):
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            assert holder.stdin is not None and holder.stdout is not None
            holder.stdin.write(b"go\n")
            holder.stdin.flush()
            assert holder.stdout.readline() == b"released\n"  # still running, lock released
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)


def test_locks_exclude_other_descriptors_of_this_process(tmp_path: Path) -> None:
    target = tmp_path / "lockfile"
    calls = dict(windows_sim.LOCK_CALLS)
    with Simulation():
        import msvcrt

        a, b = _open(target), _open(target)
        try:
            os.lseek(a, 10, os.SEEK_SET)
            msvcrt.locking(a, msvcrt.LK_NBLCK, 10)  # bytes 10..19, from the current position
            rows = ((0, 10, True), (5, 6, False), (15, 1, False), (19, 9, False), (20, 5, True))
            for start, nbytes, free in rows:
                os.lseek(b, start, os.SEEK_SET)
                if free:
                    msvcrt.locking(b, msvcrt.LK_NBLCK, nbytes)
                    os.lseek(b, start, os.SEEK_SET)
                    msvcrt.locking(b, msvcrt.LK_UNLCK, nbytes)
                else:
                    with pytest.raises(OSError):
                        msvcrt.locking(b, msvcrt.LK_NBLCK, nbytes)
            os.lseek(a, 10, os.SEEK_SET)
            msvcrt.locking(a, msvcrt.LK_UNLCK, 10)
            os.lseek(b, 15, os.SEEK_SET)
            msvcrt.locking(b, msvcrt.LK_NBLCK, 1)
        finally:
            os.close(a)
            os.close(b)
        c = _open(target)  # closing b released its lock
        try:
            os.lseek(c, 15, os.SEEK_SET)
            msvcrt.locking(c, msvcrt.LK_NBLCK, 1)
        finally:
            os.close(c)
    assert windows_sim.LOCK_CALLS[msvcrt.LK_NBLCK] - calls.get(msvcrt.LK_NBLCK, 0) == 8


COUNTER = textwrap.dedent(
    """
    import msvcrt, os, sys
    path, rounds = sys.argv[1], int(sys.argv[2])
    for _ in range(rounds):
        fd = os.open(path, os.O_RDWR | os.O_BINARY)
        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
            value = int(os.read(fd, 32) or b"0")
            os.lseek(fd, 0, 0)
            os.write(fd, b"%-31d" % (value + 1))
            os.lseek(fd, 0, 0)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)
    """
)


def test_lock_really_excludes_concurrent_processes(tmp_path: Path) -> None:
    """Read-increment-write under the lock by 4 processes at once: no update is lost."""
    counter, script = tmp_path / "counter", tmp_path / "counter.py"
    counter.write_bytes(b"0".ljust(31))
    script.write_text(COUNTER)
    procs, rounds = 4, 150
    env = sim_env(dict(os.environ), paths=False)
    running = [
        subprocess.Popen(
            python_argv(str(script), str(counter), str(rounds)), env=env, stderr=subprocess.PIPE
        )
        for _ in range(procs)
    ]
    for p in running:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    assert int(counter.read_bytes()) == procs * rounds


def test_osfhandle_round_trip(tmp_path: Path) -> None:
    with Simulation():
        import msvcrt

        fd = _open(tmp_path / "f")
        try:
            assert msvcrt.open_osfhandle(msvcrt.get_osfhandle(fd), os.O_BINARY) == fd
            assert msvcrt.setmode(fd, os.O_TEXT) == os.O_BINARY
            assert msvcrt.setmode(fd, os.O_BINARY) == os.O_TEXT
        finally:
            os.close(fd)


# ---- a new interpreter under the simulation, with Windows paths ----

PROBE = textwrap.dedent(
    """
    import json, os, sys
    out = {"name": os.name, "platform": sys.platform, "cwd": os.getcwd()}
    out["realpath"] = os.path.realpath("c:/USERS/dev/Proj\\\\src/../SRC/a.py")
    out["missing"] = os.path.realpath("C:\\\\Users\\\\DEV\\\\proj\\\\New\\\\b.py. ")
    out["link"] = os.path.realpath("C:\\\\Users\\\\dev\\\\proj\\\\link.py")
    out["trailing"] = os.path.realpath("C:\\\\Users\\\\dev\\\\proj\\\\src\\\\a.py. .")
    out["stream"] = os.path.isfile("C:\\\\Users\\\\dev\\\\proj\\\\src\\\\a.py::$DATA")
    out["long"] = os.path.isfile("\\\\\\\\?\\\\C:\\\\Users\\\\dev\\\\proj\\\\src\\\\a.py")
    out["unc"] = os.listdir("\\\\\\\\server\\\\share\\\\proj")
    out["z"] = os.path.isdir("Z:\\\\tmp")
    out["scandir"] = sorted(e.path for e in os.scandir("C:\\\\Users\\\\dev\\\\proj\\\\src"))
    os.makedirs("C:\\\\Users\\\\dev\\\\proj\\\\.claude\\\\boundary", exist_ok=True)
    with open("C:\\\\Users\\\\dev\\\\proj\\\\.claude\\\\boundary\\\\x.txt", "w") as fh:
        fh.write("hi")
    os.replace("C:\\\\Users\\\\dev\\\\proj\\\\.claude\\\\boundary\\\\x.txt",
               "C:/Users/dev/proj/.claude/boundary/y.txt")
    try:
        os.rename("C:/Users/dev/proj/src/a.py", "C:/Users/dev/proj/.claude/boundary/y.txt")
        out["rename"] = "replaced"
    except FileExistsError:
        out["rename"] = "FileExistsError"
    sys.path.insert(0, "c:\\\\users\\\\dev\\\\proj\\\\LIB")
    import winmod
    out["import"] = winmod.VALUE
    import asyncio, subprocess  # their Windows backends do not exist here: loaded before
    try:
        import fcntl
        out["fcntl"] = "imported"
    except ModuleNotFoundError:
        out["fcntl"] = "ModuleNotFoundError"
    print(json.dumps(out))
    """
)


def test_windows_paths_in_a_subprocess(tmp_path: Path) -> None:
    c = tmp_path / "C"
    proj = c / "Users" / "dev" / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "a.py").write_text("x = 1\n")
    (proj / "link.py").symlink_to(proj / "src" / "a.py")
    (proj / "lib").mkdir()
    (proj / "lib" / "winmod.py").write_text("VALUE = 42\n")
    share = tmp_path / "share"
    (share / "proj").mkdir(parents=True)
    (share / "proj" / "x").write_text("")
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    report = tmp_path / "report.json"
    env = sim_env(
        dict(os.environ),
        drives={"C:": str(c), "\\\\server\\share": str(share)},
        cwd="C:\\Users\\dev\\proj",
        report=str(report),
    )
    done = subprocess.run(python_argv(str(script)), env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert out == {
        "name": "nt",
        "platform": "win32",
        "cwd": "C:\\Users\\dev\\proj",
        "realpath": "C:\\Users\\dev\\proj\\src\\a.py",  # the case on disk, as Windows answers
        "missing": "C:\\Users\\dev\\proj\\New\\b.py. ",  # the part that exists resolved
        "link": "C:\\Users\\dev\\proj\\src\\a.py",
        "trailing": "C:\\Users\\dev\\proj\\src\\a.py",
        "stream": True,
        "long": True,
        "unc": ["x"],
        "z": True,
        "scandir": ["C:\\Users\\dev\\proj\\src\\a.py"],
        "rename": "FileExistsError",
        "import": 42,
        "fcntl": "ModuleNotFoundError",
    }
    assert (proj / ".claude" / "boundary" / "y.txt").read_text() == "hi"
    assert json.loads(report.read_text())["blocked"] == ["fcntl"]
