"""Python puts the working folder first on ``sys.path`` for ``-c``, ``-m`` and a program read
from stdin: a ``json.py`` there runs in place of the standard ``json``. So inline code that
imports a module is not read-only unless the interpreter is told not to look there (``-I`` or
``-P``): the module it imports may be the project's own code (issue 12 points 6 and 11; the
field check found it)."""

from __future__ import annotations

import ast

from orchestrator_boundary.bash.model import Status
from orchestrator_boundary.bash.outcome import Outcome

# Compiled into every CPython on every platform: found before sys.path is searched, so a file
# in the working folder cannot take their place. Everything else (``os`` and ``json`` included,
# frozen or not, depending on the interpreter's version and build) is treated as shadowable.
UNSHADOWABLE = frozenset(
    {
        "sys",
        "builtins",
        "marshal",
        "_imp",
        "_thread",
        "_warnings",
        "_weakref",
        "_io",
        "errno",
        "gc",
        "itertools",
        "time",
        "atexit",
        "_codecs",
        "_signal",
        "_sre",
        "_abc",
        "_functools",
        "_operator",
        "_collections",
        "_stat",
        "_string",
    }
)


def safe_path_flag(option: str) -> bool:
    """``-I`` (isolated) or ``-P`` (safe path), alone or in a cluster such as ``-IS``: the
    working folder is then not on ``sys.path``."""
    return (
        option.startswith("-")
        and not option.startswith("--")
        and any(c in option[1:] for c in "IP")
    )


def shadowable_imports(code: str) -> list[str]:
    """The top-level names of modules ``code`` imports that a file in the working folder could
    replace (empty when the code does not parse: the analysis says so on its own)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
    return list(dict.fromkeys(n for n in names if n not in UNSHADOWABLE))


def guarded(outcome: Outcome, names: list[str]) -> Outcome:
    """``outcome``, made opaque when it says read-only and the code imports shadowable
    ``names``. A write the code shows stays a write: it is judged by its target either way."""
    if not names or outcome.status is not Status.READ_ONLY:
        return outcome
    note = (
        f"imports {names[0]}: a {names[0]}.py in the working folder would run in its place"
        " (python -I or -P rules that out)"
    )
    return Outcome(outcome.program, Status.OPAQUE, outcome.fx, note, outcome.inner)


def module_guarded(outcome: Outcome, module: str, safe: bool) -> Outcome:
    """``python -m MODULE``: the module itself is looked up in the working folder first."""
    root = module.split(".")[0]
    return outcome if safe or root in UNSHADOWABLE else guarded(outcome, [root])
