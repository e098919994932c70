"""Assignments a command or statement makes, judged by what the variable can make run or write.

A variable given to a program (`NAME=v cmd`, `export NAME=v`, `declare -x`) is harmless only
when its name is known to be (``envvars.exported_risk``: an allow-list); a variable the shell
keeps to itself is risky when the shell acts on it (``dangerous``, ``SHELL_SPECIAL``).
"""

from __future__ import annotations

from typing import Any, Protocol

from orchestrator_boundary.bash import declared
from orchestrator_boundary.bash.envvars import (
    LOADS_CODE,
    SHELL_SPECIAL,
    code_in,
    dangerous,
    exported_risk,
    harmless_exported,
)
from orchestrator_boundary.bash.model import Command, Effect, EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Outcome, runs_code
from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.bash.readonly_data import DANGEROUS_ENV
from orchestrator_boundary.bash.words import word

W = EffectKind.WRITE
_TRACE_OFF = ("", "0", "1", "2", "true", "false")


class Walker(Protocol):
    env: Env
    out: list[Command]
    code: str | None
    known: dict[str, str]


def _exports(w: Walker, node: Any) -> bool:
    """Whether a declaration (`export`, `declare -x`, `local -gx`) exports what it sets."""
    children = node.children
    if children and children[0].type == "export":
        return True
    flags = [text_in(w.code, c) for c in node.named_children if c.type == "word"]
    return any(f.startswith("-") and "x" in f for f in flags)


def risky_assignment(
    w: Walker, node: Any, cwd: str | None, depth: int, exported: bool = False
) -> str:
    """The name of a risky variable that ``node`` (or its direct assignments) sets; the
    command a literal value holds (PAGER='touch p', PS4='$(touch p)') is analysed as well.
    ``exported``: the values go to a program's environment (a command's prefix)."""
    if node.type == "declaration_command":
        exported = exported or _exports(w, node)
    kinds = ("variable_assignment", "variable_name")
    nodes = (
        [node]
        if node.type == "variable_assignment"
        else [c for c in node.named_children if c.type in kinds]
    )
    for assignment in nodes:
        if assignment.type == "variable_name":  # `export NAME`: its value goes to programs
            name = text_in(w.code, assignment)
            if exported and name not in DANGEROUS_ENV and not harmless_exported(name):
                return name
            continue
        name_node = assignment.child_by_field_name("name")
        value_node = assignment.child_by_field_name("value")
        name = text_in(w.code, name_node) if name_node is not None else ""
        value_text = text_in(w.code, value_node) if value_node is not None else ""
        if dangerous(name, value_text):
            _dangerous(w, name, value_node, value_text, cwd, depth)
            return name
        if exported and exported_risk(name, value_text):
            return name
        if name in SHELL_SPECIAL:
            return name
    return ""


def _dangerous(
    w: Walker, name: str, value_node: Any, value_text: str, cwd: str | None, depth: int
) -> None:
    """What a dangerous variable's value shows: code it runs, a file it loads or writes."""
    value = word(value_node, w.env.home, w.code).value if value_node is not None else ""
    code = code_in(name, value)
    if name in LOADS_CODE:  # code from a file: what it writes is not in sight
        effect = Effect(W, "", None, value_text, f"{name} loads code from a file")
        w.out.append(Command(value_text, "", Status.OPAQUE, (effect,), effect.source))
    if name.startswith("GIT_TRACE") and value not in _TRACE_OFF:
        # GIT_TRACE=/path: git writes its trace to that file
        path = value if value is not None and value.startswith("/") else None
        effect = Effect(W, path or value_text, path, value_text, f"{name} file")
        w.out.append(Command(value_text, "", Status.WRITES, (effect,), f"{name} file"))
    if code:
        here = w.env.for_command(cwd, None, depth)
        w.out.extend(runs_code(name, code, here, "").inner)


_GRAMMAR_ASSIGNMENTS = frozenset({"variable_assignment", "variable_name"})


def spelled_settings(
    w: Walker, node: Any, program: str, cwd: str | None, depth: int
) -> Outcome | None:
    """A declaration's words the grammar does not read as assignments, which Bash does:
    `declare 'PS4=$(cmd)'`, `export 'BASH_ENV=f'`, `typeset 'a[$(cmd)]=1'` (the subscript is
    evaluated), `local a\\[\\$\\(cmd\\)\\]=1`. They are judged as the builtin run as a program
    judges its arguments (``declared.declare``); None when there are none (attack round C)."""
    children = [c for c in node.named_children if c.type not in _GRAMMAR_ASSIGNMENTS]
    words = [word(c, w.env.home, w.code, cwd, w.known) for c in children]
    if all(x.value is not None and x.value[:1] in ("-", "+") for x in words):
        return None
    env = w.env.for_command(cwd, None, depth)
    outcome = declared.declare(program, words, env)
    # a literal subscript is arithmetic Bash expands first: its command substitutions run
    subscripts = [
        x.value[x.value.index("[") + 1 : x.value.rindex("]")]
        for x in words
        if x.value is not None and "[" in x.value.partition("=")[0] and "]" in x.value
    ]
    if outcome.status is Status.READ_ONLY or not subscripts:
        return outcome
    shown = runs_code(program, "\n".join(f": {s}" for s in subscripts), env, outcome.note)
    return Outcome(program, Status.OPAQUE, (), outcome.note, [*outcome.inner, *shown.inner])
