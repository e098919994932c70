"""Python inline code (`python -c`, `python - <<EOF`): file writes found with the ast module."""

from __future__ import annotations

import ast
import sys

from orchestrator_boundary.bash.inline_data import (
    PY_DELETE_ARG0,
    PY_MOVE,
    PY_OPAQUE_CALLS,
    PY_OPAQUE_PREFIXES,
    PY_OPEN_LIKE,
    PY_PATH_METHODS,
    PY_WRITE_ARG0,
    PY_WRITE_ARG1,
    PY_WRITE_METHODS,
    SAFE_THIRD_PARTY,
)
from orchestrator_boundary.bash.model import EffectKind

Found = tuple[EffectKind, str | None, str]
W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE
MAX_NODES = 20_000


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
                if root not in sys.stdlib_module_names and root not in SAFE_THIRD_PARTY:
                    return aliases, f"imports {alias.name}: its code is not analyzed"
                aliases[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            root = module.split(".")[0]
            if node.level or (root not in sys.stdlib_module_names and root not in SAFE_THIRD_PARTY):
                return aliases, f"imports from {module or '.'}: its code is not analyzed"
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
    return aliases, ""


def _call(call: ast.Call, aliases: dict[str, str], found: list[Found]) -> str:
    name = _dotted(call.func, aliases) or "<call>"
    short = name.rsplit(".", 1)[-1]
    if name in PY_OPAQUE_CALLS or name.startswith(PY_OPAQUE_PREFIXES):
        return f"calls {name}: runs other code"
    if (
        name == "getattr"
        and call.args
        and _dotted(call.args[0], aliases) in ("os", "shutil", "subprocess")
    ):
        return "getattr on a module: indirect call"
    if name in PY_OPEN_LIKE:
        if _writes_mode(_arg(call, 1, "mode")):
            found.append((W, _literal(_arg(call, 0, "file"), aliases), f"python {name}()"))
    elif name == "os.open":
        flags = ast.dump(call.args[1]) if len(call.args) > 1 else ""
        if any(f in flags for f in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")):
            found.append((W, _literal(_arg(call, 0, "path"), aliases), "python os.open()"))
    elif name in PY_DELETE_ARG0:
        found.append((D, _literal(_arg(call, 0, "path"), aliases), f"python {name}()"))
    elif name in PY_MOVE:
        found.append((D, _literal(_arg(call, 0, "src"), aliases), f"python {name}() source"))
        found.append((W, _literal(_arg(call, 1, "dst"), aliases), f"python {name}() target"))
    elif name in PY_WRITE_ARG1:
        found.append((W, _literal(_arg(call, 1, "dst"), aliases), f"python {name}()"))
    elif name in PY_WRITE_ARG0:
        kind = C if name.endswith(("chmod", "chown", "utime", "lchown", "symlink", "link")) else W
        found.append((kind, _literal(_arg(call, 0, "path"), aliases), f"python {name}()"))
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
    return ""


def analyze_python(code: str) -> tuple[list[Found], str]:
    """(writes found, opaque reason or "")."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return [], "python code does not parse"
    nodes = list(ast.walk(tree))
    aliases, reason = _imports(nodes)
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
