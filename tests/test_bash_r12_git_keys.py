"""Round twelve (ADR 0082): one table of the git config keys that make git run a program.

Two places read it: the Bash analysis (``bash/git_settings.planted``) matches a key it has
parsed, and the tamper rule (``protect_git.gits_own``) searches a command's text, more loosely,
so that ``git config`` of such a key is TAMPER. Every key is pinned in BOTH places here, and
every spelling the old text search caught is pinned too, so that merging the two tables
loosened neither. Keys checked against ``git help config`` of git 2.39.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

from orchestrator_boundary.bash import analyze
from orchestrator_boundary.protect_git import gits_own

SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
# a subagent whose scope holds .git: only the tamper rule can stop a planted program
SCOPED = 'phase = "enforce"\n[agents.coder]\nwrite_scope = [".git/**", "src/**"]\n'

# every key the two old tables named (bash/git_settings._PROGRAM_KEYS, protect_git._RUNS)
OLD = [
    "core.fsmonitor", "core.pager", "core.editor", "core.sshCommand", "core.askPass",
    "core.gitProxy", "core.hooksPath", "pager.log", "sequence.editor", "diff.external",
    "diff.t.textconv", "diff.t.command", "difftool.t.cmd", "difftool.t.path", "mergetool.t.cmd",
    "mergetool.t.path", "merge.m.driver", "browser.b.cmd", "browser.b.path", "man.m.cmd",
    "man.m.path", "guitool.g.cmd", "filter.f.clean", "filter.f.smudge", "filter.f.process",
    "credential.helper", "credential.https://h.helper", "gpg.program", "gpg.ssh.program",
    "uploadpack.packObjectsHook", "remote.o.uploadpack", "remote.o.receivepack", "remote.o.proxy",
    "submodule.s.update", "trailer.t.command", "trailer.t.cmd", "interactive.diffFilter",
    "tar.tgz.command", "web.browser", "protocol.ext.allow", "ssh.variant", "include.path",
    "includeIf.gitdir:/x/.path", "alias.st", "core.attributesFile", "core.worktree",
    "foo.bar.cmd", "foo.bar.command",
]  # fmt: skip
# found missing in both by reading `git help config` (git 2.39): each makes git run its value
NEW = [
    "core.alternateRefsCommand", "gpg.ssh.defaultKeyCommand", "imap.tunnel", "instaweb.httpd",
    "instaweb.browser", "sendemail.smtpServer", "sendemail.work.smtpServer", "sendemail.toCmd",
    "sendemail.ccCmd", "sendemail.sendmailCmd", "hook.lint.command", "init.templateDir",
    "remote.o.vcs", "protocol.allow",
]  # fmt: skip
KEYS = OLD + NEW


@pytest.mark.parametrize("key", KEYS)
def test_the_text_search_finds_every_key(key: str) -> None:
    for spelled in (key, key.lower(), key.upper(), f'"{key}"'):
        assert not gits_own("git", f"git config --global {spelled} ./x.sh"), spelled
        assert not gits_own("git", f"git -c {spelled}=./x.sh config user.name a"), spelled


@pytest.mark.parametrize("key", KEYS)
def test_the_parsed_key_is_a_planted_program(key: str) -> None:
    value = "'!touch src/pwn'" if key.startswith("alias.") else "'touch src/pwn'"
    result = analyze(f"git config {key} {value}", cwd="/p", home="/h")
    places = {e.resolved for e in result.effects}
    assert "/p/src/pwn" in places or None in places, result


@pytest.mark.parametrize("key", NEW)
def test_a_subagent_planting_a_new_key_is_tamper(tmp_path: Path, key: str) -> None:
    assert bash_violation(tmp_path, SCOPED, f"git config {key} ./x.sh", **SUBAGENT) == "TAMPER"


# spellings the old text search also caught, with no key of the table in them
OLD_LOOSE = [
    "git config Core.FSMonitor x",
    "git config 'credential.https://a b.helper' x",
    "git config core.fs'monitor' ./x.sh",
    "GIT_EDITOR='touch a' git config -e",
    "EDITOR=./x.sh git config --edit",
]


@pytest.mark.parametrize("command", OLD_LOOSE)
def test_the_loose_spellings_stay_caught(command: str) -> None:
    assert not gits_own("git", command)


PLAIN = [
    "git config user.name 'A B'",
    "git config --global user.email a@b.c",
    "git config core.pager cat",
    "git config --global core.pager less",
    "git config --global core.editor vim",
    "git config --global core.editor 'code --wait'",
    "git config --global core.editor nano",
    "git --no-pager config user.name x",
    "git config --no-includes --get user.name",
    "git remote add origin https://example.com/a/pager.git",
    "git config credential.username bob",
    "git config --global pager.branch false",
    "git config --global core.pager 'less -FRX'",
    "git config --global core.pager delta",
    "git config --global credential.helper store",
    "git config --global credential.helper 'cache --timeout=3600'",
]


@pytest.mark.parametrize("command", PLAIN)
def test_ordinary_settings_stay_gits_own(command: str) -> None:
    assert gits_own("git", command)


def test_a_plain_pager_does_not_excuse_a_program_key_beside_it() -> None:
    assert not gits_own("git", "git -c core.fsmonitor=./x.sh config core.pager less")


@pytest.mark.parametrize(
    "command",
    [
        "git config core.pager 'less; touch x'",
        "git config core.pager python3",
        "git config credential.helper '!f() { touch x; }; f'",
        "git config credential.helper /tmp/x.sh",
        "git config core.editor 'vim -c \"!touch x\"'",
    ],
)
def test_a_pager_editor_or_helper_that_is_not_plain_stays_caught(command: str) -> None:
    assert not gits_own("git", command)
