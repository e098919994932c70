"""``.claude/boundary.toml``: the project's configuration, validated strictly. ADR 0004, 0030.

Unknown keys and wrong types are errors: a typo must never silently weaken a rule. A config
that cannot be loaded is returned as a ``ConfigProblem`` (file, key, problem); the policy then
blocks writes as in ``enforce`` until it is fixed.

The values here are plain frozen values (``values.frozen``), so that a hook reads them without
importing the validation library or a TOML parser: ``config_schema`` validates a file's TOML
(pydantic, imported only then) into these values, and ``load_compiled`` keeps them, compiled,
for the next hook process (ADR 0030). ``to_data``/``from_data`` are that compiled form.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping

from orchestrator_boundary import scope, wire
from orchestrator_boundary.config_values import (
    DEFAULT_AUDIT_PATH,
    AgentProfile,
    AuditConfig,
    BashConfig,
    Config,
    OrchestratorConfig,
    ProtectConfig,
    ReportConfig,
    SubagentsConfig,
)
from orchestrator_boundary.contracts_config import DelegationConfig, Deliverable, Intent
from orchestrator_boundary.digests import blake2b, sha256
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.tools import (
    BUILTIN,
    ToolClass,
    fixed_class_names,
    tool_list_notes,
    unknown_tool_names,
)
from orchestrator_boundary.values import as_dict, frozen
from orchestrator_boundary.wire import CONFIG_ENV

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_AUDIT_PATH",
    "AgentProfile",
    "AuditConfig",
    "BashConfig",
    "Config",
    "ConfigProblem",
    "OrchestratorConfig",
    "ProtectConfig",
    "ReportConfig",
    "SubagentsConfig",
    "config_path",
    "load_config",
    "parse_config",
]

DEFAULT_CONFIG_PATH = ".claude/boundary.toml"  # wire.CONFIG_PATH, spelt for messages


@frozen
class ConfigProblem:
    file: str
    key: str
    problem: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.key}" if self.key else self.file
        return f"{where}: {self.problem}"


def config_path(root: str, environ: Mapping[str, str]) -> str:
    explicit = environ.get(CONFIG_ENV, "")
    if explicit:
        return explicit if os.path.isabs(explicit) else os.path.join(root, explicit)
    return os.path.join(root, DEFAULT_CONFIG_PATH)


def _expand_home(data: object, home: str | None) -> object:
    """``~/`` at the start of a pattern means the user's home (an absolute pattern)."""
    if isinstance(data, dict):
        return {k: _expand_home(v, home) for k, v in data.items()}
    if isinstance(data, list):
        return [_expand_home(v, home) for v in data]
    if isinstance(data, str) and data.startswith(("~/", "!~/")) and home:
        bang = "!" if data.startswith("!") else ""
        return bang + home.rstrip("/") + data[len(bang) + 1 :]
    return data


def parse_config(text: str, file: str, home: str | None = None) -> Config | ConfigProblem:
    import tomllib

    from pydantic import ValidationError

    from orchestrator_boundary.config_schema import validate

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return ConfigProblem(file, "", f"not valid TOML ({exc})")
    try:
        return validate(_expand_home(data, home))
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        if first["type"] == "extra_forbidden" and first["loc"]:
            return ConfigProblem(file, key, _unknown_key(str(first["loc"][-1])))
        return ConfigProblem(file, key, first["msg"])


def _unknown_key(name: str) -> str:
    """'unknown key', with the nearest key the schema has (a typo: ``write_alow``)."""
    import difflib

    from orchestrator_boundary import config_schema

    known = {
        field
        for model in vars(config_schema).values()
        if isinstance(model, type) and issubclass(model, config_schema._Strict)
        for field in model.model_fields
    }
    # a key of another table is no hint here: `[protect] path` is `paths`, not `[audit] path`
    near = difflib.get_close_matches(name, sorted(known - {name}), n=1, cutoff=0.75)
    return "unknown key" + (f" (did you mean {near[0]!r}?)" if near else "")


def parse_bytes(raw: bytes, path: str, home: str | None = None) -> Config | ConfigProblem:
    """The config in ``raw``, the bytes of the file at ``path``."""
    try:  # a byte-order mark (PowerShell 5's `-Encoding UTF8`, old Notepad) is no content
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ConfigProblem(path, "", "not UTF-8 text")
    return parse_config(text, path, home)


def load_config(path: str, home: str | None = None) -> Config | ConfigProblem:
    """The config at ``path``; the defaults when there is no file; a problem when it is broken."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        return ConfigProblem(path, "", f"cannot be read ({exc.strerror or exc})")
    return parse_bytes(raw, path, home)


# ---- the compiled form: plain JSON data, and back (``load_compiled``) ----


def _data_of(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return {k: sorted(v) if isinstance(v, frozenset) else v for k, v in pairs}


def to_data(loaded: Config | ConfigProblem) -> dict[str, Any]:
    """JSON-ready data that ``from_data`` turns back into an equal value (enums as their
    string values, the explicitly set keys as sorted lists)."""
    if isinstance(loaded, ConfigProblem):
        return {"problem": [loaded.file, loaded.key, loaded.problem]}
    return {"config": as_dict(loaded, dict_factory=_data_of)}


def from_data(data: Mapping[str, Any]) -> Config | ConfigProblem:
    """The value ``to_data`` made ``data`` from; KeyError, TypeError or ValueError when the data
    is not such a value."""
    if "problem" in data:
        file, key, problem = data["problem"]
        return ConfigProblem(str(file), str(key), str(problem))
    d = data["config"]
    return Config(
        phase=Phase(d["phase"]),
        orchestrator=OrchestratorConfig(**d["orchestrator"]),
        subagents=SubagentsConfig(**d["subagents"]),
        agents={
            name: AgentProfile(
                tools=p["tools"],
                write_scope=p["write_scope"],
                requires=[Deliverable(**r) for r in p["requires"]],
            )
            for name, p in d["agents"].items()
        },
        tools={name: ToolClass(c) for name, c in d["tools"].items()},
        bash=BashConfig(**d["bash"]),
        audit=AuditConfig(
            **{**d["audit"], "set_fields": frozenset(d["audit"]["set_fields"])},
        ),
        protect=ProtectConfig(**d["protect"]),
        report=ReportConfig(**d["report"]),
        intents={name: Intent(**i) for name, i in d["intents"].items()},
        delegation=DelegationConfig(**d["delegation"]),
        set_fields=frozenset(d["set_fields"]),
    )


def patterns(config: Config) -> list[str]:
    """Every scope pattern the config holds (what ``config_schema`` validated as one)."""
    found = [*config.orchestrator.write_allow, *config.subagents.write_outside_root]
    found += [*config.bash.allow_write, *config.protect.paths]
    for profile in config.agents.values():
        found += profile.write_scope or []
    for intent in config.intents.values():
        found += intent.owned_scope
    return found


def config_notes(config: Config) -> list[str]:
    """Warnings, not errors, about the config's tool names: a name no Claude Code tool has (a
    typo allows nothing, or leaves a tool unclassified), a retired name and what it covers.
    For ``doctor``, ``check`` and ``phase enforce`` to print, one line each."""
    notes = tool_list_notes("orchestrator.allow_tools", config.orchestrator.allow_tools)
    for name, profile in config.agents.items():
        if profile.tools is not None:
            notes += tool_list_notes(f"agents.{name}.tools", profile.tools)
    for name, guess in unknown_tool_names(config.tools):
        hint = f"; did you mean {guess!r}?" if guess else "."
        notes.append(f"tools: no Claude Code tool is named {name!r}{hint}")
    for name in fixed_class_names(config.tools):
        notes.append(
            f"tools: {name} keeps its own class ({BUILTIN[name].value}): the guard reads what "
            "it changes from that class, so the entry is ignored."
        )
    return notes


# ---- the compiled config, kept for the next hook process (ADR 0030) ----
# Validating needs tomllib and pydantic, several times a hook process's own start. A process
# that validated a file leaves the result (``to_data``) in ``<runtime dir>/configs/``: a folder
# of ours, closed to everyone else (0700), inside the protected set (the evaluator's runtime
# folder), named by a hash of everything the result depends on (the bytes, the path, the home
# folder, the package's version tag). An entry is used only when it is a regular file of ours,
# closed to others, whose JSON repeats exactly that key; anything else is ignored and the file
# validated afresh. On Windows the folder is in %LOCALAPPDATA% and the checks are others
# (ADR 0041); where no folder can be used, every process validates.

COMPILED_FORMAT = "orchestrator-boundary compiled config 1"
COMPILED_SUBDIR = "configs"
MAX_COMPILED = 64  # beyond this, the oldest entries are removed when one is written
MAX_CONFIG_BYTES = 4 * 1024 * 1024  # larger files are validated every time (and rare)


def compiled_folder(runtime_dir: str) -> str | None:
    """The cache folder under ``runtime_dir``, when both are ours and closed (else None). On
    Windows, real folders that are no junction or link (ADR 0041: no ACL check)."""
    if hasattr(os, "getuid"):
        own = wire.private_dir
    elif os.name == "nt":
        own = wire.local_dir
    else:
        return None
    if not own(runtime_dir, create=True):
        return None
    folder = os.path.join(runtime_dir, COMPILED_SUBDIR)
    return folder if own(folder, create=True) else None


def compiled_key(path: str, home: str | None, raw: bytes) -> dict[str, str]:
    """Everything the validated result depends on."""
    return {
        "format": COMPILED_FORMAT,
        "package": wire.version_tag().decode("utf-8", "backslashreplace"),
        "path": path,
        "home": home or "",
        "sha256": sha256(raw).hexdigest(),
    }


def entry_name(key: dict[str, str]) -> str:
    text = "\0".join(key[k] for k in sorted(key)).encode("utf-8", "surrogateescape")
    return blake2b(text, digest_size=16).hexdigest() + ".json"


def _read_entry(file: str) -> dict[str, Any] | None:
    """The JSON of ``file`` when it is an entry we may read (``_open_entry``)."""
    fd = _open_entry(file)
    if fd is None:
        return None
    try:
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    return data if isinstance(data, dict) else None


def _open_entry(file: str) -> int | None:
    """A descriptor on ``file`` when it is a regular file of a bounded size, and on POSIX ours
    and closed to everyone else. Windows has no ``O_NOFOLLOW``: there the name must not be a
    reparse point (a link or junction) before it is opened (ADR 0041)."""
    windows = os.name == "nt"
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if windows and not wire.plain_node(os.lstat(file), wire.S_IFREG):
            return None
        fd = os.open(file, flags | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if windows:
            ok = wire.plain_node(st, wire.S_IFREG)
        else:
            ok = (st.st_mode & 0o170000) == 0o100000 and st.st_uid == os.getuid()
            ok = ok and not st.st_mode & 0o077
        if ok and st.st_size <= 2 * MAX_CONFIG_BYTES:
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def compiled_entry(folder: str, key: dict[str, str]) -> Config | ConfigProblem | None:
    """The verified entry for ``key``, or None."""
    data = _read_entry(os.path.join(folder, entry_name(key)))
    if data is None or data.get("key") != key:
        return None
    try:
        loaded = from_data(data)
    except (KeyError, TypeError, ValueError):
        return None
    regex = data.get("regex")
    if isinstance(regex, dict) and all(isinstance(v, str) for v in regex.values()):
        scope.known(regex)  # its patterns are matched without importing pathspec (ADR 0043)
    return loaded


def store_compiled(folder: str, key: dict[str, str], loaded: Config | ConfigProblem) -> None:
    """Write the entry for ``key`` (atomically: a reader sees the old one or the new one)."""
    name = entry_name(key)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    regex = scope.translations(patterns(loaded)) if isinstance(loaded, Config) else {}
    data = {**to_data(loaded), "key": key, "regex": regex}
    text = json.dumps(data).encode("ascii")  # a path may hold surrogate-escaped bytes
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(tmp, flags | getattr(os, "O_BINARY", 0), 0o600)
        try:
            os.write(fd, text)
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(folder, name))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return
    _prune(folder)


def _prune(folder: str) -> None:
    """Keep at most ``MAX_COMPILED`` entries: the newest."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
        if len(entries) <= MAX_COMPILED:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for e in entries[: len(entries) - MAX_COMPILED]:
            os.unlink(e.path)
    except OSError:
        pass


def load_compiled(path: str, home: str | None, folder: str | None) -> Config | ConfigProblem:
    """``load_config(path, home)``, answered from the verified entry in ``folder`` when
    there is one, and left there for the next process when there was none."""
    if folder is None:
        return load_config(path, home)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return load_config(path, home)  # missing or unreadable: its own answer, not cached
    if len(raw) > MAX_CONFIG_BYTES:
        return load_config(path, home)
    key = compiled_key(path, home, raw)
    hit = compiled_entry(folder, key)
    if hit is not None:
        return hit
    loaded = parse_bytes(raw, path, home)
    store_compiled(folder, key, loaded)
    return loaded
