"""One simple command: its words, redirects, heredoc, and what its program does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from orchestrator_boundary.bash.dispatch import dispatch
from orchestrator_boundary.bash.envvars import dangerous
from orchestrator_boundary.bash.facts import OPAQUE, READ_ONLY, UNPARSEABLE, WRITES, Fx
from orchestrator_boundary.bash.model import Command, Effect, EffectKind
from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.bash.paths import is_device, resolve
from orchestrator_boundary.bash.words import Word, word

if TYPE_CHECKING:
    from orchestrator_boundary.bash.walk import Walker

W = EffectKind.WRITE
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_CD = frozenset({"cd", "pushd", "popd"})
_PLAIN = {"variable_assignment": "", "variable_assignments": "", "test_command": "[["}


def _redirect(w: Walker, node: Any, cwd: str | None, args: list[Word], fx: list[Fx]) -> None:
    op = ""
    for child in node.children:  # the first unnamed child is the operator
        if not child.is_named:
            op = child.type
            break
    dests = node.children_by_field_name("destination")
    if not dests:
        return
    if len(dests) > 1:  # `echo > f hi`: hi is an argument
        args.extend([word(d, w.env.home, w.code) for d in dests[1:]])
    dest = dests[0]
    if op == ">&" and dest.type != "number" and text_in(w.code, dest) != "-":
        op = ">&"  # `>& file` is `&> file`
    elif op not in _WRITE_OPS:
        return
    target = word(dest, w.env.home, w.code)
    literal = target.literal
    resolved = resolve(literal, cwd, backslash_sep=w.env.backslash_sep)
    if is_device(resolved, literal or ""):
        return
    fx.append(Fx(W, literal or target.text, resolved, f"redirect '{op}'"))


def _heredoc(
    w: Walker,
    node: Any,
    cwd: str | None,
    depth: int,
    args: list[Word],
    fx: list[Fx],
    followers: list[Any],
) -> str | None:
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    quoted = start is not None and any(q in text_in(w.code, start) for q in "'\"\\")
    body_text: str | None = None
    for child in node.named_children:
        if child.type == "heredoc_body":
            if not quoted:
                w.substitutions(child, cwd, depth + 1)
            dynamic = not quoted and any(c.type != "heredoc_content" for c in child.named_children)
            body_text = None if dynamic else text_in(w.code, child)
        elif child.type == "file_redirect":
            w.substitutions(child, cwd, depth + 1)
            _redirect(w, child, cwd, args, fx)
        elif child.type not in ("heredoc_start", "heredoc_end"):
            followers.append(child)
    return body_text


def simple_command(
    w: Walker,
    node: Any,
    redirects: Sequence[Any],
    cwd: str | None,
    depth: int,
    note: str = "",
) -> tuple[str | None, str | None]:
    env = w.env
    home = env.home
    code = w.code
    substitutes = w.substitutes  # else no substitution anywhere: skip the calls (ADR 0016)
    if node is None:
        cmd_text = " ".join([text_in(code, r) for r in redirects])
    else:
        parent = node.parent  # tree-sitter finds it from the root
        if parent is not None and parent.type == "redirected_statement":
            cmd_text = text_in(code, parent)
        elif redirects:
            cmd_text = " ".join([text_in(code, node), *[text_in(code, r) for r in redirects]])
        else:
            cmd_text = text_in(code, node)
        if node.type != "command":
            if substitutes:
                w.substitutions(node, cwd, depth + 1)
            children = node.children
            program = _PLAIN.get(node.type, text_in(code, children[0]) if children else "")
            risky = _risky_assignment(node, code)
            status, why = (
                (OPAQUE, f"sets {risky}: later programs may run other code")
                if risky
                else (READ_ONLY, "builtin / assignment")
            )
            w.out.append(Command(cmd_text, program, status, (), why))
            return cwd, cwd
    name: Any = None
    arg_nodes: list[Any] = []
    fx: list[Fx] = []
    followers: list[Any] = []
    stdin: str | None = None
    redirect_nodes = list(redirects)
    risky = ""
    if node is not None:
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            if field == "name":
                named = child.named_children
                name = named[0] if named else child
            elif field == "argument":
                arg_nodes.append(child)
            elif field == "redirect" or child.type.endswith("_redirect"):
                redirect_nodes.append(child)
                continue
            elif child.type == "variable_assignment":
                risky = risky or _risky_assignment(child, code)
            if substitutes:
                w.substitutions(child, cwd, depth + 1)
    args = [word(a, home, code) for a in arg_nodes]
    spend = env.budget.spend
    for red in redirect_nodes:
        spend()
        red_type = red.type
        if red_type == "heredoc_redirect":
            stdin = _heredoc(w, red, cwd, depth, args, fx, followers)
            continue
        if substitutes:
            w.substitutions(red, cwd, depth + 1)
        if red_type == "herestring_redirect":
            named = red.named_children
            value = word(named[0], home, code).value if named else None
            stdin = None if value is None else value + "\n"
        elif red_type == "file_redirect":
            _redirect(w, red, cwd, args, fx)
    ok = fail = cwd
    inner: Sequence[Command] = ()
    if name is None:
        status = WRITES if fx else READ_ONLY
        outcome_program, outcome_note = "", note or "redirect only"
    else:
        argv = [word(name, home, code), *args]
        outcome = dispatch(argv, env.for_command(cwd, stdin, depth))
        outcome_program = outcome.program
        inner = outcome.inner
        if outcome_program in _CD:
            # `builtin cd x` / `command cd x`: a cd we do not follow precisely
            ok = _cd(argv, cwd, home) if argv[0].value in _CD else None
        elif outcome_program == "eval" and any(c.program in _CD for c in inner):
            ok = fail = None  # eval runs in this shell: its cd sticks
        if outcome.fx:
            fx[:0] = outcome.fx  # the program's own effects first, then its redirects
        status = outcome.status
        outcome_note = outcome.note
        if status == READ_ONLY and fx:
            status = WRITES
            outcome_note = f"{outcome_note}; output redirected" if outcome_note else ""
    if risky and status != UNPARSEABLE:
        status, outcome_note = OPAQUE, f"runs with {risky} set: may run other code"
    effects = (
        tuple([Effect(f.kind, f.path, f.resolved, cmd_text, f.source) for f in fx]) if fx else ()
    )
    w.out.append(Command(cmd_text, outcome_program, status, effects, outcome_note))
    if inner:
        w.out.extend(inner)
    for follower in followers:
        w.stmt(follower, cwd, depth + 1)
    return ok, fail


def _risky_assignment(node: Any, code: str | None) -> str:
    """The name of a dangerous variable that ``node`` (or its direct assignments) sets."""
    nodes = (
        [node]
        if node.type == "variable_assignment"
        else [c for c in node.named_children if c.type == "variable_assignment"]
    )
    for assignment in nodes:
        name_node = assignment.child_by_field_name("name")
        value_node = assignment.child_by_field_name("value")
        name = text_in(code, name_node) if name_node is not None else ""
        if dangerous(name, text_in(code, value_node) if value_node is not None else ""):
            return name
    return ""


def _cd(argv: list[Word], cwd: str | None, home: str | None) -> str | None:
    if argv[0].value == "popd":
        return None
    operands = [a for a in argv[1:] if a.value not in ("-L", "-P", "-e", "-@", "--")]
    if not operands:
        return home if argv[0].value == "cd" else None
    target = operands[0].literal
    if target is None or target == "-" or target.startswith(("+", "-")):
        return None
    return resolve(target, cwd)
