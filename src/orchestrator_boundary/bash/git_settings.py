"""git's settings on its command line: `-c KEY=VALUE` and `--config-env=KEY=VAR`.

A key that names a program (core.fsmonitor, core.pager, core.editor, core.sshCommand,
diff.external, alias.x=!cmd, ...) makes git run it. With `-c` and a literal value the command
line is analysed as the code it is; where the value comes from the environment
(`--config-env`, git reads ``$VAR``) or from an expansion (`-c "core.pager=$P"`), the program
git runs is unknown: a write the text does not locate, so the command is denied as a write
is, not let through as an opaque one (issue 12 points 2 and 10).
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.git_options import safe_setting
from orchestrator_boundary.bash.model import Command, EffectKind, Status
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, runs_code
from orchestrator_boundary.bash.readonly_data import GIT_RUNNING_KEYS, GIT_SAFE_CONFIG_PREFIXES
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.protect_git import program_key

# the literal key a `-c` value starts with when the rest is an expansion: `"core.pager=$P"`
_SPELLED_KEY = re.compile(r"""["']?([A-Za-z0-9._-]+)=""")
# a top-level word that is a setting with an expansion in it: `"--config-env=core.pager=$V"`
_SPELLED_SETTING = re.compile(r"""["']?(-c|--config-env)""")


def hidden_setting(word: Word) -> Outcome | None:
    """A word git reads as ``-c`` / ``--config-env`` whose key or variable is an expansion."""
    if _SPELLED_SETTING.match(word.text) is None:
        return None
    return _unknown_program(f"git setting {word.text}")


def setting(name: str, value: Word | None, env: Env) -> Outcome | None:
    """What git does with the setting ``name`` (``-c`` or ``--config-env``) given ``value``:
    None when the key runs nothing (ADR 0049's safe keys)."""
    text = value.value if value is not None else None
    if name == "-c":
        if text is not None:
            if safe_setting(text):
                return None
            if program_key(text.partition("=")[0]) == "elsewhere":  # include.path=../c
                return _unknown_program(f"git -c {text.partition('=')[0]}")
            # core.pager, diff.external, alias.x=!cmd, ...: the value may be a command line
            code = text.partition("=")[2].removeprefix("!")
            return runs_code("git", code or None, env, "git -c setting may run a command")
        found = _SPELLED_KEY.match(value.text) if value is not None else None
        key = found.group(1) if found else None
        if key is not None and safe_setting(key):
            return None
        return _unknown_program(f"git -c {key or '?'}=<expansion>")
    if text is None:
        return _unknown_program("git --config-env=<expansion>")
    # git splits at the last "=": the variable's name holds none, the key may
    key, eq, var = text.rpartition("=")
    if not eq or not key:
        return opaque("git", "git --config-env without a variable: git refuses it")
    if "=" not in key and safe_setting(key):
        return None
    return _unknown_program(f"git --config-env={key}: runs what ${var} holds")


def with_settings(ran: list[Outcome], outcome: Outcome) -> Outcome:
    """``outcome`` of the subcommand, opaque with what the settings git was given run
    (``git -c core.pager=x log --output=f`` still writes f)."""
    if not ran:
        return outcome
    fx = [f for o in (*ran, outcome) for f in o.fx]
    inner = [c for o in (*ran, outcome) for c in o.inner]
    return Outcome("git", Status.OPAQUE, fx, ran[0].note, inner, outcome.script)


def _unknown_program(what: str) -> Outcome:
    """git runs a program the text does not show: it may write anywhere."""
    found = Fx(EffectKind.WRITE, "", None, f"{what}: a program the text does not show")
    return opaque("git", f"{what}: may run a command", [found])


def planted(q: Parsed, env: Env) -> tuple[list[Fx], list[Command]]:
    """What a later git command does because ``git config`` (parsed as ``q``) writes a key
    that names a program (ADR 0077): the writes of the value read as the code it is (so that
    planting ``core.fsmonitor 'touch .claude/settings.json'`` is the write it leads to), or a
    write the text does not place when the program is not in the text (``include.path``, a
    section renamed into ``core``, an expansion). Nothing for keys that run nothing (ADR
    0049's safe keys) or not known to run a program. The command itself only writes its file:
    what the program does later is added, its being opaque is not (``vim`` as core.editor).
    The keys are ``protect_git``'s one table (ADR 0082)."""
    first = q.pos[0].value if q.pos else None
    if q.has("--rename-section") or first == "rename-section":
        new = q.pos[-1].value if q.pos else None
        if new is not None and _safe_section(new):
            return [], []
        return [_unplaced(f"git config renames a section to {new or '<expansion>'}")], []
    if q.has("--unset", "--unset-all", "--remove-section", "-e", "--edit"):
        return [], []
    pos = q.pos[1:] if first == "set" else q.pos
    if first in ("unset", "remove-section", "edit", "get", "list") or len(pos) < 2:
        return [], []
    key, value = pos[0].value, pos[1].value
    if key is not None and safe_setting(key):
        return [], []
    kind = program_key(key) if key is not None else "elsewhere"
    if kind == "elsewhere" or (kind is not None and value is None):
        return [_unplaced(f"git config {key or '<expansion>'}")], []
    if kind is None or value is None:
        return [], []
    if key is not None and key.lower().startswith("alias."):
        code = value[1:] if value.startswith("!") else f"git {value}"
    else:
        code = value.removeprefix("!")  # submodule.x.update = !cmd
    later = runs_code("git", code, env, "").inner
    return [], [c for c in later if c.effects]


def _unplaced(what: str) -> Fx:
    return Fx(EffectKind.WRITE, "", None, f"{what}: a program git runs later, not in the text")


def _safe_section(name: str) -> bool:
    """A section every key of which runs nothing (``user``; not ``log``: log.showSignature)."""
    prefix = name.lower() + "."
    return prefix in GIT_SAFE_CONFIG_PREFIXES and not any(
        key.startswith(prefix) for key in GIT_RUNNING_KEYS
    )
