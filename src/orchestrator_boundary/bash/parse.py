"""tree-sitter-bash access: the language object is built once, on first use."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from orchestrator_boundary.bash.budget import Budget


@lru_cache(maxsize=1)
def _language() -> Any:
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


# One parser per thread, reused for every parse. A parser keeps no state between complete parses
# (no timeout or cancellation is set, so every parse runs to the end), and a tree it returned
# stays valid when it parses again (nested shell code does, while the outer tree is walked).
# Per thread, because a Parser must not run two parses at once.
_parsers = threading.local()


def parse(source: bytes) -> Any:
    """The syntax tree's root node for ``source``."""
    parser = getattr(_parsers, "parser", None)
    if parser is None:
        import tree_sitter

        parser = _parsers.parser = tree_sitter.Parser(_language())
    return parser.parse(source).root_node


def decode(raw: bytes) -> str:
    """Node bytes as text; a slice may cut an invalid sequence, which becomes U+FFFD."""
    try:
        return raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")


def text(node: Any) -> str:
    """A node's text."""
    return decode(node.text)


def text_in(code: str | None, node: Any) -> str:
    """``text(node)``, cut from ``code`` when the walk has it: the parsed text, when it is ASCII
    (byte offsets are then character offsets)."""
    if code is None:
        return text(node)
    return code[node.start_byte : node.end_byte]


def first_error(root: Any, budget: Budget) -> str:
    """A message naming the first ERROR/MISSING node, or "" when the tree is clean."""
    if not root.has_error:
        return ""
    stack = [root]
    while stack:
        budget.spend()
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            row, col = node.start_point
            if node.is_missing:
                what = f"missing {node.type!r}"
            else:
                what = f"unexpected {text(node)[:40]!r}"
            return f"syntax error at line {row + 1}, column {col + 1}: {what}"
        stack.extend(c for c in reversed(node.children) if c.has_error or c.is_missing)
    return "syntax error"
