"""`<python> -I -S launcher.py EVENT [user]`: finds its package, runs hook_main (ADR 0023, 0039)."""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        from orchestrator_boundary.hook_main import main
    except (EOFError, ValueError):  # a cached .pyc cut short: read the sources (ADR 0057)
        [sys.modules.pop(n) for n in list(sys.modules) if n.startswith("orchestrator_boundary")]
        sys.dont_write_bytecode, sys.pycache_prefix = True, os.devnull
        from orchestrator_boundary.hook_main import main
    except ImportError as _e:  # half installed (an upgrade under way): never exit 1 (ADR 0072)
        sys.stderr.write(f"orchestrator-boundary: cannot load the package ({_e}); reinstall it\n")
        _phase = os.environ.get("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower()
        _by = os.environ.get("AMPLIFIER_BYPASS_BOUNDARY", "").strip().lower()  # ADR 0079
        _open = _phase in ("off", "warn") or _by in ("1", "true", "yes", "on")
        sys.exit(2 if sys.argv[1:2] in (["PreToolUse"], ["PostToolUse"]) and not _open else 0)
    sys.exit(main(sys.argv))
