"""The registered hook entry: ``"<python>" -I -S "<package>/launcher.py" EVENT [user]`` (ADR 0023).
Compiled on every call, so it only finds its package and hands over to ``hook_main.main`` (ADR
0039); a cached ``.pyc`` cut short by a full disk is passed over for the sources (ADR 0057)."""

import os
import sys

if __name__ == "__main__":
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _root not in sys.path:
        sys.path.insert(0, _root)
    try:
        from orchestrator_boundary.hook_main import main
    except (EOFError, ValueError):  # a cached .pyc cut short: read the sources (ADR 0057)
        for _name in [n for n in sys.modules if n.startswith("orchestrator_boundary")]:
            del sys.modules[_name]
        sys.dont_write_bytecode, sys.pycache_prefix = True, os.devnull
        from orchestrator_boundary.hook_main import main
    except ImportError as _exc:  # the package half there (an upgrade under way): never exit 1
        sys.stderr.write(f"orchestrator-boundary: cannot load the package ({_exc}); reinstall it\n")
        _phase = os.environ.get("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower()
        _tool = sys.argv[1:2] in (["PreToolUse"], ["PostToolUse"], ["pre"], ["post"])
        sys.exit(2 if _tool and _phase not in ("off", "warn") else 0)  # as cannot_load, ADR 0072
    sys.exit(main(sys.argv))
