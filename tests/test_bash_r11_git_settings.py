"""Round eleven (ADR 0077): `git config` writing a key git runs later, and GNU tar's remote
archives. A subagent that plants ``core.fsmonitor 'cp f .claude/settings.json'`` had only
written ``.git/config``; the next ``git status`` (read-only, by anyone) ran it."""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

from orchestrator_boundary.bash import Status, analyze

SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
WIDE = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'
SETTINGS = ".claude/settings.json"

PLANTED = [
    ("fsmonitor", f"git config core.fsmonitor 'cp f {SETTINGS}'"),
    ("set-fsmonitor", f"git config set core.fsmonitor 'cp f {SETTINGS}'"),
    ("add-pager", f"git config --add core.pager 'cp f {SETTINGS}'"),
    ("replace-all-textconv", f"git config --replace-all diff.t.textconv 'tee {SETTINGS}'"),
    ("filter-clean", f"git config filter.x.clean 'tee {SETTINGS}'"),
    ("alias-bang", f"git config alias.st '!cp f {SETTINGS}'"),
    ("uppercase-key", f"git config Core.FSMonitor 'cp f {SETTINGS}'"),
    ("diff-external", f"git config diff.external 'cp f {SETTINGS}'"),
    ("global-pager", f"git config --global core.pager 'cp f {SETTINGS}'"),
]


@pytest.mark.parametrize("command", [p[1] for p in PLANTED], ids=[p[0] for p in PLANTED])
def test_a_planted_program_that_writes_the_settings_is_tamper(tmp_path: Path, command: str) -> None:
    assert bash_violation(tmp_path, WIDE, command, **SUBAGENT) == "TAMPER"


# (id, command, the code for a subagent whose scope holds .git: TAMPER where the key itself
# makes git run code, ADR 0078's rule for the code git runs)
UNSEEN = [
    ("rename-into-core", "git config --rename-section user core", "SCOPE_VIOLATION"),
    ("rename-into-log", "git config rename-section user log", "SCOPE_VIOLATION"),
    ("include", "git config include.path ../c.cfg", "TAMPER"),
    ("include-if", "git config includeIf.gitdir:/.path ../c.cfg", "TAMPER"),
    ("expansion", 'git config core.fsmonitor "$HOOK"', "TAMPER"),
    ("key-expansion", 'git config "$K" x', "SCOPE_VIOLATION"),
]


@pytest.mark.parametrize(("command", "code"), [u[1:] for u in UNSEEN], ids=[u[0] for u in UNSEEN])
def test_a_setting_whose_program_the_text_does_not_show_is_an_unplaced_write(
    tmp_path: Path, command: str, code: str
) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status in (Status.WRITES, Status.OPAQUE), result  # "$K" may be an option
    assert {e.resolved for e in result.effects} == {"/p/.git/config", None}, result
    scoped = 'phase = "enforce"\n[agents.coder]\nwrite_scope = [".git/**", "src/**"]\n'
    assert bash_violation(tmp_path, scoped, command, **SUBAGENT) == code


HARMLESS = [
    ("user-name", "git config user.name 'A B'"),
    ("rename-into-user", "git config --rename-section core user"),
    ("unset", "git config --unset core.fsmonitor"),
    ("get", "git config --get core.fsmonitor"),
    ("unknown-key", "git config new.thing 'x y'"),
    ("editor", "git config --global core.editor vim"),
]


@pytest.mark.parametrize("command", [h[1] for h in HARMLESS], ids=[h[0] for h in HARMLESS])
def test_settings_that_run_nothing_stay_plain(command: str) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status in (Status.WRITES, Status.READ_ONLY), result


def test_a_subagent_setting_a_harmless_key_is_not_stopped(tmp_path: Path) -> None:
    assert bash_violation(tmp_path, WIDE, "git config user.name 'A B'", **SUBAGENT) == "-"


TAR = [
    ("host", "tar -tf host:a.tar", Status.OPAQUE),
    ("old-style", "tar tf u@h:a.tar", Status.OPAQUE),
    ("long", "tar --list --file=h:/a.tar", Status.OPAQUE),
    ("expansion", 'tar -tf "$A"', Status.OPAQUE),
    ("second-file", "tar -tf a.tar -f h:b", Status.OPAQUE),
    ("force-local", "tar -tf h:a.tar --force-local", Status.READ_ONLY),
    ("slash-first", "tar -tf ./h:a.tar", Status.READ_ONLY),
    ("colon-first", "tar -tf :a.tar", Status.READ_ONLY),
    ("plain", "tar -tvf a.tar", Status.READ_ONLY),
]


@pytest.mark.parametrize(("command", "status"), [t[1:] for t in TAR], ids=[t[0] for t in TAR])
def test_tar_runs_rsh_for_a_host_archive(command: str, status: Status) -> None:
    assert analyze(command, cwd="/p", home="/h").status is status
