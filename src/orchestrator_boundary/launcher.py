"""`<python> -I -S launcher.py EVENT [user]`: finds its package, runs hook_main (ADR 0023, 0039)."""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        from orchestrator_boundary.hook_main import main
    except Exception as _e:  # noqa: BLE001 - a cut .pyc, a broken install (ADRs 0057, 0072, 0084)
        try:  # never exit 1: rescue retries a cut .pyc from the sources, else answers by phase
            from orchestrator_boundary.rescue import rescued

            main = rescued(_e)  # type: ignore[assignment]
        except Exception:  # noqa: BLE001 - not even that: the phase variable and the bypass
            sys.stderr.write(f"orchestrator-boundary: cannot load the package ({_e}); reinstall\n")
            _ok = os.getenv("ORCHESTRATOR_BOUNDARY_PHASE", "").strip().lower() in ("off", "warn")
            _ok |= os.getenv("AMPLIFIER_BYPASS_BOUNDARY", "").lower() in ("1", "true", "yes", "on")
            sys.exit(2 if sys.argv[1:2] in (["PreToolUse"], ["PostToolUse"]) and not _ok else 0)
    sys.exit(main(sys.argv))
