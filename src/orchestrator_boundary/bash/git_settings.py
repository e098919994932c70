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
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, runs_code
from orchestrator_boundary.bash.words import Word

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


def _unknown_program(what: str) -> Outcome:
    """git runs a program the text does not show: it may write anywhere."""
    found = Fx(EffectKind.WRITE, "", None, f"{what}: a program the text does not show")
    return opaque("git", f"{what}: may run a command", [found])
