"""What every ``doctor`` check works from: the ``Check`` it returns, the ``Context`` it reads
(project, environment, settings files, plugin routes), our entries, and the CLI's version."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from orchestrator_boundary import hook_routes
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf

MIN_CLAUDE = (2, 1, 69)  # first version whose payloads carry agent_id
RUN_TIMEOUT_S = 20.0
OK, WARN, FAIL = "ok", "warn", "fail"
GUARDED = ("CLAUDE", "ORCHESTRATOR_BOUNDARY", "AMPLIFIER_BYPASS")


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Context:
    root: str
    environ: Mapping[str, str]
    home: str | None
    plugin_dirs: tuple[str, ...] = ()  # --plugin-dir folders Claude Code is started with
    platform: str = sys.platform
    which: Callable[[str], str | None] | None = None  # shutil.which on the environment's PATH
    exists: Callable[[str], bool] = os.path.exists
    start: str | None = None  # the folder Claude Code starts in: $CLAUDE_PROJECT_DIR or here

    def find(self, name: str) -> str | None:
        if self.which is not None:
            return self.which(name)
        return shutil.which(name, path=self.environ.get("PATH"))

    def plugin_routes(self) -> list[hook_routes.PluginRoute]:
        return hook_routes.plugin_routes(
            [d for _s, _p, d, _ in self.settings()], self.environ, self.plugin_dirs
        )

    def settings(self) -> list[tuple[str, str, dict[str, Any] | None, str]]:
        """(scope, path, parsed or None, problem) for each settings file that exists."""
        out: list[tuple[str, str, dict[str, Any] | None, str]] = []
        for scope, path in sf.all_settings_paths(self.root, home=self.home, environ=self.environ):
            try:
                text = sf.read_text(path)
                if text is None:
                    continue
                out.append((scope, path, se.parse_settings(text, path), ""))
            except se.SettingsError as exc:
                out.append((scope, path, None, exc.problem))
            except OSError as exc:
                out.append((scope, path, None, f"cannot be read ({exc})"))
        return out


def claude_version(ctx: Context) -> tuple[str | None, tuple[int, ...] | None, str]:
    """(the ``claude`` on PATH, its version, what went wrong). Asked once per doctor run."""
    exe = shutil.which("claude", path=ctx.environ.get("PATH"))
    if exe is None:
        return None, None, "claude is not on PATH here"
    key = (exe, ctx.environ.get("PATH"))
    if key not in _VERSIONS:
        _VERSIONS[key] = _ask_version(exe, ctx.environ)
    version, problem = _VERSIONS[key]
    return exe, version, problem


_VERSIONS: dict[tuple[str, str | None], tuple[tuple[int, ...] | None, str]] = {}


def forget_versions() -> None:
    """One answer per doctor run, a fresh one for the next."""
    _VERSIONS.clear()


def _ask_version(exe: str, environ: Mapping[str, str]) -> tuple[tuple[int, ...] | None, str]:
    try:
        done = subprocess.run(
            [exe, "--version"],
            capture_output=True,
            text=True,
            timeout=15,
            env=dict(environ),
            check=False,
        )
        text = (done.stdout or "") + (done.stderr or "")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{exe} --version did not answer ({exc})"
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    if m is None:
        return None, f"{exe} --version printed no version: {text.strip()[:80]!r}"
    return tuple(int(g) for g in m.groups()), ""


def shown(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def ours(ctx: Context) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    found: dict[str, list[tuple[str, dict[str, Any]]]] = {e: [] for e in se.EVENTS}
    for _scope, path, data, _problem in ctx.settings():
        if data is None:
            continue
        for event, hooks in se.registered(data).items():
            found[event].extend((path, h) for h in hooks)
    return found


def plugin_enabled(ctx: Context) -> str | None:
    for _scope, path, data, _ in ctx.settings():
        plugins = (data or {}).get("enabledPlugins")
        if isinstance(plugins, dict):
            for name, on in plugins.items():
                if on and "orchestrator-boundary" in str(name):
                    return f"plugin {name} enabled in {path}"
    return None


def entries_to_probe(ctx: Context) -> list[tuple[str, str, dict[str, Any], dict[str, str]]]:
    """(event, where, entry, extra environment) for each of our entries, settings and plugin."""
    out: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
        (e, path, hook, {}) for e, found in ours(ctx).items() for path, hook in found
    ]
    for route in ctx.plugin_routes():
        for event, hooks in route.hooks.items():
            out.extend(
                (event, f"{route.root}/hooks/hooks.json", h, {"CLAUDE_PLUGIN_ROOT": route.root})
                for h in hooks
            )
    return out


def reinstall_command(platform: str) -> str:
    """``install`` run by this interpreter, as a person types it: quoted for a POSIX shell, or
    on Windows in double quotes (cmd, Git Bash) and with ``&`` for PowerShell."""
    tail = "-m orchestrator_boundary.cli install"
    if platform == "win32":
        return f'"{sys.executable}" {tail} (in PowerShell: & "{sys.executable}" {tail})'
    return f"{shlex.quote(sys.executable)} {tail}"
