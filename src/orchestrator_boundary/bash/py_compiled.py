"""Where Python's bytecode compilers and its dbm files write (issue 12 point 6).

``py_compile`` writes ``DIR/__pycache__/NAME.TAG.pyc`` for ``DIR/NAME.py`` (TAG is the
interpreter's, ``cpython-312``: not in the text, so the folder is the target); ``compileall``
does that for every ``.py`` file of a folder tree. Both run from inline code (inline_python) and
as ``python -m py_compile FILE...`` / ``python -m compileall [DIR|FILE...]`` (here).
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, checked, read_only, writes
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
# the files dbm.open / shelve.open may create for NAME, by backend: NAME (dbm.gnu, dbm.sqlite3),
# NAME.db or NAME.dir + NAME.pag (dbm.ndbm), NAME.dat + NAME.dir + NAME.bak (dbm.dumb)
DB_SUFFIXES = ("", ".db", ".dir", ".pag", ".dat", ".bak")
_GLOB = frozenset("*?[")


def pycache(source: str) -> str:
    """The ``__pycache__`` folder beside ``source`` (either separator: the text may be a
    Windows path)."""
    cut = max(source.rfind("/"), source.rfind("\\"))
    return source[: cut + 1] + "__pycache__"


def _folder(pattern: str) -> str | None:
    """The literal folder a glob's matches are in (``src/*.py``: ``src``); None when the folder
    part is a pattern too."""
    cut = max(pattern.rfind("/"), pattern.rfind("\\"))
    head = pattern[: cut + 1] or "."
    return None if _GLOB & set(head) else head.rstrip("/\\") or head


_PY_COMPILE = spec("qh", "", "quiet help")
# compileall's argparse options (3.8 to 3.13); argparse takes unambiguous long prefixes too
_COMPILEALL = spec("lfqbh", "rdspxijoe", "workers= invalidation-mode= hardlink-dupes help")


def py_compile_module(prog: str, args: list[Word], env: Env) -> Outcome:
    """``python -m py_compile FILE...``: ``__pycache__`` beside each file; ``-`` or no file
    (before 3.10) reads the names from stdin: a write the text does not locate."""
    parsed = parse(args, _PY_COMPILE)
    if parsed.has("-h", "--help"):
        return read_only(prog, "python -m py_compile --help")
    fx: list[Fx] = []
    if not parsed.pos or [w.value for w in parsed.pos] == ["-"]:
        fx.append(Fx(W, "", None, "python -m py_compile: files named on stdin"))
    for word in parsed.pos:
        fx.append(_beside(word, env, "python -m py_compile"))
    return checked(prog, parsed.unknown, writes(prog, fx))


def _beside(word: Word, env: Env, source: str) -> Fx:
    """The ``__pycache__`` folder beside the file ``word`` names (a glob's folder's)."""
    if word.value is None:
        return env.fx(W, None, source)
    if word.glob:
        folder = _folder(word.value)
        return env.fx(W, None if folder is None else lit(pycache(folder + "/x")), source)
    return env.fx(W, lit(pycache(word.value)), source)


def compileall_module(prog: str, args: list[Word], env: Env) -> Outcome:
    """``python -m compileall [DIR|FILE...]``: every ``.py`` file in a folder's tree, or the
    ``.py`` file named (``-b``: ``FILE.pyc`` beside it); no operand compiles every folder on
    sys.path and ``-i LIST`` the names LIST holds: writes the text does not locate."""
    parsed = parse(args, _COMPILEALL)
    if parsed.has("-h", "--help"):
        return read_only(prog, "python -m compileall --help")
    source = "python -m compileall"
    fx: list[Fx] = []
    if not parsed.pos or parsed.has("-i"):
        fx.append(Fx(W, "", None, f"{source}: folders on sys.path or names from a list"))
    for word in parsed.pos:
        value = word.value
        if value is None or word.glob:
            folder = None if value is None else _folder(value)
            fx.append(env.fx(W, None if folder is None else lit(folder), source))
            continue
        fx.append(env.fx(W, word, source))  # a folder: its whole tree
        if value.endswith(".py"):  # a file: its bytecode beside it
            fx.append(env.fx(W, lit(pycache(value)), source))
            if parsed.has("-b"):
                fx.append(env.fx(W, lit(value + "c"), source))
    return checked(prog, parsed.unknown, writes(prog, fx))
