"""Writes the analysis let through with the default ``bash.opaque = "allow"`` (issue 12, point
10's 99 % target): they were ``opaque`` with no effect. Python's bytecode compilers and
shelve/dbm now name what they write; a git setting whose program comes from the environment
(``--config-env``) or an expansion is a write the text does not locate, so it is denied.

The Bash rows were each observed in a throwaway folder (``tests/reality_cases_attack_e.py``
runs them). Each finding row failed before its fix; each control row keeps its answer. A
``None`` among the named paths is a write whose target is unknown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_holes import Case, check, table
from harden_support import make_project

from orchestrator_boundary.bash import Status

R, WR, OP = Status.READ_ONLY, Status.WRITES, Status.OPAQUE
PY = 'python3 -c "import {}; {}"'
DB = ("/w/p/d", "/w/p/d.db", "/w/p/d.dir", "/w/p/d.pag", "/w/p/d.dat", "/w/p/d.bak")

# --- inline py_compile / compileall, shelve / dbm ------------------------------------------
INLINE: list[Case] = [
    ("py-compile", PY.format("py_compile", "py_compile.compile('s/a.py')"), WR,
     ("/w/p/s/__pycache__",)),
    ("py-compile-keyword", PY.format("py_compile", "py_compile.compile(file='a.py')"), WR,
     ("/w/p/__pycache__",)),
    ("py-compile-cfile", PY.format("py_compile", "py_compile.compile('a.py', 'o.pyc')"), WR,
     ("/w/p/o.pyc",)),
    ("py-compile-computed", PY.format("py_compile", "import sys; py_compile.compile(sys.argv[1])"),
     WR, (None,)),
    ("py-compile-as", PY.format("py_compile as p", "p.compile('/t/a.py')"), WR,
     ("/t/__pycache__",)),
    ("compile-file", PY.format("compileall", "compileall.compile_file('s/a.py')"), WR,
     ("/w/p/s/__pycache__",)),
    ("compile-file-legacy", PY.format("compileall", "compileall.compile_file('a.py', legacy=1)"),
     WR, ("/w/p/__pycache__", "/w/p/a.pyc")),
    ("compile-dir", PY.format("compileall", "compileall.compile_dir('lib', quiet=1)"), WR,
     ("/w/p/lib",)),
    ("compile-dir-keyword", PY.format("compileall", "compileall.compile_dir(dir='.')"), WR,
     ("/w/p",)),
    ("compile-path", PY.format("compileall", "compileall.compile_path()"), WR, (None,)),
    ("shelve-open", PY.format("shelve", "shelve.open('d')"), WR, DB),
    ("shelve-open-n", PY.format("shelve", "shelve.open('d', 'n')"), WR, DB),
    ("shelve-open-keyword", PY.format("shelve", "shelve.open(filename='d')"), WR, DB),
    ("dbm-open-keyword", PY.format("dbm", "dbm.open(file='d', flag='n')"), WR, DB),
    ("dbm-open-c", PY.format("dbm", "dbm.open('d', 'c')"), WR, DB),
    ("dbm-open-w", PY.format("dbm", "dbm.open('d', flag='w')"), WR, DB),
    ("shelve-computed", PY.format("shelve, sys", "shelve.open(sys.argv[1])"), WR, (None,)),
    ("shelve-as-value", PY.format("shelve", "s = shelve; s.open('d')"), OP, ()),
    ("compileall-main", PY.format("compileall", "compileall.main()"), OP, ()),
    # controls: names that write nothing, a read-only dbm, guarded against a shadowing module
    ("py-compile-error", 'python3 -I -c "import py_compile; print(py_compile.PyCompileError)"',
     R, ()),
    ("dbm-open-r", 'python3 -I -c "import dbm; dbm.open(\'d\', \'r\')"', R, ()),
    ("dbm-open-default", 'python3 -I -c "import dbm; dbm.open(\'d\')"', R, ()),
    ("py-compile-unguarded", 'python3 -c "import py_compile; print(1)"', OP, ()),
]  # fmt: skip

# --- python -m py_compile / -m compileall ----------------------------------------------------
MODULES: list[Case] = [
    ("m-py-compile", "python3 -m py_compile a.py s/b.py", WR,
     ("/w/p/__pycache__", "/w/p/s/__pycache__")),
    ("m-py-compile-quiet", "python -m py_compile -q s/b.py", WR, ("/w/p/s/__pycache__",)),
    ("m-py-compile-glob", "python3 -m py_compile apps/*.py", WR, ("/w/p/apps/__pycache__",)),
    ("m-py-compile-glob-folder", "python3 -m py_compile */a.py", OP, (None,)),
    ("m-py-compile-variable", 'python3 -m py_compile "$f"', OP, (None,)),
    ("m-py-compile-stdin", "python3 -m py_compile -", WR, (None,)),
    ("m-py-compile-none", "python3 -m py_compile", WR, (None,)),
    ("m-py-compile-windows", "python -m py_compile C:\\w\\a.py", WR, ()),
    ("m-py-compile-isolated", "python3 -I -m py_compile a.py", WR, ("/w/p/__pycache__",)),
    ("m-compileall-dir", "python3 -m compileall src", WR, ("/w/p/src",)),
    ("m-compileall-options", "python3 -m compileall -q -f -j 2 -x tests -d / lib", WR,
     ("/w/p/lib",)),
    ("m-compileall-abbreviated", "python3 -m compileall --work=2 --hard -o 1 -o 2 lib", WR,
     ("/w/p/lib",)),
    ("m-compileall-file", "python3 -m compileall a.py", WR, ("/w/p/a.py", "/w/p/__pycache__")),
    ("m-compileall-legacy", "python3 -m compileall -b a.py", WR, ("/w/p/a.pyc",)),
    ("m-compileall-glob", "python3 -m compileall pkg/*", WR, ("/w/p/pkg",)),
    ("m-compileall-sys-path", "python3 -m compileall", WR, (None,)),
    ("m-compileall-sys-path-quiet", "python3 -m compileall -q -l", WR, (None,)),
    ("m-compileall-list", "python3 -m compileall -i files.txt", WR, (None,)),
    ("m-compileall-unknown-option", "python3 -m compileall --zz lib", OP, ("/w/p/lib",)),
    # controls
    ("m-py-compile-help", "python3 -I -m py_compile --help", R, ()),
    ("m-compileall-help", "python3 -I -m compileall -h lib", R, ()),
]  # fmt: skip

# --- git settings whose program the text does not show ---------------------------------------
GIT: list[Case] = [
    ("config-env-fsmonitor", "X='touch p; false' git --config-env=core.fsmonitor=X status", OP,
     (None,)),
    ("config-env-pager", "git --config-env=core.pager=P log", OP, (None,)),
    ("config-env-editor", "git --config-env=core.editor=E commit", OP, (None,)),
    ("config-env-ssh", "git --config-env=core.sshCommand=S fetch", OP, (None,)),
    ("config-env-diff-external", "git --config-env=diff.external=D diff", OP, (None,)),
    ("config-env-alias", "git --config-env=alias.x=A x", OP, (None,)),
    ("config-env-credential", "git --config-env=credential.helper=H fetch", OP, (None,)),
    ("config-env-include", "git --config-env=include.path=I status", OP, (None,)),
    ("config-env-separate", "git --config-env core.fsmonitor=F status", OP, (None,)),
    ("config-env-case", "git --config-env=CORE.FSMONITOR=F status", OP, (None,)),
    ("config-env-key-with-equals", "git --config-env=user.a=core.fsmonitor=F status", OP,
     (None,)),
    ("config-env-expansion", 'git --config-env="core.fsmonitor=$v" status', OP, (None,)),
    ("config-env-whole-expansion", 'git --config-env "$kv" status', OP, (None,)),
    ("config-env-show-signature", "git --config-env=log.showSignature=S log", OP, (None,)),
    ("c-expansion-pager", 'git -c "core.pager=$P" log', OP, (None,)),
    ("c-expansion-fsmonitor", "git -c core.fsmonitor=$F status", OP, (None,)),
    ("c-expansion-attached", 'git "-ccore.fsmonitor=$F" status', OP, (None,)),
    ("c-expansion-whole", 'git -c "$kv" status', OP, (None,)),
    ("c-expansion-key", 'git -c "$k=x" status', OP, (None,)),
    # controls: keys that run nothing, a literal command line still analysed
    ("config-env-user-name", "git --config-env=user.name=N log", R, ()),
    ("config-env-color", "git --config-env=color.ui=C status", R, ()),
    ("c-expansion-user-name", 'git -c "user.name=$n" log', R, ()),
    ("c-expansion-quoted-key", "git -c 'user.email='\"$e\" log", R, ()),
    ("c-literal-fsmonitor", "git -c core.fsmonitor='touch p' status", OP, ("/w/p/p",)),
    ("c-literal-user", "git -c user.name=x log", R, ()),
    ("config-env-no-variable", "git --config-env=core.fsmonitor status", OP, ()),
    ("subcommand-expansion", 'git "$sub" status', OP, ()),
]  # fmt: skip


@table(INLINE)
def test_inline_compilers_and_dbm(
    command: str, status: Status, named: tuple[str | None, ...]
) -> None:
    check(command, status, named)


@table(MODULES)
def test_python_m_compilers(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named)


@table(GIT)
def test_git_settings(command: str, status: Status, named: tuple[str | None, ...]) -> None:
    check(command, status, named)


# --- the main agent in enforce, default bash.opaque = "allow": each is denied -------------------
# (id, command, decision)
ENFORCED = [
    ("config-env-fsmonitor", "X='touch p; false' git --config-env=core.fsmonitor=X status", "deny"),
    ("c-expansion-pager", 'git -c "core.pager=$P" log', "deny"),
    ("py-compile", "python3 -c \"import py_compile; py_compile.compile('src/main.py')\"", "deny"),
    ("m-compileall", "python3 -m compileall src", "deny"),
    ("shelve", "python3 -c \"import shelve; shelve.open('sh').close()\"", "deny"),
    # controls
    ("config-env-user-name", "git --config-env=user.name=N log", "none"),
    ("git-status", "git status", "none"),
]


@pytest.mark.parametrize(
    ("command", "decision"), [e[1:] for e in ENFORCED], ids=[e[0] for e in ENFORCED]
)
def test_the_main_agent_is_denied_these_writes(tmp_path: Path, command: str, decision: str) -> None:
    p = make_project(tmp_path)
    p.configure('phase = "enforce"\n')
    _, rec = p.call(p.payload("Bash", {"command": command}))
    assert rec["decision"] == decision, rec
