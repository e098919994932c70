#!/usr/bin/env python3
"""Claude Code hook entry of a checkout and of the plugin: ``python3 -I -S hooks/hook.py EVENT``,
EVENT one of PreToolUse, PostToolUse, SubagentStop, Stop, SessionEnd (``hooks.json`` passes it).

It only finds the package (this checkout's ``src/``, else the installed one through ``site``)
and hands over to ``orchestrator_boundary.hook_main``, as the entry ``install`` registers: the same
events, the same answer to a misregistered command, the same import-free client (ADRs 0009,
0033). The policy runs in the resident evaluator or, when that is unavailable, in this process.
"""

import os
import sys

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if os.path.isdir(os.path.join(_SRC, "orchestrator_boundary")):
    sys.path.insert(0, _SRC)
elif "site" not in sys.modules:  # -S outside a checkout: the package is installed
    import site

    site.main()

TOOL_EVENTS = ("PreToolUse", "PostToolUse")


def without_package(exc: Exception) -> int:
    """``python3`` without the package: one line, and exit 2 for a tool call (unless
    ORCHESTRATOR_BOUNDARY_PHASE says off or warn, or AMPLIFIER_BYPASS_BOUNDARY is set), as
    ``client.cannot_load`` answers. A traceback exits 1, which only ``onFailure`` (Claude Code
    2.1.295+) turns into a block: an older CLI let every call through, unguarded and
    unrecorded (ADRs 0072, 0079)."""
    sys.stderr.write(
        f"orchestrator-boundary: {sys.executable} cannot import the package ({exc}). Make "
        "python3 on PATH a Python 3.11+ that has it (pip install orchestrator-boundary).\n"
    )
    event = sys.argv[1] if len(sys.argv) > 1 else ""
    phase = os.environ.get("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower()
    # the emergency bypass lets the call through, as the launcher's answer without an
    # installation does: what would tell TAMPER apart is what is missing (ADR 0079)
    bypass = os.environ.get("AMPLIFIER_BYPASS_BOUNDARY", "").strip().lower()
    opened = phase in ("off", "warn") or bypass in ("1", "true", "yes", "on")
    return 2 if event in TOOL_EVENTS and not opened else 0


try:
    from orchestrator_boundary.hook_main import main
except Exception as _exc:  # missing, or present but broken: never exit 1 (ADR 0084)
    if __name__ != "__main__":
        raise
    try:  # a package that is there but cannot run its client (ADR 0084): the config's phase,
        from orchestrator_boundary.rescue import rescued  # and the call's record

        main = rescued(_exc)  # type: ignore[assignment]
    except Exception:  # noqa: BLE001 - no package at all
        sys.exit(without_package(_exc))

if __name__ == "__main__":
    sys.exit(main(sys.argv))
