"""What the registered hook entry does: its arguments, the per-user trail, then the client.

ADR 0023. ``launcher.py`` (the script every registered command runs by path, ``"<python>" -I -S
"<package>/launcher.py" EVENT [user]``) only finds this package and calls ``main``: a script run
by path is compiled on every call, a module comes from its cached bytecode (ADR 0039).

``user`` (written by ``install --scope user``) keeps the audit trail out of the repository: the
hook's environment then names a per-project trail under the user's Claude folder,
``<claude dir>/orchestrator-boundary/projects/<slug>/audit.jsonl``, unless it names one already.
"""

import os
import sys

from orchestrator_boundary import wire

EVENTS = {
    "pre": "PreToolUse",
    "post": "PostToolUse",
    "PreToolUse": "PreToolUse",
    "PostToolUse": "PostToolUse",
    # a failed tool call, observed for the field check (ADR 0029); never blocks
    "PostToolUseFailure": "PostToolUseFailure",
    # lifecycle events: delegation deliverables, the stop summary, state cleaning (ADR 0033)
    "SubagentStop": "SubagentStop",
    "Stop": "Stop",
    "SessionEnd": "SessionEnd",
}
AUDIT_ENV = wire.AUDIT_ENV
USER_TRAIL = "user"


def project_slug(root: str) -> str:
    """A folder name for a project: every character but ASCII letters and digits becomes ``-``
    (as Claude Code names its own per-project folders)."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in root)


def claude_dir(environ: "dict[str, str] | os._Environ[str]") -> str:
    """The user's Claude folder: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    explicit = environ.get("CLAUDE_CONFIG_DIR")
    if explicit:
        return explicit
    home = environ.get("HOME") or environ.get("USERPROFILE") or os.path.expanduser("~")
    return os.path.join(home, ".claude")


def user_trail(root: str, environ: "dict[str, str] | os._Environ[str]") -> str:
    """Where a user-scope install keeps the trail of the project at ``root``."""
    return os.path.join(
        claude_dir(environ), "orchestrator-boundary", "projects", project_slug(root), "audit.jsonl"
    )


def prepare(argv: "list[str]", environ: "dict[str, str] | os._Environ[str]") -> "str | None":
    """The event to judge (None for a misregistered command); for ``user``, the per-project
    trail under the user's Claude folder is set in ``environ`` unless one is set already."""
    event = EVENTS.get(argv[1]) if len(argv) > 1 else None
    extra = argv[2:]
    if event is None or extra not in ([], [USER_TRAIL]):
        return None
    if extra and not environ.get(AUDIT_ENV):
        root = environ.get(wire.PROJECT_DIR_ENV) or os.getcwd()
        home = environ.get(wire.HOME_ENV) or environ.get(wire.USERPROFILE_ENV)
        root = wire.configured_above(os.path.abspath(root), home) or root  # ADR 0054
        environ[AUDIT_ENV] = user_trail(root, environ)
    return event


def main(argv: "list[str]") -> int:
    event = prepare(argv, os.environ)
    if event is None:
        sys.stderr.write(
            "usage: launcher.py PreToolUse|PostToolUse|PostToolUseFailure|SubagentStop|Stop"
            "|SessionEnd [user]\n"
        )
        return 2  # a misregistered hook blocks rather than failing open
    from orchestrator_boundary.client import run

    return run(event, leave_fast=True)
