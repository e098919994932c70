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

from orchestrator_boundary.hook_main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv))
