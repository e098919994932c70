"""Claude Code settings documents: which hooks in them are ours, and the new JSON that registers
(or unregisters) our hooks. ADR 0011. Where the files are and how they are written:
``settings_files``.

The merge is computed from the parsed old document to a new one without touching anything that
is not ours: other keys, other events, other matcher groups and other hooks keep their place and
their values. Our entries are recognised by a marker in the command (``orchestrator_boundary`` /
``orchestrator-boundary``), so uninstall removes exactly them. Nothing here touches the disk.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from orchestrator_boundary import registration, settings_text

# PreToolUse, PostToolUse and the lifecycle events SubagentStop, Stop, SessionEnd (ADR 0033)
EVENTS = registration.EVENTS
MARKERS = ("orchestrator_boundary", "orchestrator-boundary")
# Claude Code's own timeout for our hook, in seconds. The hook answers in well under a second;
# if this were ever hit, Claude Code would let the call through (fail open), so it is generous.
HOOK_TIMEOUT_S = 10
MANAGED_HOOKS_KEY = "allowManagedHooksOnly"
# Claude Code 2.1.330 reads allowManagedModsOnly as an option of its built-in policy plugin, in
# managed settings: pluginConfigs["cc-plugin-sec-default@builtin"].options.allowManagedModsOnly.
MANAGED_MODS_KEY = "allowManagedModsOnly"
POLICY_PLUGIN = "cc-plugin-sec-default@builtin"


# What a settings file that is not JSON means: a person may take a comment for harmless.
IGNORED = (
    "Claude Code ignores a settings file it cannot read as JSON (a comment or a trailing comma "
    "is enough), so none of the hooks or permissions in it apply"
)


class SettingsError(ValueError):
    """A settings file we must not edit (not JSON, or not the shape Claude Code expects)."""

    def __init__(self, file: str, problem: str) -> None:
        super().__init__(f"{file}: {problem}")
        self.file, self.problem = file, problem


def is_ours(hook: object) -> bool:
    """A hook entry (``{"type": "command", "command": ...}``, or exec form with ``args``) that
    this package registered, in any version: one of the words it runs is our launcher, one of
    our scripts or console scripts, our module (``-m``), or our ``-c`` program. A command of
    another tool that only mentions our name (``notify-send 'orchestrator-boundary ...'``, a
    log file named after it) is not ours: install used to replace it and uninstall to delete it."""
    if not isinstance(hook, Mapping) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = registration.entry_argv(hook)
    except ValueError:  # text sh cannot split: not a command we wrote
        return False
    return any(_our_word(w, words[i - 1] if i else "") for i, w in enumerate(words))


_OUR_SCRIPT = re.compile(r"(^|/)orchestrator_boundary/[A-Za-z_]+\.py$")
_OUR_CONSOLE = re.compile(r"(^|/)orchestrator-boundary(-pre-tool-use|-post-tool-use)?(\.exe)?$")
_OUR_MODULE = re.compile(r"^orchestrator_boundary(\.[A-Za-z_]+)*$")


def _our_word(word: str, before: str) -> bool:
    w = word.replace("\\", "/")
    if w.endswith(registration.SHIM_RELPATH) or _OUR_SCRIPT.search(w) or _OUR_CONSOLE.search(w):
        return True
    if w.endswith("/hooks/hook.py") and any(m in w for m in MARKERS):
        return True  # the plugin's entry, registered by hand from a checkout
    if before.startswith("-") and before.endswith("m") and _OUR_MODULE.match(w):
        return True  # python -m orchestrator_boundary.hook_entry, -Im ...
    return before == "-c" and any(m in w for m in MARKERS)  # a Windows exec-form program


def parse_settings(text: str, file: str) -> dict[str, Any]:
    """The settings object; an empty (or blank) file counts as ``{}``."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(
            file, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(data, dict):
        raise SettingsError(file, f"the top level is {json_kind(data)}, not an object")
    return data


def json_kind(value: object) -> str:
    """What a parsed JSON value is, in JSON's words (never Python's ``str`` or ``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"JSON {str(value).lower()}"
    kinds = ((dict, "an object"), (list, "an array"), (str, "a string"), ((int, float), "a number"))
    return next((k for t, k in kinds if isinstance(value, t)), "not JSON")


_INDENT = re.compile(r"^\{[ \t]*\r?\n([ \t]+)\S")


def detect_indent(text: str | None) -> str:
    """The indentation the file already uses (two spaces when it shows none)."""
    m = _INDENT.match(text or "")
    return m.group(1) if m else "  "


def dump_settings(data: Mapping[str, Any], indent: str = "  ") -> str:
    """The file text: the file's own indentation, non-ASCII kept as is, a final newline."""
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def render_settings(old_text: str | None, old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """The new file text: the old text with only what changed rewritten, in the file's own
    style (``settings_text``, ADR 0052); the whole document when that cannot be done safely."""
    if old_text is not None and old_text.strip():
        kept = settings_text.patch(old_text, old, new, detect_indent(old_text))
        if kept is not None:
            return kept
    return dump_settings(new, detect_indent(old_text))


def shape_problem(data: Mapping[str, Any] | None) -> str | None:
    """Why our hooks cannot be merged into ``data`` (``"hooks"`` or one of our events of the
    wrong type), in words a person can act on; None when they can (or there is no data)."""
    hooks = data.get("hooks") if data is not None else None
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        return f'"hooks" is {json_kind(hooks)}, not an object'
    for event in EVENTS:
        groups = hooks.get(event)
        if groups is not None and not isinstance(groups, list):
            return f'"hooks.{event}" is {json_kind(groups)}, not an array'
    return None


def _check_shape(data: Mapping[str, Any], file: str) -> None:
    problem = shape_problem(data)
    if problem is not None:
        raise SettingsError(file, problem)


def _strip_ours(groups: list[Any]) -> list[Any]:
    """The groups without our entries; groups that only held ours disappear."""
    out = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [h for h in group["hooks"] if not is_ours(h)]
            if len(kept) != len(group["hooks"]):
                if not kept:
                    continue
                group = {**group, "hooks": kept}
        out.append(group)
    return out


def _our_group(event: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """Our matcher group: ``*`` for the tool events, no matcher for lifecycle events."""
    match = registration.matcher(event)
    return {**({"matcher": match} if match else {}), "hooks": [dict(entry)]}


def _is_exact(groups: list[Any], want: dict[str, Any]) -> bool:
    """Exactly one entry of ours, and it is the wanted group."""
    ours = [
        g
        for g in groups
        if isinstance(g, dict)
        and isinstance(g.get("hooks"), list)
        and any(is_ours(h) for h in g["hooks"])
    ]
    return len(ours) == 1 and ours[0] == want


@dataclass
class Change:
    old: dict[str, Any]
    new: dict[str, Any]
    actions: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.old != self.new


def with_hooks(
    old: Mapping[str, Any],
    file: str = "settings.json",
    *,
    entries: Mapping[str, Mapping[str, Any]] | None = None,
    commands: Mapping[str, str] | None = None,
    timeout: int = HOOK_TIMEOUT_S,
    managed_only: bool = False,
) -> Change:
    """``old`` with our hooks registered, once per event of ``EVENTS`` (matcher ``*`` for the
    tool events, none for lifecycle events).

    ``entries`` are whole hook entries (default: ``registration.entries`` of a local install in
    warn); ``commands`` is the short form for a plain command per event with our timeout.
    ``managed_only`` also sets ``allowManagedHooksOnly`` and ``allowManagedModsOnly`` (mods can
    answer a tool call before plugin hooks run)."""
    _check_shape(old, file)
    new = copy.deepcopy(dict(old))
    actions: list[str] = []
    if commands is not None:
        entries = {
            e: {"type": "command", "command": commands[e], "timeout": timeout} for e in EVENTS
        }
    elif entries is None:
        entries = registration.entries("local", "warn", timeout=timeout)
    hooks = new.get("hooks")
    if hooks is None:
        hooks = new["hooks"] = {}
    for event in EVENTS:
        want = _our_group(event, entries[event])
        groups = hooks.get(event, [])
        if _is_exact(groups, want):
            continue
        stripped = _strip_ours(groups)
        verb = "replaced" if stripped != groups else "added"
        hooks[event] = [*stripped, want]
        actions.append(f"{verb} the {event} hook")
    if managed_only:
        if new.get(MANAGED_HOOKS_KEY) is not True:
            new[MANAGED_HOOKS_KEY] = True
            actions.append(f"set {MANAGED_HOOKS_KEY}")
        if not mods_managed_only(new):
            _set_mods_only(new, file)
            actions.append(f"set {MANAGED_MODS_KEY}")
    if not actions:
        new = copy.deepcopy(dict(old))  # identical, including a missing "hooks"
    return Change(dict(old), new, actions)


def without_hooks(
    old: Mapping[str, Any], file: str = "settings.json", *, managed_only: bool = False
) -> Change:
    """``old`` without our hooks; containers left empty by removing them disappear."""
    _check_shape(old, file)
    new = copy.deepcopy(dict(old))
    actions: list[str] = []
    hooks = new.get("hooks")
    if isinstance(hooks, dict):
        for event in EVENTS:
            groups = hooks.get(event)
            if not isinstance(groups, list):
                continue
            stripped = _strip_ours(groups)
            if stripped == groups:
                continue
            actions.append(f"removed the {event} hook")
            if stripped:
                hooks[event] = stripped
            else:
                del hooks[event]
        if actions and not hooks:
            del new["hooks"]
    if managed_only:
        if new.get(MANAGED_HOOKS_KEY) is True:
            del new[MANAGED_HOOKS_KEY]
            actions.append(f"removed {MANAGED_HOOKS_KEY}")
        if mods_managed_only(new):
            _drop_mods_only(new)
            actions.append(f"removed {MANAGED_MODS_KEY}")
    return Change(dict(old), new, actions)


def mods_managed_only(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` (managed settings) limits mods to the organization's."""
    configs = data.get("pluginConfigs")
    plugin = configs.get(POLICY_PLUGIN) if isinstance(configs, dict) else None
    options = plugin.get("options") if isinstance(plugin, dict) else None
    return isinstance(options, dict) and options.get(MANAGED_MODS_KEY) is True


def _set_mods_only(data: dict[str, Any], file: str) -> None:
    node: dict[str, Any] = data
    for key in ("pluginConfigs", POLICY_PLUGIN, "options"):
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise SettingsError(file, f'"{key}" is a JSON {type(child).__name__}, not an object')
        node = child
    node[MANAGED_MODS_KEY] = True


def _drop_mods_only(data: dict[str, Any]) -> None:
    """Remove the option and the containers it leaves empty."""
    configs = data["pluginConfigs"]
    options = configs[POLICY_PLUGIN]["options"]
    del options[MANAGED_MODS_KEY]
    if not options:
        del configs[POLICY_PLUGIN]["options"]
    if not configs[POLICY_PLUGIN]:
        del configs[POLICY_PLUGIN]
    if not configs:
        del data["pluginConfigs"]


def in_step(old: Mapping[str, Any], phase: str, file: str = "settings.json") -> Change:
    """``old`` with each of our entries brought in step with ``phase``: ``onFailure`` and the
    project launcher's fallback phase (``registration.in_step``). Nothing else changes."""
    _check_shape(old, file)
    new = copy.deepcopy(dict(old))
    actions: list[str] = []
    hooks = new.get("hooks")
    for event in EVENTS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            for i, hook in enumerate(group["hooks"]):
                if is_ours(hook) and isinstance(hook, dict):
                    stepped = registration.in_step(hook, phase, event)
                    if stepped != hook:
                        group["hooks"][i] = stepped
                        actions.append(f"{event} hook in step with phase {phase}")
    return Change(dict(old), new, actions)


def registered(data: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Our hook entries per event, as found in a parsed settings object."""
    out: dict[str, list[dict[str, Any]]] = {e: [] for e in EVENTS}
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in EVENTS:
        groups = hooks.get(event)
        for group in groups if isinstance(groups, list) else []:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                out[event].extend(h for h in group["hooks"] if is_ours(h))
    return out


_EXACT = re.compile(r"^[A-Za-z0-9_|,\-]*$")


def matcher_matches(matcher: object, tool: str) -> bool:
    """Claude Code's matcher rules: ``*``/empty/absent = all; plain names (``Edit|Write``) are
    exact; anything else is an unanchored regex."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    if _EXACT.match(matcher):
        return tool in re.split(r"[|,]", matcher)
    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return False


def foreign_write_hooks(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(matcher, command or type) of PreToolUse hooks that are not ours yet see Write/Edit."""
    out: list[tuple[str, str]] = []
    hooks = data.get("hooks")
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            continue
        matcher = group.get("matcher")
        if not (matcher_matches(matcher, "Write") or matcher_matches(matcher, "Edit")):
            continue
        for h in group["hooks"]:
            if isinstance(h, dict) and not is_ours(h):
                what = h.get("command") or h.get("url") or h.get("type") or "?"
                out.append((str(matcher if matcher is not None else "*"), str(what)))
    return out


def unified_diff(old_text: str, new_text: str, path: str) -> str:
    return "".join(
        difflib.unified_diff(
            old_text.splitlines(keepends=True),
            new_text.splitlines(keepends=True),
            fromfile=path if old_text else "/dev/null",
            tofile=path,
        )
    )
