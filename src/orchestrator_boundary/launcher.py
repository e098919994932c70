"""The registered hook entry: ``"<python>" -I -S "<package>/launcher.py" EVENT [user]`` (ADR 0023).

Run by path, so Python compiles it on every call: it only puts its own installation first on
``sys.path`` and hands over to ``hook_main.main``, which comes from cached bytecode (ADR 0039).
"""

import os
import sys

if __name__ == "__main__":
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _root not in sys.path:
        sys.path.insert(0, _root)
    from orchestrator_boundary.hook_main import main

    sys.exit(main(sys.argv))
