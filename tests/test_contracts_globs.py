"""A glob inside a delegation's scope goes through (ADR 0074).

Round ten (ADR 0073) made a subagent's write at a place the text does not fix
DELEGATION_SCOPE under a narrowing delegation: right for ``cp a "src/$N"`` and
``patch -p0``, but ``sed -i ... src/auth/*.py`` under ``Intent: auth`` was refused too, an
everyday command. Bash's ``*`` does not cross a ``/`` (and globstar's ``**`` stays below the
folder), so every match of a glob whose folder the text fixes lies below that folder: when
each of the delegation's pattern sets holds everything below it (an inclusion ``G/**`` with
``G`` the folder or above, and no exclusion), the write is inside. Anything less certain is
refused as before. Each glob row's matches were checked in bash (``reality``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reality
from test_contracts_attack_r10 import Team

INSIDE = [
    "sed -i s/v1/v2/ src/auth/*.py",
    "rm -f src/auth/*.py",
    "sed -i s/v1/v2/ ./src/auth/log*.py",
    "cp src/auth/login.py tests/auth/ && sed -i s/v1/v2/ tests/auth/*.py",
    "cd src && sed -i s/v1/v2/ auth/*.py",  # the analysis follows the cd (ADR 0076)
]
REFUSED = [
    "sed -i s/v1/v2/ src/billing/*.py",  # outside
    "sed -i s/v1/v2/ src/*/*.py",  # the folder is a glob too
    'cd "$D" && sed -i s/v1/v2/ auth/*.py',  # a cd the analysis cannot follow
    "sed -i s/v1/v2/ src/auth/../billing/*.py",  # `..`
    'sed -i s/v1/v2/ "$D"/*.py',  # a variable
    "sed -i s/v1/v2/ src/*",  # src/ is not held
]


@pytest.mark.parametrize("command", INSIDE)
def test_a_glob_inside_the_scope_goes_through(project: Path, command: str) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "-"


@pytest.mark.parametrize("command", REFUSED)
def test_a_glob_that_may_reach_outside_is_refused(project: Path, command: str) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


def test_a_scope_with_an_exclusion_does_not_hold_a_glob(project: Path) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nScope: src/auth/**, !src/auth/forms.py")
    assert team.bash("a1", "sed -i s/v1/v2/ src/auth/*.py") == "DELEGATION_SCOPE"
    assert team.bash("a1", "sed -i s/v1/v2/ src/auth/login.py") == "-"


def test_a_glob_matches_only_below_its_folder() -> None:
    """Reality: `*` does not cross `/`; globstar's `**` matches below the folder only."""
    files = (("src/auth/a.py", "v1\n"), ("src/auth/deep/b.py", "v1\n"), ("src/c.py", "v1\n"))
    seed = reality.Seed(files=files)
    outcome = reality.run("sed -i s/v1/v2/ src/auth/*.py", seed)
    assert outcome.paths == frozenset({"src/auth/a.py"}), outcome.describe()
    outcome = reality.run("shopt -s globstar; touch src/auth/**", seed)
    assert outcome.paths == frozenset({"src/auth/a.py", "src/auth/deep/b.py"}), outcome.describe()
