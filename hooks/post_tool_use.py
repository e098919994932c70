#!/usr/bin/env python3
"""PostToolUse hook for Claude Code: thin entry, all decisions in orchestrator_boundary."""

import os
import sys

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if os.path.isdir(os.path.join(_SRC, "orchestrator_boundary")):
    sys.path.insert(0, _SRC)

from orchestrator_boundary.hook import post_tool_use_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(post_tool_use_main())
