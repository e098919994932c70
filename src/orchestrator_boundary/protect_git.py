"""The code git runs: ``.git/hooks/`` and the keys of a git config that name a command. ADR 0078.

A script in ``.git/hooks/`` runs at the next ``git commit`` (``git checkout``, ``git push``...),
and ``core.fsmonitor`` in ``.git/config`` runs at every ``git status``: by any agent, with only
the git command asked about, or by the person. A subagent that writes ``.git/hooks/pre-commit``
(or ``core.fsmonitor``, ``core.hooksPath``) and then commits runs code no hook sees, which can
rewrite the settings themselves.

So a write to a repository's hooks folder or config file in the project (at any depth: a
submodule's ``.git/modules/x/hooks``, a nested repository), or to the user's git config, is
TAMPER, by every route but one: git's own command writing its config (``git config user.name``,
``git remote add``, ``git push -u``), which is daily work, unless its text names a key that
makes git run a command (``RUNS``, ``ELSEWHERE``: ADR 0082). These are not entries of the
protected set: ``git commit`` writes ``.git`` (the folder that holds them) and must stay
ordinary work.
"""

from __future__ import annotations

import functools
import re

LABEL = "code git runs (a hook, or a config that names commands)"
# below a .git folder (or a bare repository named ``NAME.git``: ADR 0082): its config files and
# its hooks; ``modules/x`` and ``worktrees/x`` too
_GIT_CODE = re.compile(
    r"(?:^|/)[^/]*\.git(?:/(?:modules|worktrees)/[^/]+)*/(?:hooks(?:/.*)?|config(?:\.worktree)?)$"
)
_HOME_CONFIGS = (".gitconfig", ".config/git/config")
# ADR 0082: the ONE table of git config keys that make git run a program, read by the Bash
# analysis (``program_key``: a key it parsed, matched whole) and by ``gits_own`` (a command's
# text, searched loosely). Lowercase; ``*`` is any text (a subsection, or part of a name).
# Checked against ``git help config`` (git 2.39). RUNS: the value is a command line git runs
# (``core.fsmonitor``: at every ``git status``); ELSEWHERE: the value tells git where to find
# code or settings, or lets a remote's URL run one (``include.path``, ``core.hooksPath``,
# ``protocol.ext.allow`` with an ``ext::`` URL).
_TOOLS = ("diff", "difftool", "mergetool", "merge", "browser", "man", "guitool")
RUNS = (
    *("core." + k for k in ("fsmonitor", "pager", "editor", "sshcommand", "askpass")),
    *("core." + k for k in ("gitproxy", "alternaterefscommand")),
    *(f"{t}.*.{k}" for t in _TOOLS for k in ("command", "textconv", "cmd", "driver", "path")),
    *("filter.*." + k for k in ("clean", "smudge", "process")),
    "pager.*", "sequence.editor", "diff.external", "interactive.difffilter", "web.browser",
    "credential.helper", "credential.*.helper", "gpg.program", "gpg.*.program",
    "gpg.ssh.defaultkeycommand", "uploadpack.packobjectshook", "remote.*.uploadpack",
    "remote.*.receivepack", "submodule.*.update", "trailer.*.command", "trailer.*.cmd",
    "tar.*.command", "imap.tunnel", "instaweb.httpd", "instaweb.browser", "sendemail.*cmd",
    "sendemail.smtpserver", "sendemail.*.smtpserver", "hook.*.command", "alias.*", "*.cmd",
    "*.command",
)  # fmt: skip
ELSEWHERE = (
    "include.path", "includeif.*.path", "core.hookspath", "core.attributesfile",
    "core.worktree", "init.templatedir", "protocol.allow", "protocol.*.allow", "ssh.variant",
    "remote.*.proxy", "remote.*.vcs",
)  # fmt: skip


def _pattern(keys: tuple[str, ...], star: str) -> str:
    return "|".join(re.escape(k).replace(r"\*", star) for k in keys)


# The table's patterns are compiled on first use: ~10 ms at import, paid by every hook process,
# while only a call that writes git's code or sets a key needs them.
@functools.cache
def _keys() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(_pattern(RUNS, ".+")), re.compile(_pattern(ELSEWHERE, ".+"))


def program_key(key: str) -> str | None:
    """ "runs" when git runs ``key``'s value, "elsewhere" when it names where git finds code,
    None for a key that runs nothing (``user.name``)."""
    low = key.lower()
    runs, elsewhere = _keys()
    if runs.fullmatch(low):
        return "runs"
    return "elsewhere" if elsewhere.fullmatch(low) else None


# the text search: any key of the table at the start of a word (``-c k=v``, ``"k"``,
# ``--config-env=k=V``), in any case, also once quotes and backslashes are taken out
# (``core.fs'monitor'``); or git started with a variable that names a program or git's files
@functools.cache
def _search() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The text search's patterns: any key, a variable, a plain setting (``_PLAIN``)."""
    any_key = rf"(?<![\w./:@-])(?:{_pattern(RUNS + ELSEWHERE, '.+?')})(?![\w-])"
    environment = r"(?<!\w)(?:GIT_\w+|EDITOR|VISUAL|PAGER|SSH_ASKPASS)="
    return re.compile(any_key, re.I), re.compile(environment, re.I), re.compile(_PLAIN, re.I)


def git_code(absolute: str, root: str, home: str | None, insensitive: bool) -> bool:
    """``absolute`` is a hooks folder or config file of a repository in the project, or the
    user's git config."""
    path = absolute.replace("\\", "/")
    base = root.replace("\\", "/").rstrip("/")
    if insensitive:
        path, base = path.lower(), base.lower()
    if path.startswith(base + "/") and _GIT_CODE.search(path[len(base) :]) is not None:
        return True
    if home:
        mine = home.replace("\\", "/").rstrip("/")
        mine = mine.lower() if insensitive else mine
        return any(path == f"{mine}/{rel}" for rel in _HOME_CONFIGS)
    return False


# a pager, an editor or a credential helper set to a plain program or to git's own: daily work
# (``git config core.editor vim``, ``pager.branch false``, ``credential.helper store``)
_PLAIN = (
    r"(?<![\w./:@-])(?:(?:core\.(?:pager|editor)|sequence\.editor|pager\.[\w-]+)(?:\s+|=)"
    r"""(['"]?)(?:cat|less(?: -[A-Za-z0-9#]+)*|more|delta|bat|vi|vim|nvim|nano|emacs"""
    r"""|code --wait|false|true|off|no)\1|credential\.helper(?:\s+|=)(['"]?)(?:store|cache"""
    r"""|osxkeychain|manager|manager-core|libsecret|wincred)(?: --[a-z]+(?:=\d+)?)*\2)(?=\s|$)"""
)


def gits_own(program: str, command: str) -> bool:
    """git's own write of its config, with no key that makes it run a command."""
    if program != "git":
        return False
    any_key, environment, plain = _search()
    for text in (command, re.sub(r"""["'\\]""", "", command)):
        text = plain.sub(" ", text)
        if any_key.search(text) is not None or environment.search(text) is not None:
            return False
    return True
