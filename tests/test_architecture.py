"""The house's shape, checked on the source (ADR 0020): no import cycles, small modules and
functions, and a core that does no I/O and reads no environment."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "orchestrator_boundary"

# The shell: the modules that may touch files, sockets, the clock and the environment. Every
# other module is core: it works on the values it is given (file-system facts come through
# the ``paths.FileSystem`` interface). ``config`` holds the model and its one-file loader.
SHELL = {
    "agent_defs",
    "doctor_agents",
    "audit",
    "audit_lock",  # the trail lock: a clock and fcntl
    "cli",
    "cli_project",  # which project a command acts on: the folders above, the settings files
    "client",
    "cmd_check",
    "cmd_demo",
    "cmd_doctor",
    "cmd_install",
    "cmd_phase",
    "cmd_replay",
    "cmd_report",
    "cmd_trace",
    "config",
    "daemon",
    "doctor_context",
    "doctor_hooks_off",
    "doctor_probe",
    "doctor_start",
    "doctor_surroundings",
    "doctor_trail",
    "evaluators",
    "field_check",  # the field check: snapshots, settings, the state store (ADR 0029)
    "field_cli",
    "field_scan",
    "field_store",
    "fs",
    "hook_main",
    "hook_routes",
    "launcher",
    "ledger",
    "peer",  # who is behind the evaluator's socket: /proc and socket options (ADR 0026)
    "progress",
    "pytest_plugin",
    "registration",
    "report",
    "report_html",
    "report_model",  # dates as values; it never asks the clock
    "report_signals",
    "report_trail",
    "rescue",  # what an entry does when wire or peer cannot load (ADR 0084)
    "settings_edit",
    "settings_files",
    "setups",
    "shell",
    "state",
    "state_schema",
    "subagent_permissions",
    "testing",
    "user_scope",  # the projects a user-scope install guards (ADR 0052)
    "wire",
}
# What the core may not use: file, process, socket, clock and environment access.
BANNED_MODULES = {"subprocess", "socket", "_socket", "shutil", "tempfile", "io", "fcntl", "glob"}
BANNED_ATTRS = {
    "os": {
        "environ", "environb", "getenv", "getcwd", "stat", "lstat", "open", "read", "write",
        "scandir", "walk", "listdir", "remove", "unlink", "rename", "replace", "mkdir",
        "makedirs", "chdir", "fork", "system", "readlink",
    },
    "os.path": {
        "realpath", "exists", "isdir", "isfile", "islink", "getmtime", "getsize", "samefile",
        "expanduser", "abspath",
    },
    "sys": {"stdin", "stdout", "stderr", "argv"},
    "time": {"time", "monotonic", "perf_counter", "sleep"},
    "datetime": {"datetime", "date"},
}  # fmt: skip
BANNED_CALLS = {"open", "print", "input"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every package module ``name`` imports, at any level (functions and TYPE_CHECKING too)."""
    is_pkg = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for a in node.names:  # a submodule by name, else a name from the module itself
                sub = f"{module}.{a.name}"
                found.update([sub] if sub in known else [module] if module in known else [])
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_check_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.py", tmp_path / "b.py", tmp_path / "c.py"
    a.write_text("def f() -> None:\n    from pkg import b\n")
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import X\n")
    c.write_text("from . import a\n")
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    graph = {f"pkg.{p.stem}": _imports(f"pkg.{p.stem}", p, known) for p in (a, b, c)}
    assert graph == {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert _cycles(graph) == [{"pkg.a", "pkg.b", "pkg.c"}]


def test_the_client_and_the_evaluator_share_only_the_wire_leaf() -> None:
    modules = _modules()
    known = set(modules)
    wire = "orchestrator_boundary.wire"
    peer = "orchestrator_boundary.peer"
    assert _imports(wire, modules[wire], known) == {"orchestrator_boundary"}  # __version__
    assert _imports(peer, modules[peer], known) == {wire}  # the client's checks (ADR 0026)
    client = _imports(
        "orchestrator_boundary.client", modules["orchestrator_boundary.client"], known
    )
    rescue = "orchestrator_boundary.rescue"  # what loads when wire or peer cannot (ADR 0084)
    assert _imports(rescue, modules[rescue], known) == set()
    assert client == {wire, peer, rescue, "orchestrator_boundary.shell"}  # shell: in-process


def test_no_module_over_400_lines() -> None:
    long = {p.name: n for p in PKG.rglob("*.py") if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _is_table(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function that returns one literal table (a data table, not logic)."""
    body = [
        s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    return (
        len(body) == 1
        and isinstance(body[0], ast.Return)
        and isinstance(body[0].value, ast.Dict | ast.List | ast.Tuple | ast.Set)
    )


def test_no_function_over_60_lines_outside_data_tables() -> None:
    long = []
    for path in PKG.rglob("*.py"):  # bash/ included
        for fn in _functions(ast.parse(path.read_text())):
            lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if lines > 60 and not _is_table(fn):
                long.append(f"{path.name}:{fn.name} ({lines})")
    assert long == []


def _violations(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text())
    aliases: dict[str, str] = {}  # local name -> the module or "module.attr" it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in BANNED_MODULES:
                    yield f"import {a.name}"
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    aliases[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] in BANNED_MODULES:
                yield f"from {node.module} import ..."
            for a in node.names:
                if a.name in BANNED_ATTRS.get(node.module, ()):
                    yield f"from {node.module} import {a.name}"
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in BANNED_CALLS
            and node.func.id not in aliases
        ):
            yield f"{node.func.id}()"
        if isinstance(node, ast.Attribute):
            chain = []
            cur: ast.expr = node
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name) and cur.id in aliases:
                owner = ".".join([aliases[cur.id], *reversed(chain[1:])])
                if chain[0] in BANNED_ATTRS.get(owner, ()):
                    yield f"{owner}.{chain[0]}"


def _core() -> list[Path]:
    return [p for p in sorted(PKG.rglob("*.py")) if p.parent != PKG or p.stem not in SHELL]


@pytest.mark.parametrize("path", _core(), ids=lambda p: str(p.relative_to(PKG)))
def test_the_core_does_no_io_and_reads_no_environment(path: Path) -> None:
    assert list(_violations(path)) == []


def test_the_check_sees_what_it_bans(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nimport time\nfrom os import path as p\nimport socket\n"
        "a = os.environ\nb = os.path.realpath('x')\nc = time.monotonic()\nd = open('f')\n"
        "e = p.exists('x')\n"
    )
    found = sorted(_violations(sample))
    expected = ["import socket", "open()", "os.environ", "os.path.exists", "os.path.realpath"]
    assert found == sorted([*expected, "time.monotonic"])
