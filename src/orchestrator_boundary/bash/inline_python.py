"""Python inline code (`python -c`, `python - <<EOF`): file writes found with the ast module."""

from __future__ import annotations

import ast
import sys

from orchestrator_boundary.bash.inline_allowed import PY_NAMES, known_module, module_of
from orchestrator_boundary.bash.inline_data import (
    PY_COMPILES,
    PY_DELETE_ARG0,
    PY_FLAG_OPEN,
    PY_INPLACE,
    PY_INTROSPECTION,
    PY_MOVE,
    PY_OPAQUE_CALLS,
    PY_OPAQUE_PREFIXES,
    PY_OPEN_LIKE,
    PY_PATH_METHODS,
    PY_RISKY_MODULES,
    PY_SHUTIL_READS,
    PY_WRITE_ARG0,
    PY_WRITE_ARG1,
    PY_WRITE_METHODS,
    PY_WRITE_UNKNOWN,
)
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.py_compiled import DB_SUFFIXES, pycache

Found = tuple[EffectKind, str | None, str]
W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE
MAX_NODES = 20_000
CONTROL_IMPORT = "imports orchestrator_boundary: may change the boundary itself"


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(aliases.get(node.id, node.id))
        return ".".join(reversed(parts))
    if isinstance(node, ast.Call):
        parts.append("<call>")
        return ".".join(reversed(parts))
    if parts:
        parts.append("<expr>")
        return ".".join(reversed(parts))
    return None


def _literal(node: ast.AST | None, aliases: dict[str, str]) -> str | None:
    """A path that is a string constant, Path("c"), Path("a") / "b" or os.path.join("a", "b")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _literal(node.left, aliases), _literal(node.right, aliases)
        return None if left is None or right is None else left.rstrip("/") + "/" + right
    if isinstance(node, ast.Call):
        name = _dotted(node.func, aliases) or ""
        vals = [_literal(a, aliases) for a in node.args]
        if (
            name
            in (
                "pathlib.Path",
                "Path",
                "pathlib.PurePath",
                "os.path.expanduser",
                "os.path.abspath",
                "os.path.normpath",
            )
            and len(vals) == 1
        ):
            return vals[0]
        if name in ("os.path.join", "pathlib.Path", "Path") and vals and None not in vals:
            return "/".join(v.rstrip("/") for v in vals if v is not None)
    return None


def _arg(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _writes_mode(mode: ast.AST | None) -> bool:
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(c in mode.value for c in "wax+")
    return True  # computed mode: assume the worst


def _unknown_import(name: str) -> str:
    """Why importing ``name`` makes the code opaque; a private module of the standard library
    (`_io`, `_posixsubprocess`) mirrors writers, so the code's strings count as written."""
    if name.startswith("_"):
        return f"imports {name}: a private module, not modelled"
    return f"imports {name}: not known to be harmless"


def _imports(nodes: list[ast.AST]) -> tuple[dict[str, str], str]:
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root == "orchestrator_boundary":
                    return aliases, CONTROL_IMPORT
                if not known_module(alias.name):
                    return aliases, _unknown_import(alias.name)
                aliases[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            root = module.split(".")[0]
            if root == "orchestrator_boundary":
                return aliases, CONTROL_IMPORT
            if node.level or not known_module(module):
                return aliases, _unknown_import(module or ".")
            for alias in node.names:
                if alias.name == "*":
                    return aliases, f"from {module} import *: names the analysis cannot follow"
                aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
    return aliases, ""


def _opens(name: str, call: ast.Call, aliases: dict[str, str], found: list[Found]) -> bool:
    """os.open, dbm/shelve.open, fileinput in place, urlretrieve, compilers: found writes."""
    if name == "os.open":
        flags = _arg(call, 1, "flags")
        if flags is None or _dotted(flags, aliases) != "os.O_RDONLY":
            found.append((W, _literal(_arg(call, 0, "path"), aliases), "python os.open()"))
    elif name in PY_FLAG_OPEN:  # dbm.open / shelve.open: flag "c" (shelve's default) creates
        flag = _arg(call, 1, "flag")
        default = "c" if name == "shelve.open" else "r"
        if not (isinstance(flag, ast.Constant) and flag.value == "r") and (
            flag is not None or default == "c"
        ):
            keyword = "filename" if name == "shelve.open" else "file"
            base = _literal(_arg(call, 0, keyword), aliases)
            # the dbm module picks a backend: NAME (gnu, sqlite3), NAME.db or NAME.dir/.pag
            # (ndbm), NAME.dat/.dir/.bak (dumb)
            for suffix in DB_SUFFIXES if base is not None else ("",):
                found.append((W, None if base is None else base + suffix, f"python {name}()"))
    elif name in PY_COMPILES:
        found += [(W, target, f"python {name}()") for target in _compiled(name, call, aliases)]
    elif name in PY_INPLACE:  # fileinput with inplace=True rewrites its files
        inplace = _arg(call, 1, "inplace")
        if inplace is not None and not (isinstance(inplace, ast.Constant) and not inplace.value):
            found.append((W, _literal(_arg(call, 0, "files"), aliases), f"python {name}()"))
    elif name in PY_WRITE_UNKNOWN:
        found.append((W, _literal(_arg(call, 1, "filename"), aliases), f"python {name}()"))
    else:
        return False
    return True


def _compiled(name: str, call: ast.Call, aliases: dict[str, str]) -> list[str | None]:
    """Where py_compile / compileall write bytecode: ``__pycache__`` beside the source (or the
    ``cfile`` given; ``FILE.pyc`` with compileall's legacy=True), anywhere in compile_dir's
    tree, and in every folder on sys.path for compile_path (None: unknown)."""
    if name == "compileall.compile_path":
        return [None]
    if name == "compileall.compile_dir":
        return [_literal(_arg(call, 0, "dir"), aliases)]
    keyword = "file" if name == "py_compile.compile" else "fullname"
    source = _literal(_arg(call, 0, keyword), aliases)
    if source is None:
        return [None]
    cfile = _arg(call, 1, "cfile") if name == "py_compile.compile" else None
    if cfile is not None and not (isinstance(cfile, ast.Constant) and cfile.value is None):
        return [_literal(cfile, aliases)]
    legacy = _arg(call, 5, "legacy") if name == "compileall.compile_file" else None
    if legacy is not None and not (isinstance(legacy, ast.Constant) and not legacy.value):
        return [pycache(source), source + "c"]
    return [pycache(source)]


def _call(call: ast.Call, aliases: dict[str, str], found: list[Found]) -> str:
    if not isinstance(call.func, ast.Name | ast.Attribute):
        return "a call the analysis cannot name (a computed callable)"
    name = _dotted(call.func, aliases) or "<call>"
    if name == "getattr" and (
        len(call.args) < 2
        or not isinstance(call.args[1], ast.Constant)
        or _risky_value(_dotted(call.args[0], aliases) or "")
        or str(call.args[1].value) in PY_PATH_METHODS
        or str(call.args[1].value) in PY_WRITE_METHODS
    ):
        return "getattr: a callable the analysis cannot name"
    short = name.rsplit(".", 1)[-1]
    literal = call.args[0] if call.args else None
    if (
        name in ("exec", "eval")
        and isinstance(literal, ast.Constant)
        and isinstance(literal.value, str)
    ):  # exec of a literal: the code it runs is in sight
        inner, reason = analyze_python(literal.value)
        found.extend(inner)
        return reason
    if name in PY_OPAQUE_CALLS or name.startswith(PY_OPAQUE_PREFIXES):
        return f"calls {name}: runs other code"
    if name in PY_OPEN_LIKE:
        if _writes_mode(_arg(call, 1, "mode")):
            found.append((W, _literal(_arg(call, 0, "file"), aliases), f"python {name}()"))
    elif _opens(name, call, aliases, found):
        pass
    elif name in PY_DELETE_ARG0:
        found.append((D, _literal(_arg(call, 0, "path"), aliases), f"python {name}()"))
    elif name in PY_MOVE:
        found.append((D, _literal(_arg(call, 0, "src"), aliases), f"python {name}() source"))
        found.append((W, _literal(_arg(call, 1, "dst"), aliases), f"python {name}() target"))
    elif name in PY_WRITE_ARG1:
        found.append((W, _literal(_arg(call, 1, "dst"), aliases), f"python {name}()"))
    elif name in PY_WRITE_ARG0:
        kind = C if name.endswith(("chmod", "chown", "utime", "lchown", "symlink", "link")) else W
        target = _arg(call, 0, "path") or _arg(call, 99, "filename") or _arg(call, 99, "file")
        found.append((kind, _literal(target, aliases), f"python {name}()"))
    elif isinstance(call.func, ast.Attribute) and short in PY_PATH_METHODS:
        receiver = call.func.value
        kind = PY_PATH_METHODS[short]
        if short == "open" and not _writes_mode(_arg(call, 0, "mode")):
            return ""
        if _dotted(receiver, aliases) in ("os", "shutil", "io", "sys", "os.path"):
            return ""  # os.mkdir etc. are matched by full name above
        if isinstance(receiver, ast.Constant | ast.JoinedStr) or (
            short == "replace" and len(call.args) >= 2
        ):
            return ""  # "text".replace(a, b), "name".open? : string methods, not paths
        found.append((kind, _literal(receiver, aliases), f"python Path.{short}()"))
        if short in ("rename", "replace", "symlink_to", "hardlink_to", "move", "copy"):
            found.append((W, _literal(_arg(call, 0, "target"), aliases), f"python Path.{short}()"))
    elif isinstance(call.func, ast.Attribute) and short in PY_WRITE_METHODS:
        found.append((W, _literal(_arg(call, 0, "path"), aliases), f"python .{short}()"))
    elif name.startswith("shutil.") and name not in PY_SHUTIL_READS:
        found.append((W, None, f"python {name}()"))  # any other shutil function writes
    return ""


def _risky_value(name: str) -> bool:
    """A callable or module that, used as a value, could later write or run code unseen."""
    return (
        name in PY_OPEN_LIKE
        or name in PY_DELETE_ARG0
        or name in PY_MOVE
        or name in PY_WRITE_ARG0
        or name in PY_WRITE_ARG1
        or name in PY_OPAQUE_CALLS
        or name in PY_INTROSPECTION
        or name.startswith(PY_OPAQUE_PREFIXES)
        or name in PY_RISKY_MODULES
        or (name.startswith("shutil.") and name not in PY_SHUTIL_READS)
    )


_MODELLED = (
    PY_OPEN_LIKE | PY_DELETE_ARG0 | PY_MOVE | PY_WRITE_ARG0 | PY_WRITE_ARG1 | PY_WRITE_UNKNOWN
) | (PY_FLAG_OPEN | PY_INPLACE | PY_OPAQUE_CALLS | PY_COMPILES | {"os.open"})
# a module's attribute that is named like another module but is not one
_NOT_MODULES = frozenset({("datetime", "time")})


def _unlisted(dotted: str) -> str:
    """Why a name reached through a module is not known to be harmless ("" when it is): a name
    outside the module's list (inline_allowed.PY_NAMES) that the writer tables do not model, or
    a private name or another module reached through it (`os.path.os`, `random._os`)."""
    found = module_of(dotted)
    if found is None or not found[1]:
        return ""
    module, name = found
    if module in PY_NAMES and name not in PY_NAMES[module] and not name.isupper():  # O_CREAT
        full = f"{module}.{name}"
        modelled = full in _MODELLED or full.startswith(PY_OPAQUE_PREFIXES)
        if not modelled and module != "shutil":  # any other shutil name is a write (_call)
            return f"python {full}: not modelled, not known to be harmless"
    own = module.rsplit(".", 1)[-1]
    # a listed module's first name is checked above (`shutil.copy` is no `copy` module)
    first = module.count(".") + (2 if module in PY_NAMES else 1)
    for part in dotted.split(".")[first:]:
        if part.startswith("<"):
            break
        if part.startswith("_") or (
            part in sys.stdlib_module_names and part != own and (own, part) not in _NOT_MODULES
        ):
            return f"python reaches {part} through {module}: names the analysis cannot follow"
    return ""


def _names(nodes: list[ast.AST], aliases: dict[str, str]) -> str:
    """The first name a module hands out that is not known to be harmless, as a reason."""
    for node in nodes:
        if isinstance(node, ast.Attribute | ast.Name):
            reason = _unlisted(_dotted(node, aliases) or "")
            if reason:
                return reason
    return ""


def _escapes(nodes: list[ast.AST], aliases: dict[str, str]) -> str:
    """Why a writing callable escapes the analysis (``f = os.remove``, ``map(os.remove, l)``,
    ``x = os``, ``obj.__dict__``); "" when none does."""
    named = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            named.add(id(node.func))
        elif isinstance(node, ast.Attribute):
            named.add(id(node.value))
            if node.attr.startswith("__") and node.attr not in ("__name__", "__file__", "__doc__"):
                return f"python reaches {node.attr}: names the analysis cannot follow"
    for node in nodes:
        if isinstance(node, ast.Name | ast.Attribute) and id(node) not in named:
            name = _dotted(node, aliases) or ""
            if _risky_value(name):
                return f"python uses {name} as a value: its calls cannot be followed"
    return ""


def analyze_python(code: str) -> tuple[list[Found], str]:
    """(writes found, opaque reason or "")."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return [], "python code does not parse"
    nodes = list(ast.walk(tree))
    aliases, reason = _imports(nodes)
    if reason == CONTROL_IMPORT:  # this product's own code, run by an agent: tampering
        return [(EffectKind.CONTROL, None, "python imports orchestrator_boundary")], reason
    reason = (
        reason
        or _escapes(nodes[: MAX_NODES + 1], aliases)
        or _names(nodes[: MAX_NODES + 1], aliases)
    )
    if reason:
        return [], reason
    found: list[Found] = []
    for node in nodes[: MAX_NODES + 1]:
        if isinstance(node, ast.Call):
            reason = _call(node, aliases, found)
            if reason:
                return found, reason
    if len(nodes) > MAX_NODES + 1:
        return found, "python code too large to analyze"
    return found, ""
