"""Python inline code (`python -c`, `python - <<EOF`): file writes found with the ast module."""

from __future__ import annotations

import ast
import sys

from orchestrator_boundary.bash.inline_data import (
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
    SAFE_THIRD_PARTY,
)
from orchestrator_boundary.bash.model import EffectKind

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


def _imports(nodes: list[ast.AST]) -> tuple[dict[str, str], str]:
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root == "orchestrator_boundary":
                    return aliases, CONTROL_IMPORT
                if root not in sys.stdlib_module_names and root not in SAFE_THIRD_PARTY:
                    return aliases, f"imports {alias.name}: its code is not analyzed"
                aliases[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            root = module.split(".")[0]
            if root == "orchestrator_boundary":
                return aliases, CONTROL_IMPORT
            if node.level or (root not in sys.stdlib_module_names and root not in SAFE_THIRD_PARTY):
                return aliases, f"imports from {module or '.'}: its code is not analyzed"
            for alias in node.names:
                if alias.name == "*":
                    return aliases, f"from {module} import *: names the analysis cannot follow"
                aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
    return aliases, ""


def _opens(name: str, call: ast.Call, aliases: dict[str, str], found: list[Found]) -> bool:
    """os.open, dbm/shelve.open, fileinput in place, urlretrieve, py_compile: found writes."""
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
            found.append((W, _literal(_arg(call, 0, "file"), aliases), f"python {name}()"))
    elif name in PY_INPLACE:  # fileinput with inplace=True rewrites its files
        inplace = _arg(call, 1, "inplace")
        if inplace is not None and not (isinstance(inplace, ast.Constant) and not inplace.value):
            found.append((W, _literal(_arg(call, 0, "files"), aliases), f"python {name}()"))
    elif name in PY_WRITE_UNKNOWN:
        found.append((W, _literal(_arg(call, 1, "filename"), aliases), f"python {name}()"))
    else:
        return False
    return True


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
    reason = reason or _escapes(nodes[: MAX_NODES + 1], aliases)
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
