"""The routes by which our hooks reach Claude Code, and the shell that runs them. For ``doctor``.

Two routes register the hooks: settings files (``install``) and the plugin (``hooks/hooks.json``,
enabled in settings or loaded with ``--plugin-dir``). With both, every call is judged twice.
On Windows a shell-form command runs in Git Bash when Claude Code finds it, else in PowerShell;
exec-form entries (``args``) run without a shell (ADR 0023).
"""

from __future__ import annotations

import json
import ntpath
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from orchestrator_boundary import hook_main, registration
from orchestrator_boundary.values import frozen

PLUGIN_NAME = "orchestrator-boundary"
GIT_BASH_ENV = "CLAUDE_CODE_GIT_BASH_PATH"
WINDOWS_GIT_BASH = (
    r"C:\Program Files\Git\bin\bash.exe",
    r"C:\Program Files (x86)\Git\bin\bash.exe",
)


@frozen
class PluginRoute:
    root: str  # the plugin folder, ${CLAUDE_PLUGIN_ROOT}
    why: str  # how it is loaded
    hooks: dict[str, list[dict[str, Any]]]  # event -> hook entries of hooks/hooks.json


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def is_our_plugin(folder: str) -> bool:
    manifest = _read_json(os.path.join(folder, ".claude-plugin", "plugin.json"))
    return isinstance(manifest, dict) and manifest.get("name") == PLUGIN_NAME


def plugin_hooks(folder: str) -> dict[str, list[dict[str, Any]]]:
    data = _read_json(os.path.join(folder, "hooks", "hooks.json"))
    hooks = data.get("hooks") if isinstance(data, dict) else None
    out: dict[str, list[dict[str, Any]]] = {e: [] for e in registration.EVENTS}
    for event in registration.EVENTS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for group in groups if isinstance(groups, list) else []:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                out[event].extend(h for h in group["hooks"] if isinstance(h, dict))
    return out


def enabled_names(settings: Iterable[Mapping[str, Any] | None]) -> list[str]:
    """Plugin ids enabled (true) in any of the settings objects."""
    names: set[str] = set()
    for data in settings:
        plugins = (data or {}).get("enabledPlugins")
        if isinstance(plugins, dict):
            names.update(str(k) for k, on in plugins.items() if on)
    return sorted(names)


def installed_plugin_folders(environ: Mapping[str, str], limit: int = 500) -> list[str]:
    """Folders under ``<claude dir>/plugins`` holding a ``.claude-plugin/plugin.json``."""
    base = os.path.join(hook_main.claude_dir(dict(environ)), "plugins")
    out = []
    for folder, dirs, _files in os.walk(base, followlinks=True):
        if folder[len(base) :].count(os.sep) >= 6:
            dirs[:] = []
        dirs[:] = [d for d in dirs if d not in (".git", "node_modules")]
        if ".claude-plugin" in dirs:
            out.append(folder)
            if len(out) >= limit:
                break
    return sorted(out)


def plugin_routes(
    settings: Iterable[Mapping[str, Any] | None],
    environ: Mapping[str, str],
    plugin_dirs: Iterable[str] = (),
) -> list[PluginRoute]:
    """Our plugin wherever it is active: ``--plugin-dir`` folders, and installed copies when
    settings enable an ``orchestrator-boundary@...`` plugin."""
    routes = [
        PluginRoute(os.path.abspath(d), f"--plugin-dir {d}", plugin_hooks(d))
        for d in plugin_dirs
        if is_our_plugin(d)
    ]
    enabled = [n for n in enabled_names(settings) if n.split("@")[0] == PLUGIN_NAME]
    if enabled:
        for folder in installed_plugin_folders(environ):
            if is_our_plugin(folder):
                routes.append(
                    PluginRoute(folder, f"plugin {enabled[0]} enabled", plugin_hooks(folder))
                )
                break
    return routes


def windows_git_bash(
    environ: Mapping[str, str], which: Callable[[str], str | None], exists: Callable[[str], bool]
) -> str | None:
    """Where Claude Code on Windows would find Git Bash: ``CLAUDE_CODE_GIT_BASH_PATH``, next to
    ``git.exe`` on PATH, or the standard install folders. None when it would not."""
    explicit = environ.get(GIT_BASH_ENV)
    if explicit:
        return explicit if exists(explicit) else None
    git = which("git")
    if git:
        top = ntpath.dirname(ntpath.dirname(git))  # ...\Git\cmd\git.exe -> ...\Git
        candidate = ntpath.join(top, "bin", "bash.exe")
        if exists(candidate):
            return candidate
    return next((p for p in WINDOWS_GIT_BASH if exists(p)), None)


def windows_shell_problems(
    entries: Iterable[Mapping[str, Any]],
    environ: Mapping[str, str],
    which: Callable[[str], str | None],
    exists: Callable[[str], bool],
) -> tuple[str, list[str]]:
    """(the shell Claude Code will use for shell-form hooks, what would not run there)."""
    bash = windows_git_bash(environ, which, exists)
    default = "Git Bash" if bash else "PowerShell"
    problems = []
    for entry in entries:
        command = str(entry.get("command", ""))
        if isinstance(entry.get("args"), list):
            if not ntpath.isabs(command) or command.lower().endswith(("python3", "python3.exe")):
                problems.append(f"exec-form command {command!r} is not an absolute python.exe")
            continue
        shell = "PowerShell" if entry.get("shell") == "powershell" else default
        if entry.get("shell") == "bash" and not bash:
            problems.append(f"{command!r} asks for bash, and Git Bash was not found")
        first = command.split(" ", 1)[0]
        if first in ("python3", "python"):
            problems.append(f"{command!r} runs {first} by name (the Microsoft Store stub?)")
        if shell == "PowerShell" and first == "sh" and which("sh") is None:
            problems.append(f"{command!r} runs in PowerShell, where sh is not on PATH")
    return default, problems
