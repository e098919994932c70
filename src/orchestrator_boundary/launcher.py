"""`<python> -I -S launcher.py EVENT [user]`: finds its package, runs hook_main (ADR 0023, 0039)."""

import os
import sys

if __name__ == "__main__":
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _root not in sys.path:
        sys.path.insert(0, _root)
    try:
        from orchestrator_boundary.hook_main import main
    except (EOFError, ValueError):  # a cached .pyc cut short: read the sources (ADR 0057)
        [sys.modules.pop(n) for n in list(sys.modules) if n.startswith("orchestrator_boundary")]
        sys.dont_write_bytecode, sys.pycache_prefix = True, os.devnull
        from orchestrator_boundary.hook_main import main
    except ImportError as _e:  # half installed (an upgrade under way): never exit 1 (ADR 0072)
        sys.stderr.write(f"orchestrator-boundary: cannot load the package ({_e}); reinstall it\n")
        _off = os.environ.get("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower() in ("off", "warn")
        sys.exit(2 if sys.argv[1:2] in (["PreToolUse"], ["PostToolUse"]) and not _off else 0)
    sys.exit(main(sys.argv))
