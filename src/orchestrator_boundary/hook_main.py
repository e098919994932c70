"""What the registered hook entry does: its arguments, the per-user trail, then the client.

ADR 0023. ``launcher.py`` (the script every registered command runs by path, ``"<python>" -I -S
"<package>/launcher.py" EVENT [user]``) only finds this package and calls ``main``: a script run
by path is compiled on every call, a module comes from its cached bytecode (ADR 0039).

``user`` (written by ``install --scope user``) keeps the audit trail out of the repository: the
hook's environment then names a per-project trail under the user's Claude folder,
``<claude dir>/orchestrator-boundary/projects/<slug>/audit.jsonl``, unless it names one already.
The slug is one project's alone (ADR 0057).
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


SLUG_READABLE_MAX = 80  # characters of the path kept readable; a folder name holds 255 bytes
PROJECTS_RELPATH = ("orchestrator-boundary", "projects")
USER_PROJECTS_RELPATH = ("orchestrator-boundary", "user-projects")  # user_scope.LIST_RELPATH


def legacy_slug(root: str) -> str:
    """The slug before ADR 0057: every character but ASCII letters and digits becomes ``-``
    (as Claude Code names its own per-project folders). Lossy: ``my-app`` and ``my_app`` share
    it, so two projects shared one trail."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in root)


def project_slug(root: str) -> str:
    """A folder name for the project at ``root``, one project's alone (ADR 0057): the end of
    ``legacy_slug`` to read, then 16 hex digits of the SHA-256 of the exact path (case-folded
    where the file system folds case, Windows), so roots that read alike never share it."""
    from orchestrator_boundary.digests import sha256

    exact = os.path.normcase(root).encode("utf-8", "surrogatepass")
    return f"{legacy_slug(root)[-SLUG_READABLE_MAX:]}-{sha256(exact).hexdigest()[:16]}"


def claude_dir(environ: "dict[str, str] | os._Environ[str]") -> str:
    """The user's Claude folder: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    explicit = environ.get("CLAUDE_CONFIG_DIR")
    if explicit:
        return explicit
    home = wire.user_home(environ) or os.path.expanduser("~")
    return os.path.join(home, ".claude")


def user_trail(root: str, environ: "dict[str, str] | os._Environ[str]") -> str:
    """Where a user-scope install keeps the trail of the project at ``root`` (made absolute:
    ``/p/`` and ``/p/src/..`` are ``/p``). A trail kept under the project's legacy slug is
    taken over the first time, unless another known project shares that slug (ADR 0057)."""
    root = os.path.abspath(root)
    base = os.path.join(claude_dir(environ), *PROJECTS_RELPATH)
    folder = os.path.join(base, project_slug(root))
    if not os.path.isdir(folder):
        _adopt_legacy(base, root, folder, environ)
    return os.path.join(folder, "audit.jsonl")


def _adopt_legacy(
    base: str, root: str, folder: str, environ: "dict[str, str] | os._Environ[str]"
) -> None:
    """Rename the legacy folder of ``root`` to ``folder`` when it is ``root``'s alone: no
    other project in the user-scope list has the same legacy slug. A shared one is left in
    place (its lines cannot be told apart); a lost race with another hook changes nothing."""
    slug = legacy_slug(root)
    legacy = os.path.join(base, slug)
    if not os.path.isdir(legacy):
        return
    try:
        with open(os.path.join(claude_dir(environ), *USER_PROJECTS_RELPATH), "rb") as listed:
            others = [os.fsdecode(line.rstrip(b"\r\n")) for line in listed]
    except OSError:
        others = []
    for other in others:
        if other and os.path.abspath(other) != root and legacy_slug(os.path.abspath(other)) == slug:
            return
    try:  # noqa: SIM105 - contextlib is not loaded on the hook path
        os.rename(legacy, folder)
    except OSError:
        pass


def prepare(argv: "list[str]", environ: "dict[str, str] | os._Environ[str]") -> "str | None":
    """The event to judge (None for a misregistered command); for ``user``, the per-project
    trail under the user's Claude folder is set in ``environ`` unless one is set already."""
    event = EVENTS.get(argv[1]) if len(argv) > 1 else None
    extra = argv[2:]
    if event is None or extra not in ([], [USER_TRAIL]):
        return None
    if extra and not environ.get(AUDIT_ENV):
        try:
            root = environ.get(wire.PROJECT_DIR_ENV) or os.getcwd()
            home = wire.user_home(environ)
            root = wire.configured_above(os.path.abspath(root), home) or root  # ADR 0054
            environ[AUDIT_ENV] = user_trail(root, environ)
        except (OSError, ValueError):  # no folder to name (the working folder is gone): the
            pass  # call is judged all the same, never a crash (exit 1 lets it through)
    return event


MIN_PYTHON = (3, 11)  # pyproject's requires-python


def too_old(event: "str | None") -> int:
    """The answer of an interpreter older than ``MIN_PYTHON`` (the plugin runs ``python3``
    from PATH, on macOS often 3.9): one plain line, not a traceback. It answers as
    ``client.cannot_load`` does: exit 2 for a tool call unless the phase (the variable, else
    the config's line) is off or warn or the bypass is set (a stop is never held), with the
    call's record beside the trail. Before, 3.7 exited 1 and the call went through; 3.8 to
    3.10 blocked with an error about ``enum.StrEnum``. ADRs 0063, 0079."""
    if sys.stderr is not None:
        need = ".".join(map(str, MIN_PYTHON))
        sys.stderr.write(
            f"orchestrator-boundary needs Python {need} or newer, but this hook runs Python "
            f"{sys.version.split()[0]} ({sys.executable}). Install Python {need} or newer with "
            "the package, then run: orchestrator-boundary install (for the plugin, make it the "
            "python3 on PATH).\n"
        )
    if event is None:
        return 2  # a misregistered command blocks, as it does on a current Python
    # as cannot_load answers (ADR 0079): the config's phase line too, the bypass, a record
    phase = os.environ.get(wire.PHASE_ENV, "").strip().lower() or wire.config_phase(os.environ)
    bypassed = wire.bypass_set(os.environ)
    blocks = event in wire.TOOL_EVENTS and not bypassed and phase not in ("off", "warn")
    try:
        from orchestrator_boundary import peer

        error = f"cannot load the policy: Python {sys.version.split()[0]} is too old"
        rec = peer.unjudged_record(b"", event, error, phase, 2 if blocks else 0, bypassed)
        note = peer.spool_unjudged(os.environ, rec)
    except Exception as exc:  # noqa: BLE001 - the answer stands without its record
        note = f"orchestrator-boundary: no record of this call ({exc})\n"
    if note and sys.stderr is not None:
        sys.stderr.write(note)
    return 2 if blocks else 0


def main(argv: "list[str]") -> int:
    if sys.version_info < MIN_PYTHON:
        return too_old(EVENTS.get(argv[1]) if len(argv) > 1 else None)
    try:  # what the client needs before its own guards: a module of it may not load (ADR 0084)
        if sys.pycache_prefix == os.devnull:  # the launcher met a cut .pyc: remove it
            from orchestrator_boundary.peer import drop_cut_bytecode

            drop_cut_bytecode()
        event = prepare(argv, os.environ)
        from orchestrator_boundary.client import run
    except Exception as exc:  # noqa: BLE001 - never exit 1: answered as rescue answers
        return unloaded(argv, exc)
    if event is None:
        if sys.stderr is not None:  # None when the hook's stderr was closed
            sys.stderr.write(
                "usage: launcher.py PreToolUse|PostToolUse|PostToolUseFailure|SubagentStop|Stop"
                "|SessionEnd [user]\n"
            )
        return 2  # a misregistered hook blocks rather than failing open
    try:
        return run(event, leave_fast=True)
    except Exception as exc:  # noqa: BLE001 - past the client's guards: files of two versions
        return unloaded(argv, exc)  # mid-upgrade (a name one uses, the other lacks)


def unloaded(argv: "list[str]", exc: Exception) -> int:
    """The answer when a module the client needs (``client``, ``peer``, ``digests``) cannot
    load: ``rescue``'s (the config's phase, the bypass, the call's record), else the phase and
    the bypass as ``wire`` reads them, with one line."""
    try:
        from orchestrator_boundary.rescue import answer

        return answer(argv, exc, os.environ)
    except Exception:  # noqa: BLE001 - not even that
        if sys.stderr is not None:
            sys.stderr.write(f"orchestrator-boundary: cannot load the package ({exc})\n")
        phase = os.environ.get(wire.PHASE_ENV, "").strip().lower() or wire.config_phase(os.environ)
        opened = phase in ("off", "warn") or wire.bypass_set(os.environ)
        return 2 if argv[1:2] in (["PreToolUse"], ["PostToolUse"]) and not opened else 0
