"""Run a shell command in a throwaway folder and report what it really changed (issue 12).

``run(command, seed)`` makes a fresh temporary folder::

    base/
      work/   the working directory: a small seeded tree (files, a folder, a symlink, and
              whatever the seed adds: a git repository, an archive, a package.json, ...)
      home/   HOME
      tmp/    TMPDIR

snapshots ``base`` (path, type, mode, size, mtime_ns, content hash, symlink target), runs
``bash -c command`` in ``work`` with a timeout, snapshots again and returns the differences.

Isolation, where the machine allows it (Linux, root or user namespaces): the command runs under
``unshare --net --mount`` with the whole file system remounted read-only except ``base``. So it
has no network, and a write outside the folder fails with "Read-only file system" instead of
landing on the machine; ``Outcome.outside_blocked`` says when that happened. Where ``unshare``
fails, the command runs with only cwd/HOME/TMPDIR inside the folder and proxies pointed at a
closed port; ``isolation()`` says which mode is in force and why.

Folder mtimes are not compared (creating and removing a lock file is not a change); a folder's
entries and mode are.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pwd
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Change", "Outcome", "Seed", "isolated", "isolation", "run", "snapshot"]

TIMEOUT = 60.0  # generous: the suite shares a small machine; a hung command still ends

DEFAULT_FILES: Mapping[str, str] = {
    "f": "a\nb\nc\n",
    "a": "alpha\n",
    "b": "beta\n",
    "d/g.txt": "gamma\n",
    "src/main.py": "print('hi')\n",
    "notes.md": "# notes\n",
}
DEFAULT_LINKS: Mapping[str, str] = {"link": "f"}


@dataclass(frozen=True)
class Seed:
    """What the throwaway folder holds before the command runs (on top of DEFAULT_FILES)."""

    git: bool = False  # a git repository with everything committed, index fresh
    files: tuple[tuple[str, str], ...] = ()  # more (relative path, text) to create
    setup: str = ""  # shell run in work/ (not isolated, trusted) after files and git


@dataclass(frozen=True)
class Entry:
    kind: str  # file, dir, symlink, fifo, char, block, socket
    mode: int
    size: int
    mtime_ns: int
    digest: str  # sha256 of a regular file's content, "" otherwise
    target: str  # a symlink's target, "" otherwise


@dataclass(frozen=True, order=True)
class Change:
    path: str  # relative to work/ ("f", "d/x", "../home/.npmrc")
    what: str  # created, deleted, changed


@dataclass(frozen=True)
class Outcome:
    command: str
    changes: frozenset[Change]
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    outside_blocked: bool  # a write outside the folder was refused by the read-only mounts
    base: str = field(default="", compare=False)

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(c.path for c in self.changes)

    def describe(self) -> str:
        lines = [f"$ {self.command!r} -> rc={self.returncode} timeout={self.timed_out}"]
        lines += [f"  {c.what}: {c.path}" for c in sorted(self.changes)]
        if self.outside_blocked:
            lines.append("  (a write outside the folder was refused)")
        if self.stderr.strip():
            lines.append("  stderr: " + self.stderr.strip()[:400])
        return "\n".join(lines)


_KINDS = {
    stat.S_IFREG: "file",
    stat.S_IFDIR: "dir",
    stat.S_IFLNK: "symlink",
    stat.S_IFIFO: "fifo",
    stat.S_IFCHR: "char",
    stat.S_IFBLK: "block",
    stat.S_IFSOCK: "socket",
}


def _entry(path: str) -> Entry:
    st = os.lstat(path)
    kind = _KINDS.get(stat.S_IFMT(st.st_mode), "other")
    digest = ""
    if kind == "file":
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    target = os.readlink(path) if kind == "symlink" else ""
    mtime = 0 if kind == "dir" else st.st_mtime_ns
    size = 0 if kind == "dir" else st.st_size
    return Entry(kind, stat.S_IMODE(st.st_mode), size, mtime, digest, target)


def snapshot(root: str) -> dict[str, Entry]:
    """Every entry under ``root`` (symlinks not followed), keyed by path relative to root."""
    found: dict[str, Entry] = {}
    for top, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            full = os.path.join(top, name)
            found[os.path.relpath(full, root)] = _entry(full)
    return found


def diff(before: Mapping[str, Entry], after: Mapping[str, Entry]) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for path in before.keys() | after.keys():
        old, new = before.get(path), after.get(path)
        if old is None:
            out.add((path, "created"))
        elif new is None:
            out.add((path, "deleted"))
        elif old != new:
            out.add((path, "changed"))
    return out


@functools.cache
def _probe() -> tuple[bool, str]:
    """Whether a network- and mount-isolated run works here, and why not when it does not."""
    if shutil.which("unshare") is None:
        return False, "no unshare on this machine"
    with (
        tempfile.TemporaryDirectory(dir=_PARENT) as base,
        tempfile.TemporaryDirectory() as outside,
    ):
        os.mkdir(os.path.join(base, "tmp"))
        escape = os.path.join(outside, "escape")
        try:
            done = subprocess.run(
                [*_wrapper(base), "bash", "-c", f"echo ok > in && ! echo x > {escape}"],
                cwd=base,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"unshare failed: {exc}"
        if done.returncode != 0 or not os.path.exists(os.path.join(base, "in")):
            return False, f"unshare failed: {done.stderr.strip()[:200]}"
        if os.path.exists(escape):
            return False, "unshare ran, but the file system outside the folder stayed writable"
    return True, "unshare --net --mount, file system read-only outside the folder"


_ISOLATE = r"""
base=$1; shift
mount --bind "$base" "$base" || exit 97
awk '{print $2}' /proc/self/mounts | sort -u | while read -r m; do
  case $m in /proc|/proc/*|/sys|/sys/*|/dev|/dev/pts|"$base") continue;; esac
  mount -o remount,bind,ro "$m" 2>/dev/null
done
mount -o remount,bind,rw "$base" || exit 97
case $base in /tmp/*) ;; *) mount --bind "$base/tmp" /tmp;; esac  # for programs ignoring TMPDIR
cd "$base/work" 2>/dev/null || cd "$base"
exec "$@"
"""


def _wrapper(base: str) -> list[str]:
    # without root, a user namespace gives the same powers over its own mounts
    user = [] if os.geteuid() == 0 else ["--map-root-user"]
    return [
        "unshare",
        *user,
        "--net",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        _ISOLATE,
        "isolate",
        base,
    ]


# outside /tmp, so that the run's own tmp/ can stand in for /tmp (ed, for one, ignores TMPDIR)
_PARENT = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None


def isolated() -> bool:
    """Whether runs are network- and mount-isolated on this machine (probed once)."""
    return _probe()[0]


def isolation() -> str:
    """Which isolation runs get, or why they get none."""
    return _probe()[1]


def which(program: str) -> str | None:
    """Where ``program`` is on the PATH the commands run with, if a run can reach it: the
    isolation mounts the folder's ``tmp/`` over ``/tmp``, so a program installed below
    ``/tmp`` (a checkout's venv there, as in a CI clone) is out of reach and its rows are
    label-only."""
    found = shutil.which(program, path=_search_path())
    if found and os.path.realpath(found).startswith(("/tmp/", os.path.realpath("/tmp") + "/")):
        return None
    return found


def _search_path() -> str:
    return os.pathsep.join(
        [os.path.dirname(sys.executable), os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")]
    )


def _environment(base: str) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "JAVA_HOME", "PYENV_ROOT", "RUSTUP_TOOLCHAIN")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    # this interpreter's folder first: python3, pytest and ruff are the test environment's own
    env["PATH"] = _search_path()
    real_home = pwd.getpwuid(os.getuid()).pw_dir  # not HOME: tests move HOME
    for var, sub in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
        # rustup's proxies find their toolchains from HOME, which the run moves
        found = os.environ.get(var) or os.path.join(real_home, sub)
        if os.path.isdir(found):
            env[var] = found
    home = os.path.join(base, "home")
    tmp = os.path.join(base, "tmp")
    env.update(
        HOME=home,
        TMPDIR=tmp,
        USER="tester",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="T",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="T",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        npm_config_update_notifier="false",
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_offline="true",
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        # without a network namespace: every proxy-aware client gets a closed port
        http_proxy="http://127.0.0.1:9",
        https_proxy="http://127.0.0.1:9",
        HTTP_PROXY="http://127.0.0.1:9",
        HTTPS_PROXY="http://127.0.0.1:9",
        no_proxy="",
    )
    return env


def _seed(base: str, seed: Seed, env: dict[str, str]) -> None:
    work = os.path.join(base, "work")
    for sub in ("work", "home", "tmp"):
        os.makedirs(os.path.join(base, sub))
    for rel, text in (*DEFAULT_FILES.items(), *seed.files):
        path = Path(work, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for rel, target in DEFAULT_LINKS.items():
        os.symlink(target, os.path.join(work, rel))
    _age(work)
    if seed.git:
        _sh("git init -q -b main . && git add -A && git commit -q -m seed", work, env)
    if seed.setup:
        _sh(seed.setup, work, env)
    _age(work)
    if seed.git:  # settle the index: a read-only git call then has nothing to refresh
        _sh("git update-index -q --refresh >/dev/null; git status -s >/dev/null", work, env)


SEED_TIME_NS = 1_600_000_000 * 10**9  # seeded files are old: no "racily clean" git entries


def _age(work: str) -> None:
    for top, dirs, files in os.walk(work):
        for name in dirs + files:
            os.utime(
                os.path.join(top, name), ns=(SEED_TIME_NS, SEED_TIME_NS), follow_symlinks=False
            )


def _sh(script: str, cwd: str, env: dict[str, str]) -> None:
    subprocess.run(
        ["bash", "-ec", script], cwd=cwd, env=env, check=True, capture_output=True, timeout=60
    )


def run(
    command: str,
    seed: Seed = Seed(),
    *,
    tty: bool = False,
    timeout: float = TIMEOUT,
    keep: bool = False,
) -> Outcome:
    """Run ``bash -c command`` in a fresh seeded folder and return what changed in it.

    ``tty``: run it under ``script`` so that its output is a terminal (pagers only start then).
    """
    base = os.path.realpath(tempfile.mkdtemp(prefix="reality-", dir=_PARENT))
    try:
        env = _environment(base)
        _seed(base, seed, env)
        work = os.path.join(base, "work")
        before = snapshot(base)
        argv = ["bash", "-c", command]
        if tty:
            argv = ["script", "-qec", "bash -c " + shlex.quote(command), "/dev/null"]
        if isolated():
            argv = [*_wrapper(base), *argv]
        proc = subprocess.Popen(
            argv,
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
        )
        timed_out = False
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        after = snapshot(base)
        changes = frozenset(
            Change(os.path.relpath(os.path.join(base, p), work), what)
            for p, what in diff(before, after)
        )
        return Outcome(
            command=command,
            changes=changes,
            returncode=proc.returncode,
            stdout=out,
            stderr=err,
            timed_out=timed_out,
            outside_blocked="Read-only file system" in err,
            base=base if keep else "",
        )
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
