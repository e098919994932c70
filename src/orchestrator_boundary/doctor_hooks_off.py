"""``doctor``'s check that Claude Code will run our hooks at all: a settings key can switch
every hook off, and then nothing is blocked, recorded or said.

- ``"disableAllHooks": true`` (seen on 2.1.330): in the user's, the project's or the local
  settings it switches off every hook of the session, ours too; the most specific file that
  sets the key decides (a project's ``false`` overrides the user's ``true``; a
  ``settings.local.json`` overrides both), and managed settings override all.
- ``"allowManagedHooksOnly": true`` in managed settings: only managed hooks run, so entries in
  any other file, and plugins, never run.

And what the settings' ``env`` hands every hook (``check_settings_env``).
"""

from __future__ import annotations

import os
from typing import Any

from orchestrator_boundary import registration
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.doctor_context import FAIL, OK, WARN, Check, Context, ours
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.gone_guard import entry_argv
from orchestrator_boundary.phase import BYPASS_ENV, PHASE_ENV, bypass_requested
from orchestrator_boundary.setups import setup
from orchestrator_boundary.wire import CONFIG_ENV

# Most specific first: the first file that sets the key decides.
PRECEDENCE = ("managed", "local", "project", "user")


def _deciding(files: list[tuple[str, str, Any]], key: str) -> tuple[str, Any]:
    """(path, value) of the file whose ``key`` Claude Code uses; ("", None) when none sets it."""
    for scope in PRECEDENCE:
        for s, path, data in files:
            if s == scope and isinstance(data, dict) and key in data:
                return path, data[key]
    return "", None


def check_hooks_disabled(ctx: Context) -> Check:
    files = [(s, p, d) for s, p, d, _ in ctx.settings()]
    where = sorted({p for entries in ours(ctx).values() for p, _h in entries})
    plugin = bool(ctx.plugin_routes())
    if not where and not plugin:
        return Check("hooks-off", OK, "no registered entry of ours to switch off")
    try:
        phase = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root}).phase.value
    except BoundaryInputError:
        phase = "enforce"
    status = WARN if phase == "off" else FAIL
    path, value = _deciding(files, "disableAllHooks")
    if value is True:
        return Check(
            "hooks-off",
            status,
            f'"disableAllHooks": true in {path} switches off every hook, ours too: in phase '
            f"{phase} nothing is blocked, recorded or said",
            f'remove "disableAllHooks" from {path}',
        )
    managed = [(p, d) for s, p, d in files if s == "managed" and isinstance(d, dict)]
    only = [p for p, d in managed if d.get("allowManagedHooksOnly") is True]
    outside = [p for p in where if p not in {m for m, _d in managed}]
    if only and (outside or plugin):
        named = ", ".join(outside) or "our plugin"
        return Check(
            "hooks-off",
            status,
            f'"allowManagedHooksOnly": true in {only[0]}: only managed hooks run, so ours '
            f"in {named} never run",
            "ask your administrator to register the hooks in managed settings "
            "(orchestrator-boundary install --scope managed)",
        )
    decided = f" ({path} sets it false)" if path else ""
    return Check("hooks-off", OK, f"no settings file switches the hooks off{decided}")


def install_notes(root: str, scope: str, environ: Any) -> list[str]:
    """What ``install`` says when Claude Code will run none of the entries it just wrote: it
    used to report success and leave this to ``doctor``."""
    files = sf.parsed_settings(root, environ=environ)
    path, value = _deciding(files, "disableAllHooks")
    if value is True:
        return [
            f'"disableAllHooks": true in {path} switches off every hook, these too: nothing is '
            f'blocked, recorded or said until "disableAllHooks" is removed from {path}'
        ]
    only = [p for s, p, d in files if s == "managed" and d.get("allowManagedHooksOnly") is True]
    if only and scope != "managed":
        return [
            f'"allowManagedHooksOnly": true in {only[0]}: only managed hooks run, so these never '
            "do; ask your administrator to run: orchestrator-boundary install --scope managed"
        ]
    return []


CACHE_TAG = b"Signature: 8a477f597d28d172789f06886806bc55"  # bford.info/cachedir


def cache_root(prefix: str) -> str | None:
    """The cache folder the environment at ``prefix`` lives in, found by the ``CACHEDIR.TAG``
    of a folder above it (uvx: ``~/.cache/uv``; ``pipx run``: ``~/.cache/pipx``); None for a
    lasting one. A tag in ``prefix`` itself is not one: uv tags every venv it makes, the
    lasting ones of ``uv tool install`` and a project's ``.venv`` too (ADR 0084)."""
    current = os.path.abspath(prefix)
    while (parent := os.path.dirname(current)) != current:
        current = parent
        try:
            with open(os.path.join(current, "CACHEDIR.TAG"), "rb") as tag:
                if tag.read(len(CACHE_TAG)) == CACHE_TAG:
                    return current
        except OSError:
            continue
    return None


def cached_install(scope: str, prefix: str) -> str:
    """Why ``install`` refuses to register an interpreter in a cache (local, user, managed:
    the entry names it), or for the project scope what it says of the pointer ('' when the
    environment is a lasting one). Once the cache is cleaned, every call is answered without
    the package: by the phase, unjudged and unrecorded."""
    cache = cache_root(prefix)
    if cache is None:
        return ""
    why = (
        f"this orchestrator-boundary runs from {prefix}, inside the cache {cache} (uvx or pipx "
        "run), which is cleaned without notice (uv cache clean or prune; pipx drops what it has "
        "not run for 14 days). Install it lastingly (uv tool install orchestrator-boundary, "
        "pipx install orchestrator-boundary, or pip install it into a venv) and run install from "
        "there"
    )
    if scope == "project":
        return f"{why}: until then, this machine's hooks find it only while the cache keeps it"
    return f"not registering: {why}; the hooks would name this interpreter"


def cached_interpreter(ctx: Context) -> Check | None:
    """A WARN when a registered entry, or the pointer this user's launcher reads, names an
    interpreter inside a cache (an install from uvx or ``pipx run`` before ``install`` refused
    one): the commands answer today and stop without notice (ADR 0084)."""
    named = [
        (entry_argv(hook)[:1] or [""])[0]
        for entries in ours(ctx).values()
        for _path, hook in entries
        if not registration.shim_phase(str(hook.get("command", "")))
    ]
    try:
        with open(registration.pointer_path(ctx.environ), encoding="utf-8") as pointer:
            named.append(pointer.readline().strip())
    except (OSError, UnicodeDecodeError):
        pass
    for exe in dict.fromkeys(e for e in named if os.path.isabs(e)):
        cache = cache_root(os.path.dirname(os.path.dirname(exe)))
        if cache is not None:
            return Check(
                "commands",
                WARN,
                f"the hooks run {exe}, inside the cache {cache} (uvx or pipx run): they stop "
                "working when it is cleaned, without notice",
                "install it lastingly (uv tool install orchestrator-boundary, pipx install "
                "orchestrator-boundary, or pip install it into a venv), then from there run: "
                "orchestrator-boundary install",
            )
    return None


def check_settings_env(ctx: Context) -> Check:
    """The ``env`` of the settings files reaches every hook Claude Code starts (seen on
    2.1.330): ``AMPLIFIER_BYPASS_BOUNDARY`` there bypasses every session, and
    ``ORCHESTRATOR_BOUNDARY_PHASE`` overrides the config's phase in every session, whatever
    ``phase`` says. Each key is taken from the most specific file that sets it."""
    files = [(s, p, d.get("env") if isinstance(d, dict) else None) for s, p, d, _ in ctx.settings()]
    envs = [(s, p, e) for s, p, e in files if isinstance(e, dict)]
    try:
        phase = setup(ctx.root, {**ctx.environ, "CLAUDE_PROJECT_DIR": ctx.root}).phase.value
    except BoundaryInputError:
        phase = "enforce"
    found = []
    bypass_path, bypass = _deciding(envs, BYPASS_ENV)
    if bypass is not None and bypass_requested({BYPASS_ENV: str(bypass)}):
        found.append(
            f"{BYPASS_ENV}={bypass} in {bypass_path} bypasses the boundary in every session"
        )
    for key in (PHASE_ENV, CONFIG_ENV):
        path, value = _deciding(envs, key)
        if value is not None:
            what = "the config's phase" if key == PHASE_ENV else "which config the hooks read"
            found.append(f"{key}={value} in {path} overrides {what} in every session")
    if not found:
        return Check("settings-env", OK, "no settings file sets the boundary's variables")
    return Check(
        "settings-env",
        FAIL if bypass_path and phase != "off" else WARN,
        "; ".join(found) + " (Claude Code hands each settings file's env to the hooks)",
        'remove those keys from the "env" of the files named',
    )
