"""A folder ``mkdir`` made holds no lease on the files in it (ADR 0074).

Round ten (ADR 0073) made a lease of a folder hold the files in it, for ``cp -r x/. src/b``.
But the PostToolUse of ``mkdir -p src/auth`` recorded a lease on ``src/auth`` as well, so in
README's two-subagent example (each makes the folder, then writes its own file) the second
subagent's Edit of its own file was FILE_LEASED to the first: the real-CLI test
``test_a_well_behaved_parallel_delegation_is_never_refused[enforce]`` caught it. A command
that overwrites nothing (``mkdir``, git's own ``.git``) takes no lease after it either.
"""

from __future__ import annotations

from pathlib import Path

from test_contracts_attack_r10 import Team


def test_mkdir_beside_another_agents_file_leases_nothing(project: Path) -> None:
    team = Team(project, leases="enforce")
    team.launch("a1", "Fix the login.\nIntent: auth")
    team.launch("a2", "Fix the forms.\nIntent: auth")
    assert team.bash("a2", "mkdir -p src/auth") == "-"
    edit = {"file_path": str(project / "src/auth/login.py"), "old_string": "v1", "new_string": "v2"}
    assert team.call("a1", "Read", {"file_path": edit["file_path"]}) == "-"
    assert team.call("a1", "Edit", edit) == "-"


def test_a_folder_copy_still_leases_the_files_in_it(project: Path) -> None:
    team = Team(project, leases="enforce")
    team.launch("a1", "Fix the login.\nScope: src/**")
    team.launch("a2", "Copy the fixtures in.\nScope: src/**")
    assert team.bash("a2", "cp -r fixtures/. src/auth") == "-"
    edit = {"file_path": str(project / "src/auth/login.py"), "old_string": "v1", "new_string": "v2"}
    assert team.call("a1", "Edit", edit) == "FILE_LEASED"
