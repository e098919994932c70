"""``python -m orchestrator_boundary``: the same command line as ``orchestrator-boundary``."""

import sys

from orchestrator_boundary.cli import main

sys.exit(main())
