"""orchestrator-boundary: Claude Code hooks that keep the main agent delegating.

Kept import-free on purpose: the hook entry path pays for every import (ADR 0009).
"""

__version__ = "0.1.0"
