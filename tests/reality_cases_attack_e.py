"""Rows for issue 12's table (point 10's 99 % target with ``bash.opaque = allow``), each observed
in a throwaway folder: Python's bytecode compilers (inline and ``python -m``), ``shelve`` and
``dbm`` with the files their backends create, and git settings whose program comes from the
environment (``--config-env``) or an expansion. ``reality_cases`` adds them to its ``ROWS``.

Observed here (CPython 3.11, dbm.dumb the only backend): ``shelve.open('sh')`` creates sh.dat,
sh.dir and sh.bak; ``py_compile`` writes src/__pycache__/main.cpython-311.pyc; git runs the
value of ``$VAR`` for ``--config-env=core.fsmonitor=VAR`` (and the pager, diff.external alike).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reality_cases import Row

PY = "python3 -c"


def rows() -> list[Row]:
    """The rows; ``reality_cases`` calls this once its helpers exist (it imports this module)."""
    from reality_cases import GIT, GIT_DIRTY, R, W

    return [
        # --- 2. a git setting whose program the text does not show ---------------------------
        W("2", "e-git-config-env-pager", "P='touch p; cat' git --config-env=core.pager=P log",
          seed=GIT, tty=True),
        W("2", "e-git-config-env-separate", "export F='touch p; false'; "
          "git --config-env core.fsmonitor=F status", seed=GIT),
        W("2", "e-git-config-env-diff-external", "export D='touch p; true'; "
          "git --config-env=diff.external=D diff", seed=GIT_DIRTY),
        W("2", "e-git-config-env-mixed-case", "export F='touch p; false'; "
          "git --config-env=Core.FSMonitor=F status", seed=GIT),
        W("2", "e-git-config-env-expansion", "export F='touch p; false'; v=F; "
          'git --config-env="core.fsmonitor=$v" status', seed=GIT),
        W("2", "e-git-c-expansion", "f='touch p; false'; git -c \"core.fsmonitor=$f\" status",
          seed=GIT),
        R("2", "e-git-config-env-user-name", "n=me git --config-env=user.name=n log --oneline",
          seed=GIT),
        R("2", "e-git-c-expansion-user-name", 'n=me; git -c "user.name=$n" log --oneline',
          seed=GIT),
        # --- 6. bytecode compilers and dbm files -------------------------------------------
        W("6", "e-py-m-py-compile", "python3 -m py_compile src/main.py", "src/__pycache__"),
        W("6", "e-py-m-py-compile-glob", "python3 -m py_compile src/*.py", "src/__pycache__"),
        W("6", "e-py-m-py-compile-stdin", "echo src/main.py | python3 -m py_compile -"),
        W("6", "e-py-m-compileall-dir", "python3 -m compileall -q src", "src/__pycache__"),
        W("6", "e-py-m-compileall-legacy", "python3 -m compileall -q -b src/main.py",
          "src/main.pyc"),
        W("6", "e-py-m-compileall-list", "echo src/main.py | python3 -m compileall -q -i -"),
        W("6", "e-py-compile-file", f"{PY} \"import compileall; "
          "compileall.compile_file('src/main.py', quiet=1)\"", "src/__pycache__"),
        W("6", "e-py-compile-cfile", f"{PY} \"import py_compile; "
          "py_compile.compile('src/main.py', cfile='o.pyc')\"", "o.pyc"),
        W("6", "e-py-compile-from-import", f"{PY} \"from py_compile import compile; "
          "compile('src/main.py')\"", "src/__pycache__"),
        W("6", "e-py-shelve-files", f"{PY} \"import shelve; shelve.open('sh', 'n').close()\"",
          "sh.dat", "sh.dir"),
        W("6", "e-py-dbm-files", f"{PY} \"import dbm; dbm.open('db', 'n').close()\"",
          "db.dat", "db.dir"),
        R("6", "e-py-m-py-compile-help", "python3 -I -m py_compile --help"),
        R("6", "e-py-m-compileall-help", "python3 -I -m compileall -h"),
        R("6", "e-py-compile-error-name", f"{PY.replace('-c', '-I -c')} \"import py_compile; "
          "print(issubclass(py_compile.PyCompileError, Exception))\""),
        R("6", "e-py-dbm-read-missing", f"{PY.replace('-c', '-I -c')} \"import dbm\n"
          "try:\n    dbm.open('none', 'r')\nexcept dbm.error:\n    print('no')\""),
    ]  # fmt: skip
