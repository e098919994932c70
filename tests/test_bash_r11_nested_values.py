"""Round eleven (ADR 0077): values run as code inside nested shell code, and the shells'
command tables. ``x=touch; $x p`` was analysed (the values a command may run are analysed as
code) but ``bash -c 'x=touch; $x p'`` was opaque with no effect, which the default
``bash.opaque = "allow"`` lets through; so were ``BASH_CMDS[ls]=/usr/bin/touch; ls p`` and
zsh's ``commands[ls]=...`` / ``functions[ls]='touch p'``. Each is observed in
``tests/reality_cases_attack_g.py``."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import analyze

WRITES = [
    ("bash-c-value", "bash -c 'x=touch; $x p'"),
    ("sh-c-value", "sh -c 'x=touch; $x p'"),
    ("bash-c-eval", 'bash -c \'c="touch p"; eval "$c"\''),
    ("zsh-c-value", "zsh -fc 'x=touch; $x p'"),
    ("bash-c-in-bash-c", "bash -c \"bash -c 'x=touch; \\$x p'\""),
    ("bash-cmds", "BASH_CMDS[ls]=/usr/bin/touch; ls p"),
    ("bash-cmds-quoted", "BASH_CMDS['ls']=/usr/bin/touch; ls p"),
    ("zsh-commands", "commands[ls]=/usr/bin/touch; ls p"),
    ("zsh-functions", "functions[ls]='touch p'; ls"),
    ("zsh-c-functions", "zsh -fc 'functions[ls]=\"touch p\"; ls'"),
    ("bash-aliases", "BASH_ALIASES[ls]='touch p'; ls"),
]


@pytest.mark.parametrize("command", [w[1] for w in WRITES], ids=[w[0] for w in WRITES])
def test_the_value_a_command_runs_is_analysed(command: str) -> None:
    result = analyze(command, cwd="/w", home="/h")
    assert "/w/p" in {e.resolved for e in result.effects}, result
