"""What ``install`` registers: the hook entries, the project's committed launcher (``launch.sh``)
and the per-user pointer to this machine's installation. ADRs 0023 (team launcher), 0024
(``onFailure``). Pure: paths and platform come in as arguments; nothing here touches the disk.

Three forms of entry, by scope:
- project (committed, shared by the team): ``sh "${CLAUDE_PROJECT_DIR}/.claude/
  orchestrator-boundary/launch.sh" PreToolUse PHASE``. No path of the installer's machine; the
  shim finds each teammate's own installation, and without one blocks (enforce/ask) or tells
  the user once per session (warn). The phase rides along for that fallback; ``phase`` keeps it
  in step.
- local, user, managed on POSIX: ``"<python>" -I -S "<package>/launcher.py" PreToolUse``, the
  absolute interpreter that ran ``install``, quoted for ``sh``.
- the same on Windows: exec form (``command`` is the absolute ``python.exe``, ``args`` the rest),
  so no shell parses it: it runs the same whether Claude Code would pick Git Bash or PowerShell,
  and spaces need no quoting.

Five events are registered (ADR 0033): the tool events PreToolUse and PostToolUse (matcher
``*``), and the lifecycle events SubagentStop, Stop and SessionEnd (no matcher) that delegation
deliverables, the stop summary and state cleaning need (ADR 0027).

``"onFailure": "block"`` goes on the tool entries in enforce and ask, never in warn or off, and
never on a lifecycle entry: a failure there must not hold a stop (Claude Code ignores it there).
"""

from __future__ import annotations

import ntpath
import os
import posixpath
import re
import sys
from collections.abc import Mapping
from typing import Any

from orchestrator_boundary import hook_main, wire
from orchestrator_boundary.gone_guard import entry_argv as entry_argv
from orchestrator_boundary.gone_guard import exec_args as exec_args
from orchestrator_boundary.gone_guard import gone_guard
from orchestrator_boundary.gone_guard import sh_quote as sh_quote

TOOL_EVENTS = ("PreToolUse", "PostToolUse")
# A tool call that failed (a Bash command that exited non-zero, 2.1.330): it still changed
# files, so the field check compares it (ADR 0029); it is observed, never blocks.
OBSERVE_EVENTS = ("PostToolUseFailure",)
LIFECYCLE_EVENTS = ("SubagentStop", "Stop", "SessionEnd")
EVENTS = (*TOOL_EVENTS, *OBSERVE_EVENTS, *LIFECYCLE_EVENTS)
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
LAUNCHER_PY = os.path.join(PACKAGE_DIR, "launcher.py")
SHIM_DIR = ".claude/orchestrator-boundary"
SHIM_RELPATH = f"{SHIM_DIR}/launch.sh"
POINTER_RELPATH = "orchestrator-boundary/launcher"  # under the user's Claude folder
PYTHON_ENV = "ORCHESTRATOR_BOUNDARY_PYTHON"
BLOCKING_PHASES = frozenset({"enforce", "ask"})
PHASES = ("off", "warn", "ask", "enforce")
# Claude Code versions that understand what we write.
ON_FAILURE_SINCE = (2, 1, 295)
EXEC_FORM_SINCE = (2, 1, 139)
_SHIM_COMMAND = re.compile(
    r'^sh "\$\{CLAUDE_PROJECT_DIR\}/'
    + re.escape(SHIM_RELPATH)
    + r'" ('
    + "|".join(EVENTS)
    + r") (off|warn|ask|enforce)$"
)


def event_name(event: str) -> str:
    name = hook_main.EVENTS.get(event)
    if name is None:
        raise ValueError(f"unknown hook event {event!r}")
    return name


def on_failure(phase: str, event: str = "PreToolUse") -> str | None:
    """``"block"`` on a tool event in enforce and ask: a hook that cannot start, times out,
    crashes or prints invalid JSON then blocks the call (Claude Code 2.1.295+). None in warn
    and off, and always None on a lifecycle event (ADR 0033)."""
    return "block" if phase in BLOCKING_PHASES and event in TOOL_EVENTS else None


def matcher(event: str) -> str | None:
    """The matcher of our group: every tool for the tool events; none for lifecycle events,
    which have no tool to match."""
    return "*" if event in TOOL_EVENTS or event in OBSERVE_EVENTS else None


def shim_command(event: str, phase: str) -> str:
    """The committed project entry: runs the project's ``launch.sh`` through ``sh``.

    ``${CLAUDE_PROJECT_DIR}`` (with braces) is expanded by bash from the environment, and
    Claude Code rewrites it to ``${env:CLAUDE_PROJECT_DIR}`` when the command runs in
    PowerShell, so the same text reaches the shim in both of its Windows shells."""
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    return f'sh "${{CLAUDE_PROJECT_DIR}}/{SHIM_RELPATH}" {event_name(event)} {phase}'


def shim_phase(command: str) -> tuple[str, str] | None:
    """(event, phase) of a project entry written by ``shim_command``; None for other commands."""
    m = _SHIM_COMMAND.match(command)
    return (m.group(1), m.group(2)) if m else None


def is_windows(platform: str | None = None) -> bool:
    return (platform or sys.platform) == "win32"


def direct_entry(
    event: str,
    *,
    python: str | None = None,
    launcher_py: str | None = None,
    platform: str | None = None,
    user_trail: bool = False,
) -> dict[str, Any]:
    """A machine-local entry (local/user/managed scope) pinned to an absolute interpreter."""
    name = event_name(event)
    exe = python or sys.executable
    script = launcher_py or LAUNCHER_PY
    tail = [name, hook_main.USER_TRAIL] if user_trail else [name]
    if is_windows(platform):
        exe, script = windows_python(exe), ntpath.abspath(script) if _drive(script) else script
        return {"type": "command", "command": exe, "args": exec_args(script, tail)}
    exe = posixpath.abspath(exe)
    words = [sh_quote(exe), "-I", "-S", sh_quote(script), *tail]
    return {
        "type": "command",
        "command": f"{gone_guard(script, name, user_trail, exe)}exec {' '.join(words)}",
    }


def _drive(path: str) -> bool:
    return bool(ntpath.splitdrive(path)[0])


def windows_python(exe: str) -> str:
    """The absolute ``python.exe`` to register on Windows: never ``python3``/``python`` by name
    (the Microsoft Store stub answers those and exits 49) and never ``pythonw.exe``."""
    folder, base = ntpath.split(exe)
    if not _drive(exe) and not exe.startswith("\\\\"):
        raise ValueError(f"not an absolute Windows path: {exe!r}")
    low = base.lower()
    if low in ("python3.exe", "python3", "python", "pythonw.exe", "pythonw") or (
        low.startswith("python3.") and low.endswith(".exe")
    ):
        base = "python.exe"
    if "\\windowsapps\\" in exe.lower().replace("/", "\\"):
        raise ValueError(f"{exe} is the Microsoft Store stub, not an installation")
    return ntpath.join(folder, base)


def hook_entry(
    base: Mapping[str, Any], phase: str, timeout: int | float | None, event: str = "PreToolUse"
) -> dict[str, Any]:
    """``base`` with our timeout and the phase's ``onFailure`` (absent in warn and off, and on
    lifecycle events)."""
    entry = {k: v for k, v in base.items() if k != "onFailure"}
    if timeout is not None:
        entry["timeout"] = timeout
    block = on_failure(phase, event)
    if block:
        entry["onFailure"] = block
    return entry


def entries(
    scope: str,
    phase: str,
    *,
    python: str | None = None,
    launcher_py: str | None = None,
    platform: str | None = None,
    timeout: int = 10,
) -> dict[str, dict[str, Any]]:
    """Our hook entry per event for ``scope``."""
    out = {}
    for event in EVENTS:
        if scope == "project":
            base: dict[str, Any] = {"type": "command", "command": shim_command(event, phase)}
        else:
            base = direct_entry(
                event,
                python=python,
                launcher_py=launcher_py,
                platform=platform,
                user_trail=scope == "user",
            )
        out[event] = hook_entry(base, phase, timeout, event)
    return out


def in_step(entry: Mapping[str, Any], phase: str, event: str = "PreToolUse") -> dict[str, Any]:
    """One of our entries (registered for ``event``) brought in step with ``phase``:
    ``onFailure`` and, for the project shim, the fallback phase in its arguments. Other keys
    are kept."""
    new = {k: v for k, v in entry.items() if k != "onFailure"}
    command = entry.get("command")
    found = shim_phase(command) if isinstance(command, str) else None
    if found is not None:
        new["command"] = shim_command(found[0], phase)
    block = on_failure(phase, event)
    if block:
        new["onFailure"] = block
    return new


def pointer_text(python: str | None = None, launcher_py: str | None = None) -> str:
    """The per-user pointer the shim reads: the interpreter, then the launcher, one a line
    (forward slashes on Windows, which Git Bash and Python both accept)."""
    lines = [python or sys.executable, launcher_py or LAUNCHER_PY]
    if any(_drive(p) for p in lines):
        lines[0] = windows_python(lines[0])
        lines = [p.replace("\\", "/") for p in lines]
    return "".join(f"{p}\n" for p in lines)


def pointer_path(environ: Mapping[str, str]) -> str:
    return os.path.join(hook_main.claude_dir(dict(environ)), *POINTER_RELPATH.split("/"))


INSTALL_HINT = (
    "Install the orchestrator-boundary package on this machine (pip install it from where your "
    "team gets it, e.g. a clone: python3 -m pip install PATH-TO-CLONE; see its README), then "
    "run: orchestrator-boundary install, in this project. Or set "
    f"{PYTHON_ENV} to a Python that has it."
)


def shim_text() -> str:
    """The committed launcher, POSIX sh (Linux, macOS, Git Bash on Windows). ADR 0023."""
    return (
        SHIM_TEMPLATE.replace("@HINT@", INSTALL_HINT)
        .replace("@PYENV@", PYTHON_ENV)
        .replace("@BYPASS@", wire.BYPASS_ENV)
    )


SHIM_TEMPLATE = r"""#!/bin/sh
# orchestrator-boundary launcher. Written by `orchestrator-boundary install`; commit it.
# .claude/settings.json runs it as: sh ".../launch.sh" EVENT PHASE, EVENT one of PreToolUse,
# PostToolUse (tool calls), PostToolUseFailure (observed) and SubagentStop, Stop, SessionEnd
# (lifecycle; ADR 0033).
# It finds this machine's own installation and hands the call to it (ADR 0023), in this order:
#   1. $@PYENV@ (an interpreter that has the package),
#   2. the pointer your own `orchestrator-boundary install` wrote:
#      ${CLAUDE_CONFIG_DIR:-~/.claude}/orchestrator-boundary/launcher,
#   3. this project's .venv,
#   4. python3, then python, on PATH (never the Microsoft Store stub in WindowsApps),
#   5. py -3 (Windows).
# Each candidate must really have the package. With none, the phase decides (the variable
# ORCHESTRATOR_BOUNDARY_PHASE, else the config's phase line, else the PHASE argument): enforce
# and ask block every call and say how to install; warn lets calls through and tells you once
# per session; off does nothing. The bypass (@BYPASS@=1) lets calls through and says so.
# Only PreToolUse and PostToolUse can block: for every other event, without an installation or
# when the installation fails, the shim exits 0, so a stop is never held by a failure.
event=${1:-PreToolUse}
phase=${ORCHESTRATOR_BOUNDARY_PHASE:-${2:-enforce}}
nl='
'

run() {
  case $event in
    PreToolUse | PostToolUse) exec "$1" -I -S "$2" "$event" ;;
  esac
  "$1" -I -S "$2" "$event"
  exit 0
}

probe() {
  out=$("$@" -I -c 'import sys, orchestrator_boundary.launcher as m
print(sys.executable)
print(m.__file__)' </dev/null 2>/dev/null) || return 1
  cr=$(printf '\r')
  exe=${out%%"$nl"*}
  exe=${exe%"$cr"}
  script=${out#*"$nl"}
  script=${script%%"$nl"*}
  script=${script%"$cr"}
  if [ -n "$exe" ] && [ -f "$script" ]; then run "$exe" "$script"; fi
  return 1
}

if [ -n "${@PYENV@:-}" ]; then probe "$@PYENV@"; fi

case ${OS:-} in Windows_NT) home=${USERPROFILE:-${HOME:-.}} ;; *) home=${HOME:-.} ;; esac # ADR 0072
claude=${CLAUDE_CONFIG_DIR:-$home/.claude} # where install put the pointer: Claude Code's ~
pointer="$claude/orchestrator-boundary/launcher"
if [ -f "$pointer" ]; then
  { IFS= read -r exe; IFS= read -r script; } <"$pointer"
  if ! [ -x "$exe" ] || ! [ -f "$script" ]; then # lines ended by CR LF (written on Windows)
    cr=$(printf '\r') # only here: a command substitution costs a process
    exe=${exe%"$cr"}
    script=${script%"$cr"}
  fi
  if [ -n "$exe" ] && [ -x "$exe" ] && [ -f "$script" ]; then run "$exe" "$script"; fi
fi

root=${CLAUDE_PROJECT_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for py in "$root/.venv/bin/python" "$root/.venv/Scripts/python.exe"; do
  if [ -f "$py" ]; then probe "$py"; fi
done
for name in python3 python; do
  py=$(command -v "$name" 2>/dev/null) || continue
  case $py in
    *WindowsApps*) continue ;;
  esac
  probe "$py"
done
if command -v py >/dev/null 2>&1; then probe py -3; fi

# No installation found on this machine.
payload=$(cat)
missing="orchestrator-boundary is not installed on this machine"
hint='@HINT@'
if [ -z "${ORCHESTRATOR_BOUNDARY_PHASE:-}" ]; then # the committed config's phase wins (ADR 0058)
  cfg=${ORCHESTRATOR_BOUNDARY_CONFIG:-${0%/*}/../boundary.toml}
  case $cfg in /* | [A-Za-z]:* | "${0%/*}"/*) ;; *) cfg="$root/$cfg" ;; esac
  said=$(tr '\t' ' ' 2>/dev/null <"$cfg" | sed -n '/^ *\[/q; s/^ *phase *= *.\([A-Za-z]*\).*/\1/p')
  phase=${said:-$phase}
fi
phase=$(printf '%s' "$phase" | tr 'A-Z' 'a-z')
named=$phase # the phase, for the record, before the bypass below takes its place
case $(printf '%s' "${@BYPASS@:-}" | tr 'A-Z' 'a-z' | tr -d ' \t') in
  1 | true | yes | on) phase=bypass ;; # the emergency switch, as the package reads it
esac

# The call's record, beside the trail (the [audit] path of the config, else the default) for
# `report` and the next writer, as the package leaves one when it cannot load (ADR 0079).
record() {
  case $event in PreToolUse | PostToolUse) ;; *) return 0 ;; esac
  trail=$(sed -n '/^ *\[audit\]/,/^ *\[/s/^ *path *= *["'"'"']\([^"'"'"']*\).*/\1/p' \
    "${cfg:-$root/.claude/boundary.toml}" 2>/dev/null)
  case ${trail:=.claude/boundary/audit.jsonl} in /*) ;; *) trail="$root/$trail" ;; esac
  dir=${trail%/*}
  mkdir -p "$dir" 2>/dev/null || return 0
  name="$dir/.${trail##*/}-partial-$(printf '%011d000000000-%s' "$(date -u +%s)" "$$")"
  printf '{"ts": "%s", "event": "%s", "session_id": "%s", "tool_name": "%s", ' \
    "$(date -u +%Y-%m-%dT%H:%M:%S.000000+00:00)" "$event" "$(word session_id)" \
    "$(word tool_name)" >"$name" 2>/dev/null || return 0
  printf '"tool_use_id": "%s", "decision": "%s", "would_deny": null, "phase": "%s", ' \
    "$(word tool_use_id)" "$1" "$(printf '%s' "$named" | tr -cd 'a-z')" >>"$name"
  printf '"bypassed": %s, "error": "not installed: %s", "unjudged": true}\n' "$2" "$missing" \
    >>"$name" && mv "$name" "$(printf '%s' "$name" | sed 's/-partial-\([^/]*\)$/-spool-\1/')"
  return 0
}
word() { # a string field of the payload, as long as it is a plain word
  printf '%s' "$payload" | sed -n "s/^[^{]*{.*\"$1\" *: *\"\([A-Za-z0-9_.:-]*\)\".*/\1/p" |
    cut -c1-200
}
case $phase in
  off) exit 0 ;;
  bypass)
    record none true
    [ "$event" = PreToolUse ] || exit 0
    printf '{"systemMessage": "%s: %s is set, so this call goes through unguarded. %s"}\n' \
      "$missing" "@BYPASS@" "$hint"
    exit 0
    ;;
  warn)
    record none false
    [ "$event" = PreToolUse ] || exit 0
    sid=${CLAUDE_CODE_SESSION_ID:-}
    if [ -z "$sid" ]; then
      sid=$(printf '%s' "$payload" | sed -n 's/^[^{]*{[^}]*"session_id" *: *"\([^"]*\)".*/\1/p')
    fi
    sid=$(printf '%s' "${sid:-unknown}" | tr -c 'A-Za-z0-9_-' '_')
    told="$claude/orchestrator-boundary/told"
    mkdir -p "$told" 2>/dev/null
    if mkdir "$told/$sid" 2>/dev/null; then
      printf '{"systemMessage": "%s: this project is in warn, so tool calls go through %s. %s"}\n' \
        "$missing" "unguarded and unrecorded by the boundary (report counts them)" "$hint"
    fi
    exit 0
    ;;
  *)
    [ "$event" = PreToolUse ] || exit 0
    record deny false
    printf 'orchestrator-boundary: this project is guarded (phase %s), but %s, so %s. %s\n' \
      "$phase" "$missing" "this call is blocked" "$hint" >&2
    exit 2
    ;;
esac
"""
