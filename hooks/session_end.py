#!/usr/bin/env python3
"""SessionEnd hook for Claude Code: thin entry, all decisions in orchestrator_boundary.

Register it as `"<python>" -I -S "<this file>"` (see client.hook_command). It imports only
os/sys here and the package's import-free client; the policy runs in the resident evaluator or,
when that is unavailable, in this process (ADR 0009).
"""

import os
import sys

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if os.path.isdir(os.path.join(_SRC, "orchestrator_boundary")):
    sys.path.insert(0, _SRC)
elif "site" not in sys.modules:  # -S outside a checkout: the package is installed
    import site

    site.main()

from orchestrator_boundary.client import run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run("SessionEnd"))
