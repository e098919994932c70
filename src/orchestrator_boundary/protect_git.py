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
makes git run a command (``_RUNS``). These are not entries of the protected set: ``git commit``
writes ``.git`` (the folder that holds them) and must stay ordinary work.
"""

from __future__ import annotations

import re

LABEL = "code git runs (a hook, or a config that names commands)"
# below a .git folder: its config files and its hooks; ``modules/x`` and ``worktrees/x`` too
_GIT_CODE = re.compile(
    r"(?:^|/)\.git(?:/(?:modules|worktrees)/[^/]+)*/(?:hooks(?:/.*)?|config(?:\.worktree)?)$"
)
_HOME_CONFIGS = (".gitconfig", ".config/git/config")
# git config keys whose value git runs (or that pull in a file that may set one)
_RUNS = re.compile(
    r"fsmonitor|hookspath|sshcommand|gitproxy|pager|editor|askpass|textconv|\.clean\b|"
    r"\.smudge\b|\.process\b|credential|include|alias\.|\.command\b|\.cmd\b|attributesfile|"
    r"receivepack|uploadpack|core\.worktree",
    re.I,
)


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


_PLAIN_PAGER = re.compile(r"\bpager\s+['\"]?(?:cat|less|more)['\"]?\s*$", re.I)  # no pager


def gits_own(program: str, command: str) -> bool:
    """git's own write of its config, with no key that makes it run a command."""
    if program != "git":
        return False
    return _RUNS.search(command) is None or _PLAIN_PAGER.search(command) is not None
