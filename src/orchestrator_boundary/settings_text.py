"""The text of an edited settings file, keeping the file's own layout (ADR 0052).

``install``, ``uninstall`` and ``phase`` compute a new settings document from the old one
(``settings_edit``). A team reviews the change in a pull request, so the new text changes only
what the edit changed: a value that stayed equal keeps its exact text (one-line arrays, spacing,
blank lines, escapes), and a new or changed value is written in the style of the container it
lands in (one line inside a one-line container; else the container's indentation and line
ending). ``patch`` returns None when it cannot do that safely (duplicate keys, keys moved), and
the caller writes the whole document instead. Whatever it returns parses to exactly the new
document, keys in the same order, or it returns None. Pure: text in, text out.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

_WS = " \t\r\n"
_SCALAR = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null')


class _Unsafe(Exception):
    """The text cannot be patched member by member; write the whole document."""


@dataclass
class Node:
    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    keys: list[str] = field(default_factory=list)  # an object's keys, in order
    starts: list[int] = field(default_factory=list)  # where each member's text starts
    children: list[Node] = field(default_factory=list)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _parse(text: str, i: int) -> Node:
    i = _skip(text, i)
    if i >= len(text):
        raise _Unsafe("end of text")
    opening = text[i]
    if opening not in "[{":
        m = _SCALAR.match(text, i)
        if not m:
            raise _Unsafe(f"unexpected text at {i}")
        return Node(i, m.end(), "scalar")
    node = Node(i, i, "object" if opening == "{" else "array")
    closing = "}" if opening == "{" else "]"
    i = _skip(text, i + 1)
    while text[i] != closing:
        node.starts.append(i)
        if opening == "{":
            key = _parse(text, i)
            name = json.loads(text[key.start : key.end])
            if not isinstance(name, str) or name in node.keys:
                raise _Unsafe("a duplicate key")  # json.loads keeps the last; so would we not
            node.keys.append(name)
            i = _skip(text, key.end)
            i += 1  # the colon
        child = _parse(text, i)
        node.children.append(child)
        i = _skip(text, child.end)
        if text[i] == ",":
            i = _skip(text, i + 1)
    node.end = i + 1
    return node


@dataclass(frozen=True)
class Style:
    newline: str  # "\n" or "\r\n"
    unit: str  # one level of indentation


def _line_indent(text: str, i: int) -> str:
    """The whitespace that starts the line holding position ``i``."""
    start = text.rfind("\n", 0, i) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


def _render(value: Any, multiline: bool, indent: str, style: Style) -> str:
    """``value`` written at a place whose line starts with ``indent``."""
    if not multiline:
        return json.dumps(value, ensure_ascii=False)
    text = json.dumps(value, ensure_ascii=False, indent=style.unit)
    return text.replace("\n", style.newline + indent)


def _multiline(text: str, node: Node, outer: bool) -> bool:
    """Whether ``node`` spreads over lines; an empty container or a scalar, which shows no
    style of its own, takes the style of the container it is in (``outer``)."""
    return "\n" in text[node.start : node.end] if node.children else outer


def _patch(text: str, node: Node, old: Any, new: Any, style: Style, outer: bool) -> str:
    """The text of ``new`` at ``node``, whose text holds ``old``."""
    if old == new and type(old) is type(new) and _same_order(old, new):
        return text[node.start : node.end]
    if node.kind == "object" and isinstance(old, dict) and isinstance(new, dict):
        return _patch_members(text, node, old, new, style, outer)
    if node.kind == "array" and isinstance(old, list) and isinstance(new, list):
        return _patch_members(text, node, old, new, style, outer)
    return _render(new, _multiline(text, node, outer), _line_indent(text, node.start), style)


def _same_order(old: Any, new: Any) -> bool:
    return json.dumps(old, ensure_ascii=False) == json.dumps(new, ensure_ascii=False)


def _plan(node: Node, old: Any, new: Any) -> list[tuple[int | None, Any]]:
    """(index of the old member it stands for or None, new member) for each new member; an
    object's new member is its (key, value)."""
    if isinstance(new, dict):
        kept = [k for k in node.keys if k in new]
        if list(new)[: len(kept)] != kept:
            raise _Unsafe("keys moved")
        return [(node.keys.index(k) if k in node.keys else None, (k, v)) for k, v in new.items()]
    canon = (
        [json.dumps(x, sort_keys=True) for x in old],
        [json.dumps(x, sort_keys=True) for x in new],
    )
    out: list[tuple[int | None, Any]] = []
    matcher = difflib.SequenceMatcher(None, canon[0], canon[1], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            out.extend((i1 + n, new[j1 + n]) for n in range(j2 - j1))
        else:
            out.extend((None, new[j]) for j in range(j1, j2))
    return out


def _patch_members(text: str, node: Node, old: Any, new: Any, style: Style, outer: bool) -> str:
    multiline = _multiline(text, node, outer)
    olds = list(old.values()) if isinstance(old, dict) else old
    try:
        plan = _plan(node, old, new)
    except _Unsafe:  # keys moved: this container is written afresh, in its own style
        plan = []
    if not plan or not olds:  # an empty container filled, or a container emptied
        return _render(new, multiline, _line_indent(text, node.start), style)
    first = node.starts[0]
    member_indent = _line_indent(text, first) if multiline else ""
    outer_indent = _line_indent(text, node.start)
    if multiline and member_indent.startswith(outer_indent) and member_indent != outer_indent:
        style = Style(style.newline, member_indent[len(outer_indent) :])  # this file's unit
    seps = [text[node.children[n].end : node.starts[n + 1]] for n in range(len(olds) - 1)]
    default_sep = seps[0] if seps else ("," + style.newline + member_indent if multiline else ", ")
    colon = ": "
    if isinstance(old, dict):
        colon = text[_key_end(text, node.starts[0]) : node.children[0].start]
    parts: list[str] = []
    previous: int | None = None
    for n, (index, member) in enumerate(plan):
        if n:
            consecutive = index is not None and previous is not None and index == previous + 1
            parts.append(seps[previous] if consecutive and previous is not None else default_sep)
        if isinstance(old, dict):
            key, value = member
            if index is None:
                parts.append(json.dumps(key, ensure_ascii=False) + colon)
                parts.append(_render(value, multiline, member_indent, style))
            else:
                parts.append(text[node.starts[index] : node.children[index].start])
                parts.append(
                    _patch(text, node.children[index], olds[index], value, style, multiline)
                )
        elif index is None:
            parts.append(_render(member, multiline, member_indent, style))
        else:
            parts.append(_patch(text, node.children[index], olds[index], member, style, multiline))
        previous = index
    head = text[node.start : first]
    return head + "".join(parts) + text[node.children[-1].end : node.end]


def _key_end(text: str, start: int) -> int:
    m = _SCALAR.match(text, start)
    if not m:
        raise _Unsafe("a key that is not a string")
    return m.end()


def patch(old_text: str, old: Any, new: Any, unit: str = "  ") -> str | None:
    """``old_text`` (which parses to ``old``) changed to hold ``new``, keeping the layout of
    everything that did not change; None when that cannot be done safely."""
    try:
        root = _parse(old_text, 0)
        if _skip(old_text, root.end) != len(old_text):
            raise _Unsafe("text after the document")
        style = Style("\r\n" if "\r\n" in old_text else "\n", unit)
        body = _patch(old_text, root, old, new, style, True)
    except (_Unsafe, IndexError, ValueError):
        return None
    text = old_text[: root.start] + body + old_text[root.end :]
    try:
        again = json.loads(text)
    except ValueError:
        return None
    return text if _same_order(again, new) and again == new else None
