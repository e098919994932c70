"""Variables a command gives a literal value before it uses them: `LOG=x.log; make > "$LOG"`.

Without this, "$LOG" is a place the text does not fix, which may be a protected file, so the
call was TAMPER in every phase. Bash's own rules make the value certain in a narrow case, and
only that case is used (ADR 0067):

- the assignment is a statement of the command's top level, or the first of a top-level
  ``&&``/``||`` chain; not in the background, a pipeline, a subshell, a branch, a loop or a
  redirect, so it has run whenever anything after it runs;
- every assignment of that name in the command is of that kind: a loop variable, a prefix
  (`NAME=v cmd`), ``+=``, an assignment in a branch or a substitution, ``export`` make the name
  unknown for the whole command;
- nothing in the command can set a variable by a name the text does not spell as an
  assignment: a builtin that takes a variable's name (read, declare, printf -v, eval, source,
  ...), a function, an alias, arithmetic (which assigns, and evaluates variables' values as
  expressions), ``${NAME:=v}``, ``${!NAME}``, a subscript, a `{NAME}>` redirect, zsh's glob
  qualifiers, or a command name that is not literal. Any one switches tracking off;
- the name is no variable the shell sets itself or acts on (PWD, RANDOM, COLUMNS, IFS, PATH).

The value is the assignment's literal text (quotes allowed, no tilde, expansions only of
variables known the same way). ``words`` uses it inside double quotes as it is, and unquoted
only when word splitting and patterns cannot act on it.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator_boundary.bash.envvars import SHELL_SPECIAL, dangerous
from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.bash.words import word
from orchestrator_boundary.values import transient

# builtins (Bash and zsh) that set a variable named by an argument, or run code in this shell
_SETS_BY_NAME = frozenset(
    {
        "declare", "typeset", "local", "readonly", "read", "mapfile", "readarray", "getopts",
        "eval", "source", ".", "let", "unset", "trap", "alias", "unalias", "shopt", "coproc",
        "select", "enable", "compgen", "fc",
        "vared", "zparseopts", "integer", "float", "private", "setopt", "unsetopt", "emulate",
        "autoload", "zmodload", "functions", "zstyle", "zformat", "zregexparse", "strftime",
        "sched", "zle", "getln", "disable", "foreach",
    }
)  # fmt: skip
# words that run the rest of their words in this shell (`time LOG=v` assigns; zsh: repeat N)
_WRAPPERS = frozenset(
    {"command", "builtin", "time", "exec", "noglob", "nocorrect", "-", "repeat", "nohup"}
)
_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
# options that make a builtin assign: printf -v, zsh's print -v, wait -p, zsh's set -A
_ASSIGNING_OPTION = {"printf": "v", "print": "v", "wait": "p", "set": "A"}
_OPTION_SETS = frozenset({*_ASSIGNING_OPTION, "test", "["})
# builtins whose count zsh evaluates as an arithmetic expression (which may assign)
_MATH_ARGUMENT = frozenset({"shift", "break", "continue", "return"})
# variables the shell sets or reads on its own (Bash and zsh), beyond envvars' lists
_SHELL_OWN = frozenset(
    {
        "PWD", "OLDPWD", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS",
        "EPOCHREALTIME", "HISTCMD", "REPLY", "OPTARG", "DIRSTACK", "PIPESTATUS", "GROUPS",
        "FUNCNAME", "IFS", "PATH", "CDPATH", "HOME", "ENV", "SHELLOPTS", "BASHOPTS", "PS1",
        "PS2", "PS3", "PS4", "PROMPT_COMMAND", "HOSTNAME", "UID", "EUID", "PPID", "COLUMNS",
        "LINES", "SHLVL", "MATCH", "MBEGIN", "MEND", "match", "mbegin", "mend", "reply",
        "status", "pipestatus", "argv", "ARGC", "ERRNO", "TTYIDLE", "path", "cdpath", "fpath",
        "manpath", "mailpath", "module_path", "psvar", "signals", "options", "parameters",
        "commands", "functions", "aliases", "builtins", "dirstack", "history", "_", "GID", "EGID",
        "USERNAME", "TTY", "HOST", "OSTYPE", "MACHTYPE", "VENDOR", "CPUTYPE",
        # zsh ties these scalars to arrays: `fignore=(f)` sets FIGNORE, and back
        "FPATH", "MANPATH", "MAILPATH", "MODULE_PATH", "PSVAR", "FIGNORE", "fignore", "WATCH",
        "watch", "TERMINFO_DIRS", "terminfo_dirs", "histchars", "zsh_eval_context",
    }
)  # fmt: skip
_OWN_PREFIXES = ("BASH", "COMP_", "READLINE_", "ZSH_", "TRY_BLOCK_", "LC_", "HIST")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# text that may assign or evaluate: arithmetic, `{fd}>`, zsh subscripts and glob qualifiers
_SCREEN = re.compile(
    r"\$\(\(|\$\[|\(\(|\{[A-Za-z_]\w*\}[<>]|\$[A-Za-z_]\w*\[|[*?\]]\(|"
    r"(?<![\w-])-(?:eq|ne|lt|le|gt|ge)\b"
)
# the `${...}` forms that only read a variable: ${N}, ${#N}, ${N:-w}, ${N+w}, ${N%p}, ${N/p/r}
_BRACE_READ = re.compile(r"\$\{#?[A-Za-z_][A-Za-z0-9_]*(?:\}|:?[-+]|%|#|/|\^|,)")
_BRACE = re.compile(r"\$\{")
_ASSIGNMENTS = frozenset({"variable_assignment", "variable_assignments"})


@transient
class Tracking:
    names: frozenset[str]  # names whose every assignment is a definite one
    definite: frozenset[tuple[int, int]]  # (start, end) bytes of the definite assignments


def trackable(name: str) -> bool:
    return bool(_NAME.match(name)) and not (
        name in _SHELL_OWN
        or name in SHELL_SPECIAL
        or name.startswith(_OWN_PREFIXES)
        or dangerous(name, "")
    )


def plan(root: Any, command: str, code: str | None) -> Tracking | None:
    """Which assignments of ``command`` fix a value for what follows; None when none can."""
    if "=" not in command or "$" not in command or _SCREEN.search(command):
        return None
    if any(not _BRACE_READ.match(command, m.start()) for m in _BRACE.finditer(command)):
        return None
    definite = _definite(root)
    seen: dict[str, bool] = {}  # name -> every assignment of it is definite
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("function_definition", "arithmetic_expansion", "subscript", "unset_command"):
            return None
        if kind == "command" and _assigns_by_name(node, code):
            return None
        for arg in _arguments(node) if kind == "command" else ():
            shaped = _ASSIGNMENT_WORD.match(text_in(code, arg))  # `set -k`: `: LOG=y` assigns
            if shaped:
                seen[shaped.group().rstrip("+=")] = False
        if kind == "test_command" and "[" in text_in(code, node).strip("[] \t\n"):
            return None  # `[[ -v a[LOG=5] ]]`, `[ "$op" 'a[LOG=5]' ]`: a subscript evaluated
        if kind == "declaration_command":
            keyword = node.children[0].type if node.children else ""
            if keyword != "export":
                return None
            for child in node.named_children:  # `export NAME`, `export NAME=v`
                name = child if child.type == "variable_name" else child.child_by_field_name("name")
                if name is not None:
                    seen[text_in(code, name)] = False
        elif kind == "variable_assignment":
            name = node.child_by_field_name("name")
            if name is None or name.type != "variable_name":
                return None
            key = text_in(code, name)
            value = node.child_by_field_name("value")
            ok = (
                _key(node) in definite
                and not text_in(code, node)[len(key) :].startswith("+=")
                and (value is None or "~" not in text_in(code, value))
            )
            seen[key] = seen.get(key, True) and ok
        elif kind == "for_statement":
            variable = node.child_by_field_name("variable")
            if variable is not None:
                seen[text_in(code, variable)] = False
        stack.extend(node.children)
    names = frozenset(n for n, ok in seen.items() if ok and trackable(n))
    return Tracking(names, definite) if names else None


def _key(node: Any) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def _definite(root: Any) -> frozenset[tuple[int, int]]:
    """The assignments that have run whenever a later top-level statement runs."""
    found: set[tuple[int, int]] = set()
    children = root.children
    for i, node in enumerate(children):
        if not node.is_named or (i + 1 < len(children) and children[i + 1].type == "&"):
            continue  # a token, or a statement run in the background (a subshell)
        if node.type == "redirected_statement":  # `A=x && cmd > f`: the redirect is cmd's
            body = node.child_by_field_name("body")
            node = body if body is not None and body.type == "list" else node
        while node.type == "list" and node.child_count >= 3:
            node = node.children[0]  # the first of a chain always runs
        if node.type in _ASSIGNMENTS:
            found.add(_key(node))
            found.update(_key(c) for c in node.named_children if c.type == "variable_assignment")
    return frozenset(found)


def _literal(node: Any, code: str | None) -> str | None:
    """A word as the shell reads it, quotes and escapes removed; None when it holds an
    expansion, a pattern or a tilde (which may make it anything)."""
    return word(node, None, code).literal


def _assigns_by_name(node: Any, code: str | None) -> bool:
    """Whether a simple command may set a variable the text does not assign in sight."""
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return False  # assignments only: judged where they are
    name = _literal(name_node.named_children[0], code) if name_node.named_children else None
    if name is None or name in _SETS_BY_NAME:
        return True
    args = _arguments(node)
    if name in _WRAPPERS:
        # `builtin printf -v LOG y`, `command test -v ...`: the wrapped builtin assigns too
        words = [_literal(a, code) for a in args]
        return any(
            w is None or w in _SETS_BY_NAME or w in _OPTION_SETS or _ASSIGNMENT_WORD.match(w)
            for w in words
        )
    if name in _MATH_ARGUMENT:  # zsh: `shift LOG=0` evaluates its argument as arithmetic
        return any(not (text_in(code, a).isdigit() or text_in(code, a) == "-p") for a in args)
    letter = _ASSIGNING_OPTION.get(name)
    if letter is None and name not in ("test", "["):
        return False
    if letter is None:  # test, [: `test -v 'a[LOG=5]'` evaluates the subscript
        return any("[" in text_in(code, a) for a in args)
    for arg in args:
        text = _literal(arg, code)
        # options come first: an option spelled so that the text does not show it
        # (`\-v`, `$'-v'`, `-"$o"`) may be the assigning one
        if text is None or (text[:1] in ("-", "+") and letter in text):
            return True
        if text == "--" or text[:1] not in ("-", "+"):
            return False
    return False


def _arguments(node: Any) -> list[Any]:
    """A simple command's arguments, with the words the grammar hangs on a redirect:
    `printf >/dev/null -v LOG y` is `printf -v LOG y` to bash."""
    args = list(node.children_by_field_name("argument"))
    parent = node.parent
    if parent is not None and parent.type == "redirected_statement":
        for redirect in parent.children_by_field_name("redirect"):
            args.extend(redirect.children_by_field_name("destination")[1:])
    return sorted(args, key=lambda a: a.start_byte)
