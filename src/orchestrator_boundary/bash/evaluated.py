"""Text that Bash evaluates as code although it is not a command (ADR 0021).

Bash evaluates a variable's value as an arithmetic expression in ``$((x))``, ``((x))``,
``for ((...))``, ``[[ $x -eq 0 ]]``, array subscripts (``${a[$i]}``, ``a[$i]=1``) and ``declare
-i``; an array subscript inside that value runs command substitutions
(``x='a[$(touch f)]'; echo $((x))`` creates ``f``). ``${x@P}`` expands a value like a prompt,
``${!x}`` names another variable through a value. None of this is a literal, so a command that
holds it is opaque. Literal arithmetic (``$((1 + 2))``) is not.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from typing import Any

from orchestrator_boundary.bash.budget import Budget
from orchestrator_boundary.bash.envvars import settable
from orchestrator_boundary.bash.model import Command, Status

_ARITH_TEST_OPS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_VALUE_NODES = frozenset(
    {
        "variable_name",
        "word",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "subscript",
        "string",
        "raw_string",
        "concatenation",
    }
)
_COMPUTED = frozenset(
    {"string", "simple_expansion", "expansion", "concatenation", "command_substitution"}
)
# a cheap test on the parsed bytes: text without any of these has nothing evaluated
_MARKERS = re.compile(
    rb"\(\(|\[|-(?:eq|ne|lt|le|gt|ge|i|n)|@P|\$\{!|declare|local|export|typeset|readonly"
    rb"|unset|for\s|select\s|\$\{[A-Za-z0-9_@*#?$!-]+[:=]"
)


def _reads_a_value(node: Any, budget: Budget) -> bool:
    stack = list(node.named_children)
    while stack:
        budget.spend()
        cur = stack.pop()
        if cur.type in _VALUE_NODES:
            return True
        stack.extend(cur.named_children)
    return False


def _reason(node: Any, budget: Budget) -> str:
    kind = node.type
    text = node.text.decode("utf-8", "replace") if kind in ("expansion", "test_command") else ""
    if kind == "arithmetic_expansion" or kind == "c_style_for_statement":
        return "arithmetic on a variable's value" if _reads_a_value(node, budget) else ""
    if kind == "compound_statement" and node.children and node.children[0].type == "((":
        return "arithmetic on a variable's value" if _reads_a_value(node, budget) else ""
    if kind == "subscript":
        index = node.named_children[1:]
        if any(c.type != "number" and text_of(c) not in ("@", "*") for c in index):
            return "an array subscript evaluates a value"
        return ""
    if kind == "expansion":
        if "@P}" in text or (text.startswith("${!") and text[-2] not in "*@"):
            return "an expansion evaluates a value as code"
        return _expansion_reason(node)
    if kind == "unset_command":
        for child in node.named_children:
            if "[" in text_of(child) and not _number_subscript(text_of(child).strip("'\"")):
                return "unset evaluates a subscript"
            if text_of(child).replace("\\", "").strip("'\"") == "PATH":
                # with PATH unset Bash looks commands up in the working folder (observed:
                # `unset PATH; ls` ran ./ls)
                return "unset PATH: later commands are looked up in the working folder"
            if child.type == "word" and any(c in text_of(child) for c in "*?{"):
                # `unset *` beside a file named `a[$(touch${IFS}z)]` ran touch (observed)
                return "unset of a pattern: a file name may be a subscript"
            parts = child.named_children if child.type == "string" else [child]
            if any(c.type in _COMPUTED for c in parts):
                # `unset "$x"`: the name comes at run time, a subscript in it is evaluated
                return "unset evaluates a name computed at run time"
    if kind == "for_statement":  # `for NAME in ...` / `select NAME in ...` set NAME
        variable = node.child_by_field_name("variable")
        name = text_of(variable) if variable is not None else ""
        if name and not settable(name):
            return f"for / select sets {name}: the shell or a later program may run other code"
    if kind == "array" and not _associative(node):
        # `a=([$x]=1)`, `a=(['a[$(cmd)]']=1)`: the subscript of an element is arithmetic
        for child in node.named_children:
            element = _ELEMENT.match(text_of(child))
            if element is not None and not element.group(1).isdigit():
                return "an array subscript evaluates a value"
    if kind in ("binary_expression", "unary_expression"):
        return _test_reason(node)
    if kind == "test_command" and node.children and node.children[0].type == "[":
        return _split_test_reason(node, budget)
    if kind == "declaration_command":
        if any(c.type in _COMPUTED for c in node.named_children):
            return "declare / export / local with a computed name evaluates it"
        flags = [text_of(c) for c in node.named_children if c.type == "word"]
        exporting = bool(node.children) and node.children[0].type == "export"  # -n: unexport
        if not exporting and any(f.startswith("-") and ("i" in f or "n" in f) for f in flags):
            # with or without a value here: every later assignment to the name (`i=$x`,
            # `read i`, `r=PS4` for a nameref) is then evaluated or redirected (ADR 0049)
            return "declare -i / -n evaluates a value"
    return ""


_ASSIGNS = frozenset({":=", "="})
_ELEMENT = re.compile(r"\[(.*)\]\+?=", re.DOTALL)  # `[sub]=value` in a compound assignment


def _expansion_reason(node: Any) -> str:
    """`${x:=v}` assigns x (a harmful name such as PS4 is opaque); `${s:x}`, `${s:0:x}` are
    substrings whose offset and length are arithmetic on a value."""
    children = node.children
    name = ""
    substring = False
    for child in children:
        kind = child.type
        if kind in ("variable_name", "special_variable_name") and not name:
            name = text_of(child)
        elif kind in _ASSIGNS and name and not settable(name):
            return f"an expansion assigns {name}: the shell may then run other code"
        elif kind == ":":
            substring = True
        elif substring and kind not in ("number", ":", "}"):
            return "arithmetic on a variable's value"
    return ""


def _associative(array: Any) -> bool:
    """`declare -A m=([k]=v)`: the keys of an associative array are words, not arithmetic."""
    assignment = array.parent
    declaration = assignment.parent if assignment is not None else None
    if declaration is None or declaration.type != "declaration_command":
        return False
    flags = [text_of(c) for c in declaration.named_children if c.type == "word"]
    return any(f.startswith("-") and "A" in f for f in flags)


def _number_subscript(value: str) -> bool:
    _, _, rest = value.partition("[")
    return rest.endswith("]") and (rest[:-1].isdigit() or rest[:-1] in ("@", "*"))


def text_of(node: Any) -> str:
    raw: bytes = node.text
    return raw.decode("utf-8", "replace")


_SPLITTING = frozenset({"simple_expansion", "expansion", "command_substitution"})
_ONE_WORD = frozenset({"?", "#", "$", "!"})


def _matches_operator(pattern: str) -> bool:
    return any(fnmatchcase(op, pattern) for op in ("-v", "-R"))


def _split_test_reason(node: Any, budget: Budget) -> str:
    """`[ ... ]` (not `[[ ... ]]`) splits its words: an unquoted `$X` or `$(cmd)`, or `"$@"`,
    may bring `-v NAME[...]` (whose subscript is arithmetic: its command substitutions run),
    and so may a pattern that matches a file named `-v` (observed: `[ $X ]` with X='-v
    a[$(touch${IFS}z)]'; `[ * ]` beside files named `-v` and `a[$(touch${IFS}z)]`)."""
    stack = list(node.named_children)
    while stack:
        budget.spend()
        cur = stack.pop()
        text = text_of(cur)
        if cur.type in _SPLITTING:
            quoted = cur.parent is not None and cur.parent.type == "string"
            special = text.strip("${}") in _ONE_WORD
            if not special and (not quoted or "@" in text or "*" in text):
                return f"[ ... ] splits {text}: it may become -v NAME[...], which runs code"
        elif cur.type == "word" and text not in ("-v", "-R") and _matches_operator(text):
            return f"[ ... ] expands the pattern {text}: it may match a file named -v"
        stack.extend(cur.named_children)
    return ""


def _test_reason(node: Any) -> str:
    ops = [c for c in node.children if c.type == "test_operator"]
    if not ops:
        return ""
    op = text_of(ops[0])
    operands = [c for c in node.named_children if c.type != "test_operator"]
    if op in _ARITH_TEST_OPS and any(c.type != "number" for c in operands):
        return "[[ ... ]] compares a value arithmetically"
    if op == "-v" and any(c.type != "word" for c in operands):
        return "[[ -v ]] evaluates a subscript"
    return ""


def evaluated(root: Any, source: bytes, budget: Budget) -> tuple[str, str]:
    """Why some text in the tree ``root`` is evaluated as code, and that text; ("", "") when
    none is."""
    if _MARKERS.search(source) is None:
        return "", ""
    stack = [root]
    while stack:
        budget.spend()
        node = stack.pop()
        reason = _reason(node, budget)
        if reason:
            return reason, text_of(node)
        stack.extend(node.children)
    return "", ""


# opaque commands whose reason is that they evaluate a variable's value as code or as a name
_EVALUATORS = frozenset(
    {"", "eval", "printf", "read", "mapfile", "readarray", "test", "[", "let", "git", "hash"}
    | {"unset", "wait", "declare", "export", "local", "typeset", "readonly"}
)


def evaluates_values(commands: list[Command]) -> bool:
    """Whether an opaque command may run the value of a variable (``eval "$c"``, ``$((x))``,
    ``$x p``, ``git --config-env``): the literal values in the text are then code too."""
    for c in commands:
        if c.status is Status.OPAQUE and (
            (c.program in _EVALUATORS and (c.program != "git" or "--config-env" in c.note))
            or c.note == "program name is not a literal"
        ):
            return True
    return False


def literal_values(root: Any, budget: Budget) -> list[str]:
    """The literal values the text assigns to variables (``x='a[$(touch p)]'``, ``c=touch``)."""
    values: list[str] = []
    stack = [root]
    while stack:
        budget.spend()
        node = stack.pop()
        if node.type == "variable_assignment":
            value = node.child_by_field_name("value")
            if value is not None and value.type in ("raw_string", "word", "string"):
                text = text_of(value)
                if value.type == "raw_string" or (value.type == "string" and "$" not in text):
                    text = text[1:-1]
                values.append(text)
        stack.extend(node.children)
    return values
