"""The ``windows_sim`` fixture: this process runs as if on Windows for one test.

See tests/windows_sim.py for what is simulated and how it differs from real Windows. The
package (``orchestrator_boundary``) is imported afresh under the simulation: import it inside
the test, after the fixture is set up. Its dependencies are imported before (with Linux rules),
and everything imported during the test is forgotten afterwards, so other tests see the package
as it was.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from windows_sim import Simulation


@pytest.fixture
def windows_sim() -> Iterator[Simulation]:
    """Windows without Windows paths (``os.path`` stays ``posixpath``; see the docstring of
    tests/windows_sim.py): no fcntl, no AF_UNIX, an msvcrt stand-in, ``os.name == "nt"``."""

    with Simulation() as sim:
        yield sim
