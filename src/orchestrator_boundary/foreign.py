"""The Setup of a payload recorded on another platform, and the choice between the two.

``check`` and ``replay`` judge payloads recorded anywhere: a payload from Windows is judged on
Linux with Windows' path rules, and the reverse (issue 15). Nothing of the recording machine's
file system can be read from here, so its facts are taken as absent (``fs.ForeignFileSystem``).
The hooks themselves always use ``setups.setup``: a live payload comes from this machine.
"""

from __future__ import annotations

import functools
import ntpath
import os
import posixpath
import sys
from collections.abc import Mapping
from typing import Any

from orchestrator_boundary import setups, wire
from orchestrator_boundary.config import DEFAULT_CONFIG_PATH, Config, config_path
from orchestrator_boundary.context import Context
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.fs import ForeignFileSystem, windows_normal
from orchestrator_boundary.paths import POSIX, WINDOWS, platform_of, recorded_home, recorded_on
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase, bypass_requested
from orchestrator_boundary.protect import ProtectedSet, protected_set
from orchestrator_boundary.ruleset import RuleSet, compile_config
from orchestrator_boundary.setups import ConfigKey, Setup

MACOS = "macos"  # POSIX path rules, names compared without case, /tmp is /private/tmp
HOST = WINDOWS if os.name == "nt" else MACOS if sys.platform == "darwin" else POSIX
# a POSIX home or project there: macOS, whose default file system ignores case (ADR 0051)
_MACOS_FOLDERS = ("/Users/", "/Volumes/", "/private/var/folders/")


def recorded_platform(payload: HookPayload) -> str | None:
    """Where ``payload`` was recorded, from its cwd, transcript path or the paths its tool
    names (``paths.recorded_on``); None when nothing in it says."""
    tool_paths = [payload.tool_input.get(k) for k in ("file_path", "notebook_path", "path")]
    return recorded_on((payload.cwd, payload.transcript_path, *tool_paths))


def _from_macos(payload: HookPayload) -> bool:
    """A POSIX payload whose cwd or transcript lies where only macOS keeps homes and projects."""
    return any(
        isinstance(p, str) and p.startswith(_MACOS_FOLDERS)
        for p in (payload.cwd, payload.transcript_path)
    )


@functools.lru_cache(maxsize=1)
def _default_rules() -> RuleSet:
    return compile_config(Config())


def foreign_setup(
    payload: HookPayload,
    platform: str,
    environ: Mapping[str, str],
    *,
    config_file: str | None = None,
    phase_override: Phase | None = None,
) -> Setup:
    """The Setup for judging, here, a payload recorded on ``platform`` (another one): that
    platform's path rules through a ``fs.ForeignFileSystem`` (none of its file-system facts:
    nothing exists, nothing is a link), the root and the home folder read off the payload (its
    cwd, its transcript path). The config is ``config_file``, else the one of a local checkout
    named by ``CLAUDE_PROJECT_DIR`` (or ``ORCHESTRATOR_BOUNDARY_CONFIG``) when it is a path of
    this machine, else the defaults: the recorded project's own config cannot be read from here.
    No package folders are protected (where the package lived there is unknown)."""
    cwd = payload.cwd
    recorded = recorded_home(payload.transcript_path, platform == WINDOWS)
    local = config_file or _local_config(environ)
    key = (platform, cwd, recorded, local, phase_override, *map(environ.get, wire.DECISION_ENV))
    hit = _FOREIGN.get(key)
    if hit is not None and (local is None or setups.same_config(local, hit[0])):
        return hit[1]
    made = _foreign_setup(cwd, recorded, platform, local, environ, phase_override)
    if len(_FOREIGN) > 256:
        _FOREIGN.clear()
    # the key the config was loaded under (taken before reading it), not a newer one
    _FOREIGN[key] = (
        setups.CACHE.configs[(local, made.home)][0] if local else setups.NO_CONFIG,
        made,
    )
    return made


# foreign_setup's key -> (the local config's key, the Setup): no file-system facts to expire
_FOREIGN: dict[tuple[Any, ...], tuple[ConfigKey, Setup]] = {}


def _foreign_setup(
    cwd: str,
    recorded: str | None,
    platform: str,
    local: str | None,
    environ: Mapping[str, str],
    phase_override: Phase | None,
) -> Setup:
    windows = platform == WINDOWS
    if platform_of(cwd) != (POSIX if platform == MACOS else platform):
        raise BoundaryInputError(
            f"no usable project root (the payload's cwd, recorded on {platform}): {cwd!r}"
        )
    mod = ntpath if windows else posixpath
    drive = ntpath.splitdrive(windows_normal(cwd))[0] if windows else ""
    macos = platform == MACOS or (not windows and cwd.startswith(_MACOS_FOLDERS))
    fs = ForeignFileSystem(windows, insensitive=windows or macos, drive=drive, macos=macos)
    root = fs.realpath(cwd)
    home = fs.realpath(recorded) if recorded else None
    if local:
        loaded, rules = setups.CACHE.config(local, home)
    else:
        loaded, rules = Config(), _default_rules()
    phase, source, problem = setups.phase_of(loaded, environ, phase_override)
    recorded_config = fs.realpath(mod.join(root, DEFAULT_CONFIG_PATH))
    configured = rules.config.audit.path
    audit_file = fs.realpath(
        configured if platform_of(configured) == platform else mod.join(root, configured)
    )
    protected = _foreign_protected(root, home, recorded_config, audit_file, fs)
    context = Context(root, fs, home, problem, protected)
    return Setup(
        root, rules.config, rules, problem, phase, source, bypass_requested(environ), home,
        local or recorded_config, audit_file, context,
    )  # fmt: skip


@functools.lru_cache(maxsize=256)
def _foreign_protected(
    root: str, home: str | None, config_file: str, audit_file: str, fs: ForeignFileSystem
) -> ProtectedSet:
    """The protected set of a recorded project: string rules only, so it never goes stale."""
    return protected_set(
        root, home=home, config_file=config_file, audit_file=audit_file, package_dirs=(), fs=fs
    )


def _local_config(environ: Mapping[str, str]) -> str | None:
    """The config of a checkout on this machine, when the environment names one."""
    project = environ.get(wire.PROJECT_DIR_ENV) or ""
    explicit = environ.get(wire.CONFIG_ENV) or ""
    if os.path.isabs(project):
        return config_path(project, environ)
    return explicit if os.path.isabs(explicit) else None


def setup_for(
    payload: HookPayload,
    environ: Mapping[str, str],
    *,
    config_file: str | None = None,
    phase_override: Phase | None = None,
) -> Setup:
    """The Setup to judge ``payload`` with outside a hook (``check``, ``replay``): with the
    path rules of the platform it was recorded on. The hooks themselves use ``setup``: a live
    payload always comes from this machine."""
    platform = recorded_platform(payload)
    if platform == POSIX and _from_macos(payload):
        platform = MACOS  # a Mac's payload on Linux, or Linux's on a Mac: each its own rules
    if platform is not None and platform != HOST:
        return foreign_setup(
            payload, platform, environ, config_file=config_file, phase_override=phase_override
        )
    return setups.setup(
        payload.cwd, environ, config_file=config_file, phase_override=phase_override
    )
