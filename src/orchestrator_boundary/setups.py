"""The Setup of a call (root, config, phase, protected set) and the one cache that keeps it.

Shell side: it reads the environment mapping it is given, ``stat``s the config file and
resolves paths. A Setup (root, compiled config, the Context with the protected set) is reused
by a long-lived process (evaluator, replay) for at most ``SetupCache.ttl`` seconds after its
file-system facts were gathered, so a new symlink is seen within that. The root and the
protected set are shared between Setups (same project) under the same bound. A config file is
reloaded as soon as its content changes, on the next call (``config_key``, ADR 0036): its key
is its device, inode, size, mtime and ctime, plus a hash of its bytes while those could still
be shared by a later edit (a ctime or mtime within ``RACY_NS`` of the moment the key is taken,
or later) and always on Windows. The environment a Setup reads is in its key (``KEY_ENV``).
"""

from __future__ import annotations

import functools
import os
import stat
import time
from collections.abc import Callable, Mapping

from orchestrator_boundary import audit, wire
from orchestrator_boundary.agent_defs import agent_folders, defined_agents
from orchestrator_boundary.config import (
    Config,
    ConfigProblem,
    compiled_folder,
    config_path,
    load_compiled,
)
from orchestrator_boundary.context import Context
from orchestrator_boundary.digests import blake2b
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.fs import RealFileSystem, home_of
from orchestrator_boundary.phase import DEFAULT_PHASE, Phase, bypass_requested, env_phase
from orchestrator_boundary.protect import Deferred, ProtectedSet, protected_set
from orchestrator_boundary.protect_claude import PLACES_ENV_NAMES, env_places
from orchestrator_boundary.ruleset import RuleSet, compile_config
from orchestrator_boundary.values import frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")
FS_TTL = 1.0
HOOKS_DIR = os.path.join(os.path.dirname(os.path.dirname(wire.PACKAGE_DIR)), "hooks")
FS = RealFileSystem()


@frozen
class Setup:
    """The environment facts for one invocation."""

    root: str
    config: Config
    rules: RuleSet  # the config compiled once, at load
    problem: ConfigProblem | None
    phase: Phase
    phase_source: str
    bypass: bool
    home: str | None
    config_file: str
    audit_file: str
    context: Context  # what the policy core is told about the environment


MAX_CONFIG_HASH_BYTES = 4 * 1024 * 1024  # a larger config is hashed by its first bytes + stat
# A stat key is trusted once its ctime and mtime are this far behind the clock: a later edit
# then gets a later ctime. Nearer (or ahead), a second edit may share every stat field (one
# timestamp granule: a jiffy on Linux, 2 s on FAT), so the content's hash decides, as git
# does for a "racily clean" index entry.
RACY_NS = 3_000_000_000
# On Windows st_ctime is the creation time, which an edit does not change: always hash there.
HASH_ALWAYS = os.name == "nt"
# (device, inode, size, mtime, ctime) or a marker, and the content's hash (b"": not needed)
ConfigKey = tuple[tuple[int, ...], bytes]
NO_CONFIG: ConfigKey = ((-1,), b"")  # no file, or unreadable; a new file changes the key


def settled(ctime_ns: int, mtime_ns: int, now_ns: int, *, hash_always: bool = HASH_ALWAYS) -> bool:
    """Whether a file's stat fields alone will show any later edit of it (ADR 0036): on POSIX
    every write and every ``utime`` sets the ctime to the current time, and nothing a user
    runs sets it back; an atomic replace changes the inode. Not when ctime or mtime is within
    ``RACY_NS`` of ``now_ns`` or later, and never on Windows."""
    limit = now_ns - RACY_NS
    return not hash_always and ctime_ns < limit and mtime_ns < limit


def stat_fields(path: str) -> tuple[int, ...]:
    """(device, inode, size, mtime, ctime) of a regular file; (-1,) when missing or
    unreadable, (-2, mode) when not a regular file."""
    try:
        st = os.stat(path)
    except OSError:
        return NO_CONFIG[0]
    if not stat.S_ISREG(st.st_mode):
        return (-2, st.st_mode)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def config_key(path: str, now_ns: int) -> ConfigKey:
    """The key of the config file at ``path``, taken at ``now_ns`` (the wall clock): its stat
    fields, plus a hash of its content (up to the bound) unless they are ``settled``."""
    fields = stat_fields(path)
    if len(fields) < 5 or settled(fields[4], fields[3], now_ns):
        return (fields, b"")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CONFIG_HASH_BYTES)
    except OSError:
        return NO_CONFIG
    return (fields, blake2b(data, digest_size=16).digest())


def same_config(path: str, key: ConfigKey, wall: Callable[[], int] = time.time_ns) -> bool:
    """Whether the file at ``path`` still is what ``key`` was taken of. A settled key's stat
    fields show any later edit (the clock is not read); one taken while racy is taken again
    and the content decides."""
    if key[1]:
        return config_key(path, wall()) == key
    return stat_fields(path) == key[0]


@functools.lru_cache(maxsize=1)
def runtime_dirs() -> tuple[str, ...]:
    """Where the interpreter running this hook finds its code: site-packages (the dependencies,
    and ``.pth`` files that run at start-up) and the scripts folder (console entry points).
    Changing any of them can make the hook crash, and a crashing hook fails open. Fixed for
    the life of the process."""
    import site
    import sysconfig

    paths = sysconfig.get_paths()
    dirs = [paths.get(k) for k in ("purelib", "platlib", "scripts")]
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return tuple(dict.fromkeys(d for d in dirs if d and os.path.isabs(d)))


# The variables a Setup is keyed on: wire.DECISION_ENV, the user-scope trail's, Claude Code's.
KEY_ENV = tuple(dict.fromkeys((*wire.DECISION_ENV, wire.AUDIT_ENV, *PLACES_ENV_NAMES)))


def audit_setting(config: Config, environ: Mapping[str, str]) -> str:
    """The trail's path: ``[audit] path`` when the config sets it, else an absolute
    ``ORCHESTRATOR_BOUNDARY_AUDIT_PATH`` (the per-user trail of a user-scope install), else the
    default."""
    named = environ.get(wire.AUDIT_ENV, "")
    if "path" not in config.audit.model_fields_set and named and os.path.isabs(named):
        return named
    return config.audit.path


@functools.lru_cache(maxsize=1)
def runtime_paths() -> tuple[tuple[str, bool, str], ...]:
    """Everything else the interpreter running this hook needs (``protect.RuntimePath``): the
    interpreter itself (``sys.executable``; ``protect`` adds its resolved form), the
    installation a venv is built on (``sys.base_prefix``), its standard library, and the venv's
    ``pyvenv.cfg``. A changed stdlib module or ``pyvenv.cfg`` makes the hook crash or run
    other code, and a crashing hook fails open. Fixed for the life of the process."""
    import sys
    import sysconfig

    paths = sysconfig.get_paths()
    found: list[tuple[str, bool, str]] = [
        (sys.executable, False, "the interpreter the hook runs"),
        (getattr(sys, "_base_executable", "") or "", False, "the interpreter the hook runs"),
        (sys.base_prefix, True, "the Python installation the hook runs on"),
        (paths.get("stdlib") or "", True, "the standard library the hook runs on"),
        (paths.get("platstdlib") or "", True, "the standard library the hook runs on"),
        (paths.get("purelib") or "", True, "the site-packages the hook runs on"),
        (paths.get("platlib") or "", True, "the site-packages the hook runs on"),
        (os.path.join(sys.prefix, "pyvenv.cfg"), False, "the hook's venv (pyvenv.cfg)"),
        (os.path.join(sys.base_prefix, "pyvenv.cfg"), False, "the hook's venv (pyvenv.cfg)"),
    ]
    kept = {p: (p, folder, label) for p, folder, label in found if p and os.path.isabs(p)}
    return tuple(kept.values())


def evaluator_dir(environ: Mapping[str, str]) -> str | None:
    """The evaluators' runtime folder (protected; also holds the compiled configs). On Windows
    ``%LOCALAPPDATA%\\orchestrator-boundary``, or None where there is no safe one (ADR 0041)."""
    if os.name == "nt":
        return wire.windows_runtime_dir(
            environ.get(wire.RUNTIME_DIR_ENV) or None, environ.get(wire.LOCALAPPDATA_ENV) or None
        )
    return wire.runtime_dir(
        os.fsencode(environ.get(wire.RUNTIME_DIR_ENV, "")) or None,
        os.fsencode(environ.get(wire.XDG_RUNTIME_DIR_ENV, "")) or None,
    )


def package_dirs(environ: Mapping[str, str]) -> list[str]:
    """This package, its entry scripts, its interpreter's code and its evaluator's folder."""
    runtime = evaluator_dir(environ)
    dirs = [wire.PACKAGE_DIR, HOOKS_DIR, *runtime_dirs(), *([runtime] if runtime else [])]
    if environ.get(wire.PLUGIN_ROOT_ENV):
        dirs.append(environ[wire.PLUGIN_ROOT_ENV])
    return dirs


def phase_of(
    loaded: Config | ConfigProblem, environ: Mapping[str, str], override: Phase | None
) -> tuple[Phase, str, ConfigProblem | None]:
    """(phase, where it came from, the config problem if any): a broken config enforces."""
    problem = loaded if isinstance(loaded, ConfigProblem) else None
    env_value, env_problem = env_phase(environ)
    if env_problem and problem is None:
        problem = ConfigProblem("environment", wire.PHASE_ENV, env_problem)
    if problem is not None:
        return Phase.ENFORCE, "broken config", problem
    if override is not None:
        return override, "command line", None
    if env_value is not None:
        return env_value, "environment", None
    if isinstance(loaded, Config) and "phase" in loaded.model_fields_set:
        return loaded.phase, "config", None
    return DEFAULT_PHASE, "default", None


class SetupCache:
    """Everything a long-lived process reuses between calls, each kind in its own field."""

    def __init__(
        self,
        ttl: float = FS_TTL,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], int] = time.time_ns,
    ) -> None:
        self.ttl, self.clock = ttl, clock
        self.wall = wall  # the wall clock a config key is taken at (``config_key``)
        # a hook process keeps what it validated for the next one (``keep_compiled``)
        self.compiled = False
        # (config file, home) -> (its config key when read, the config or its problem, compiled)
        self.configs: dict[tuple[str, str | None], tuple[ConfigKey, Any, RuleSet]] = {}
        # Setup key -> (expires, the config's key, the Setup)
        self.setups: dict[tuple[Any, ...], tuple[float, ConfigKey, Setup]] = {}
        # file-system facts (the resolved root, protected sets) -> (expires, value)
        self.fs_facts: dict[tuple[Any, ...], tuple[float, Any]] = {}

    def fs_fact(self, key: tuple[Any, ...], make: Callable[[], T]) -> tuple[T, float]:
        """``make()``, reused for ``ttl`` after it ran: (value, the clock time it expires)."""
        now = self.clock()
        hit = self.fs_facts.get(key)
        if hit is not None and now < hit[0]:
            return hit[1], hit[0]
        value = make()
        if len(self.fs_facts) > 512:
            self.fs_facts.clear()
        self.fs_facts[key] = (now + self.ttl, value)
        return value, now + self.ttl

    def config(
        self, path: str, home: str | None, compiled_dir: str | None = None
    ) -> tuple[Config | ConfigProblem, RuleSet]:
        """The config at ``path`` (``~`` in patterns expanded with ``home``) and its compiled
        form; loaded again when the file's content (or stat key) changed. With
        ``compiled_dir``, a file validated by an earlier process is taken from there
        (``config.load_compiled``, ADR 0030)."""
        hit = self.configs.get((path, home))
        if hit and same_config(path, hit[0], self.wall):
            return hit[1], hit[2]
        key = config_key(path, self.wall())  # taken before the file is read
        if key[0][0] == -2:  # a FIFO or a device would block the read until Claude Code's timeout
            loaded: Config | ConfigProblem = ConfigProblem(path, "", "not a regular file")
        else:
            folder = compiled_folder(compiled_dir) if compiled_dir else None
            loaded = load_compiled(path, home, folder)
        rules = compile_config(loaded if isinstance(loaded, Config) else Config())
        self.configs[(path, home)] = (key, loaded, rules)
        return loaded, rules

    def setup(
        self,
        root_hint: str,
        environ: Mapping[str, str],
        *,
        config_file: str | None = None,
        phase_override: Phase | None = None,
    ) -> Setup:
        """The Setup for these inputs, reused for the same root hint and the same values of
        ``KEY_ENV`` while the config file's content is unchanged, for at most ttl."""
        key = (root_hint, config_file, phase_override, *map(environ.get, KEY_ENV))
        hit = self.setups.get(key)
        if (
            hit is not None
            and self.clock() < hit[0]
            and same_config(hit[2].config_file, hit[1], self.wall)
        ):
            return hit[2]
        made, expires = self._gather(root_hint, environ, config_file, phase_override)
        if len(self.setups) > 256:
            self.setups.clear()
        # the key the config was loaded under (taken before reading it), not a newer one
        self.setups[key] = (expires, self.configs[(made.config_file, made.home)][0], made)
        return made

    def _gather(
        self,
        root_hint: str,
        environ: Mapping[str, str],
        config_file: str | None,
        phase_override: Phase | None,
    ) -> tuple[Setup, float]:
        """A new Setup, and when its file-system facts expire."""
        root = environ.get(wire.PROJECT_DIR_ENV) or root_hint
        if not root or not os.path.isabs(root):
            raise BoundaryInputError(
                f"no usable project root (CLAUDE_PROJECT_DIR or cwd): {root!r}"
            )
        root, root_expires = self.fs_fact(("root", root), functools.partial(FS.realpath, root))
        home = home_of(wire.user_home(environ))
        # a session started below the project is judged by its config (ADR 0054)
        above, _ = self.fs_fact(
            ("project", root, home), functools.partial(wire.configured_above, root, home)
        )
        root = above or root
        cfg_file = config_file or config_path(root, environ)
        compiled_dir = evaluator_dir(environ) if self.compiled else None
        loaded, rules = self.config(cfg_file, home, compiled_dir)
        if not config_file and environ.get(wire.CONFIG_ENV) and not os.path.lexists(cfg_file):
            loaded = ConfigProblem(cfg_file, "", f"named by {wire.CONFIG_ENV} but missing")
        phase, source, problem = phase_of(loaded, environ, phase_override)
        audit_file = audit.trail_path(root, audit_setting(rules.config, environ))
        bypass = bypass_requested(environ)
        make = functools.partial(self.protected, root, home, cfg_file, audit_file, environ)
        agents, agents_expire = self.agent_types(root, home, environ)
        context = Context(
            root, FS, home, problem, Deferred(make, self.clock), agents,
            claude_config_dir=_config_dir(home, root, environ),
        )  # fmt: skip
        made = Setup(
            root, rules.config, rules, problem, phase, source, bypass, home, cfg_file,
            audit_file, context,
        )  # fmt: skip
        return made, min(root_expires, agents_expire)

    def agent_types(
        self, root: str, home: str | None, environ: Mapping[str, str]
    ) -> tuple[frozenset[str], float]:
        """The agent types defined in .claude/agents/*.md (project, user), and when this
        answer expires: a new definition is seen within ttl."""
        folders = agent_folders(root, home, _config_dir(home, root, environ))
        return self.fs_fact(("agents", *folders), functools.partial(defined_agents, folders, FS))

    def protected(
        self,
        root: str,
        home: str | None,
        config_file: str,
        audit_file: str,
        environ: Mapping[str, str],
    ) -> tuple[ProtectedSet, float]:
        """What no agent may change (ADR 0010), and when this answer expires."""
        dirs = package_dirs(environ)
        config_dir = _config_dir(home, root, environ)
        places, planted = env_places(environ, root, FS)  # ADR 0066, 0086
        make = functools.partial(
            protected_set,
            root,
            home=home,
            config_file=config_file,
            audit_file=audit_file,
            package_dirs=dirs,
            fs=FS,
            claude_config_dir=config_dir,
            runtime=runtime_paths() + places,
            planted=planted,
        )
        key = ("protected", root, home, config_file, audit_file, config_dir, *dirs, *places)
        return self.fs_fact((*key, *planted), make)


def _config_dir(home: str | None, root: str, environ: Mapping[str, str]) -> str | None:
    """``CLAUDE_CONFIG_DIR``, absolute (a relative one is read against the home folder)."""
    config_dir = environ.get(wire.CLAUDE_CONFIG_DIR_ENV) or None
    if config_dir and not os.path.isabs(config_dir):
        config_dir = os.path.join(home or root, config_dir)
    return config_dir


CACHE = SetupCache()


def keep_compiled() -> None:
    """From now on, this process takes validated configs from the runtime folder and leaves
    them there (``config.load_compiled``): the hook process calls it, before its one Setup."""
    CACHE.compiled = True


def setup(
    root_hint: str,
    environ: Mapping[str, str],
    *,
    config_file: str | None = None,
    phase_override: Phase | None = None,
) -> Setup:
    """``CACHE.setup``: the Setup for these inputs in this process."""
    return CACHE.setup(root_hint, environ, config_file=config_file, phase_override=phase_override)
