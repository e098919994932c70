"""Will Claude Code send its own changed-file list (``bashEditDiff``) with a Bash call's
PostToolUse? ADR 0029. Shell side: it reads the environment and the settings files.

Seen on 2.1.330: the list comes only in a git repository, and only when
``CLAUDE_CODE_BASH_EDIT_DIFF`` is set, or the managed or user setting ``bashEditDiffEnabled``
is true, or the session runs in bypassPermissions mode without that setting false. Project
settings cannot turn it on. A wrong guess costs little: a snapshot taken for nothing, or one
call with nothing to compare (the audit line says so).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping

from orchestrator_boundary import wire
from orchestrator_boundary.payload import HookPayload

EDIT_DIFF_ENV = "CLAUDE_CODE_BASH_EDIT_DIFF"
MAX_SETTINGS_BYTES = 1024 * 1024
_TRUTHY = frozenset({"1", "true", "yes", "on"})


def diff_expected(payload: HookPayload, root: str, environ: Mapping[str, str]) -> bool:
    """Will Claude Code (2.1.330) send ``bashEditDiff`` with this call's PostToolUse?"""
    if payload.tool_name != "Bash":
        return False
    if environ.get(EDIT_DIFF_ENV, "").strip().lower() in _TRUTHY:
        on = True
    else:
        setting = _setting(environ)
        on = setting if setting is not None else payload.permission_mode == "bypassPermissions"
    return on and in_git_repository(root)


def _setting(environ: Mapping[str, str]) -> bool | None:
    """``bashEditDiffEnabled`` from the managed settings, else the user's; None when unset
    (project settings cannot turn it on)."""
    home = wire.user_home(environ) or os.path.expanduser("~")
    user = environ.get(wire.CLAUDE_CONFIG_DIR_ENV) or os.path.join(home, ".claude")
    for path in (
        wire.MANAGED_SETTINGS_PATHS.get(sys.platform, ""),
        os.path.join(user, "settings.json"),
    ):
        value = _read_setting(path) if path else None
        if value is not None:
            return value
    return None


def _read_setting(path: str) -> bool | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SETTINGS_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_SETTINGS_BYTES else None
    except (OSError, ValueError):
        return None
    value = data.get("bashEditDiffEnabled") if isinstance(data, dict) else None
    return value if isinstance(value, bool) else None


def in_git_repository(root: str) -> bool:
    """Is ``root`` inside a git working tree (a ``.git`` folder or file here or above)?"""
    folder = root
    for _ in range(64):
        if os.path.exists(os.path.join(folder, ".git")):  # noqa: TID251
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return False
