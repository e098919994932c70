"""Walk a tree-sitter-bash tree: every simple command the text can run, with the cwd it runs in.

Each statement yields ``(ok, fail)``: the working directory after it succeeded / failed
(None = unknown), so ``cd x && rm f`` resolves ``f`` in ``x`` but ``cd x; rm f`` does not guess.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator_boundary.bash.budget import MAX_NESTING, BudgetExhausted
from orchestrator_boundary.bash.known_vars import Tracking
from orchestrator_boundary.bash.model import Command, Status
from orchestrator_boundary.bash.outcome import Env, Fx
from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.bash.simple import opened, simple_command
from orchestrator_boundary.bash.words import word

State = tuple[str | None, str | None]
_SUBST = frozenset({"command_substitution", "process_substitution"})
_CONTROL = frozenset(
    {"if_statement", "while_statement", "for_statement", "c_style_for_statement", "case_statement"}
)
_SKIP = frozenset({"comment", ";", ";;", "&", "\n", "{", "}", "(", ")", "do", "done", "then", "fi"})
_CD = frozenset({"cd", "pushd", "popd"})
_SHIFTERS = _CD | {"eval", "source", "."}  # commands that may move the shell that runs them
_ALIAS_NAME = re.compile(r"""(?:^|\s)["']?([\w.:-]+)=""")


def _merge(a: str | None, b: str | None) -> str | None:
    return a if a == b else None


class Walker:
    __slots__ = (
        "aliasing",
        "code",
        "defined",
        "env",
        "inherited",
        "known",
        "out",
        "output",
        "piped",
        "source",
        "spend",
        "statement",
        "substitutes",
        "tracking",
    )

    def __init__(
        self,
        env: Env,
        out: list[Command],
        source: bytes,
        code: str,
        tracking: Tracking | None = None,
    ) -> None:
        self.env = env
        self.spend = env.budget.spend  # a walker's env, and so its budget, never changes
        self.out = out
        self.source = source  # what was parsed: ``code`` in UTF-8
        # node texts are cut from ``code`` when byte offsets are character offsets (text_in)
        self.code = code if code.isascii() else None  # isascii: a flag of the str, O(1)
        # $(...), `...`, <(...) and >(...) all need a '(' or a '`': text without either has
        # no substitution anywhere, and the per-node search for them can be skipped
        self.substitutes = b"(" in source or b"`" in source
        self.piped: str | None = None  # literal text piped into the next simple command
        self.inherited: dict[int, Fx | None] = {}  # descriptors opened around or by `exec`
        self.output: str | None = None  # literal text the last simple command printed
        self.statement: tuple[int, int, Any] | None = None  # a redirected statement's body
        # variables a top-level literal assignment fixed, for what follows it (ADR 0067);
        # a nested shell (`sh -c`) starts without them, as the shell it stands for does
        self.tracking = tracking
        self.known: dict[str, str] = {}
        # functions and aliases the text defines, by name: their body (None: an alias that
        # moves); calling one whose commands may cd moves this shell (ADR 0077)
        self.defined: dict[str, Any] = {}
        self.aliasing = b"alias" in source

    # -- sequences -------------------------------------------------------------------------
    def block(self, nodes: list[Any], cwd: str | None, depth: int) -> State:
        ok: str | None = cwd
        fail: str | None = cwd
        current = cwd
        for node in nodes:
            if node.type in _SKIP or not node.is_named:
                continue
            ok, fail = self.stmt(node, current, depth)
            current = _merge(ok, fail)
        return ok, fail

    def stmt(self, node: Any, cwd: str | None, depth: int, tail: tuple[Any, ...] = ()) -> State:
        """Walk one statement. ``tail``: redirects tree-sitter hung on an enclosing list or
        pipeline (`a && b > f` parses as `(a && b) > f`); bash applies them to the last part."""
        self.spend()
        if depth > MAX_NESTING:
            raise BudgetExhausted("budget exhausted (nesting too deep)")
        kind = node.type
        if kind == "list":
            return self._list(node, cwd, depth, tail)
        if kind == "command":
            done = simple_command(self, node, tail, cwd, depth)
            # `f() { cd .claude; }; f; echo {} > settings.json`: after f, the folder is unknown
            called = self._name(node) if self.defined or self.aliasing else None
            if called == "alias":
                self._aliases(node)
            return (None, None) if called in self.defined and self._moves(called, set()) else done
        if kind == "redirected_statement":
            return self._redirected(node, cwd, depth, tail)
        if kind == "pipeline":
            return self._pipe(node, cwd, depth, tail)
        if kind == "negated_command":
            ok, fail = cwd, cwd
            for child in node.named_children:
                ok, fail = self.stmt(child, cwd, depth + 1, tail)
            return fail, ok
        if tail:  # a compound command: its redirects are opened before it runs
            saved = self.inherited
            self.inherited = {**saved, **opened(self, tail, cwd)}
            result = self.stmt(node, cwd, depth + 1)
            self.inherited = saved
            simple_command(self, None, tail, cwd, depth, note="redirect of a compound command")
            return result
        if kind == "function_definition":
            return self._function(node, cwd, depth)
        if kind == "subshell":
            self.block(node.named_children, cwd, depth + 1)
            return cwd, cwd
        if kind in ("compound_statement", "program", "do_group"):
            return self.block(node.named_children, cwd, depth + 1)
        if kind in _CONTROL:
            start = None if self._has_cd(node) else cwd
            self.block(node.named_children, start, depth + 1)
            return start, start
        if kind in ("elif_clause", "else_clause", "case_item"):
            self.block(node.named_children, cwd, depth + 1)
            return cwd, cwd
        if kind in (
            "variable_assignment",
            "variable_assignments",
            "declaration_command",
            "unset_command",
            "test_command",
        ):
            result = simple_command(self, node, (), cwd, depth)
            self._learn(node)
            return result
        self.substitutions(node, cwd, depth)
        return cwd, cwd

    def pipeline(
        self,
        parts: list[Any],
        cwd: str | None,
        depth: int,
        tail: tuple[Any, ...],
        piped: str | None,
    ) -> None:
        """The parts of a pipeline; ``piped``: literal text fed to the first (`cat <<EOF | sh`:
        the heredoc's command is outside the pipeline node)."""
        for i, child in enumerate(parts):
            # literal text one simple command prints is the next one's stdin (`echo .. | sh`)
            self.piped = (self.output if i else piped) if child.type == "command" else None
            self.output = None
            self.stmt(child, cwd, depth + 1, tail if i == len(parts) - 1 else ())
        self.piped = self.output = None

    def _list(self, node: Any, cwd: str | None, depth: int, tail: tuple[Any, ...]) -> State:
        # a && b || c is left-nested; flatten it so long chains do not recurse deeply
        chain: list[tuple[str, Any]] = []
        while node.type == "list" and node.child_count >= 3:
            chain.append((node.children[1].type, node.children[2]))
            node = node.children[0]
        ok, fail = self.stmt(node, cwd, depth + 1, () if chain else tail)
        for index in range(len(chain) - 1, -1, -1):
            op, right = chain[index]
            right_tail = tail if index == 0 else ()
            if op == "&&":
                r_ok, r_fail = self.stmt(right, ok, depth + 1, right_tail)
                ok, fail = r_ok, _merge(fail, r_fail)
            elif op == "||":
                r_ok, r_fail = self.stmt(right, fail, depth + 1, right_tail)
                ok, fail = _merge(ok, r_ok), r_fail
            else:  # an operator tree-sitter may add later: run it sequentially
                ok, fail = self.stmt(right, _merge(ok, fail), depth + 1, right_tail)
        return ok, fail

    def _redirected(self, node: Any, cwd: str | None, depth: int, tail: tuple[Any, ...]) -> State:
        # one pass over the children for both fields (each field lookup is a call into C)
        body = None
        found: list[Any] = []
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            if field == "redirect":
                found.append(child)
            elif field == "body" and body is None:
                body = child
        redirects = (*found, *tail)
        if body is None:
            return simple_command(self, None, redirects, cwd, depth)
        # the command's text is the whole statement's (`> f echo hi` as written): remembered
        # here, as asking the body for its parent costs a walk from the root (ADR 0021)
        self.statement = (body.start_byte, body.end_byte, node)
        return self.stmt(body, cwd, depth + 1, redirects)

    def _learn(self, node: Any) -> None:
        """The values a definite assignment gives, in order (`A=x B="$A/y"`)."""
        tracking = self.tracking
        if tracking is None or (node.start_byte, node.end_byte) not in tracking.definite:
            return
        kind = "variable_assignment"
        nodes = [node] if node.type == kind else [c for c in node.named_children if c.type == kind]
        for assignment in nodes:
            name = text_in(self.code, assignment.child_by_field_name("name"))
            if name not in tracking.names:
                continue
            found = assignment.child_by_field_name("value")
            value = None if found is None else word(found, None, self.code, None, self.known)
            if value is not None and value.value:  # no globbing or splitting in an assignment
                self.known[name] = value.value
            else:
                self.known.pop(name, None)

    # -- nested code -------------------------------------------------------------------------
    def substitutions(self, node: Any, cwd: str | None, depth: int) -> None:
        """Run every $(...), `...`, <(...) and >(...) inside ``node`` (they run before it)."""
        if not self.substitutes:
            return
        source = self.source
        spend = self.spend
        stack = [node]
        while stack:
            cur = stack.pop()
            start, end = cur.start_byte, cur.end_byte
            if source.find(b"(", start, end) < 0 and source.find(b"`", start, end) < 0:
                # ADR 16's test on this node's bytes: nothing below it is a substitution. Its
                # nodes are charged as if each were visited (descendant_count counts the node
                # itself and every node below it, as this walk would), in one call.
                spend(cur.descendant_count)
                continue
            spend()
            if cur.type in _SUBST:
                self.block(cur.named_children, cwd, depth + 1)
                continue
            children = cur.children
            if children:
                stack.extend(reversed(children))

    def _pipe(self, node: Any, cwd: str | None, depth: int, tail: tuple[Any, ...]) -> State:
        self.pipeline(node.named_children, cwd, depth, tail, None)
        # zsh runs a pipeline's last part in the shell itself: `true | cd x` moves it (0077)
        moved = node.named_children and self._has_cd(node.named_children[-1])
        return (None, None) if moved else (cwd, cwd)

    def _function(self, node: Any, cwd: str | None, depth: int) -> State:
        # its redirects apply whenever it runs: walk the body as if redirected so
        redirects = tuple(c for c in node.named_children if c.type.endswith("redirect"))
        self.defined.update((text_in(self.code, c), node) for c in node.named_children[:1])
        for child in node.named_children:
            if not child.type.endswith("redirect") and child.type != "word":
                self.stmt(child, cwd, depth + 1, redirects)
        return cwd, cwd

    def _moves(self, name: str, seen: set[str]) -> bool:
        """Whether calling ``name`` may move this shell: its commands include a cd, an eval, a
        source, or a call of another function the text defines that may."""
        body = self.defined[name]
        if body is None:
            return True
        seen.add(name)
        called = self._called(body)
        if called & _SHIFTERS:
            return True
        return any(self._moves(n, seen) for n in called if n in self.defined and n not in seen)

    def _called(self, node: Any) -> set[str]:
        found: set[str] = set()
        stack = [node]
        while stack:
            cur = stack.pop()
            self.spend()
            if cur.type == "command_name":
                found.add(text_in(self.code, cur).strip("\\'\""))
            else:
                stack.extend(cur.named_children)
        return found

    def _aliases(self, node: Any) -> None:
        """``alias go='cd x'``: a later ``go`` (on a later line) moves the shell."""
        text = text_in(self.code, node)
        if any(w in text for w in _SHIFTERS):
            self.defined.update((n, None) for n in _ALIAS_NAME.findall(text))

    def _name(self, node: Any) -> str | None:
        found = node.child_by_field_name("name")
        return text_in(self.code, found).strip("\\'\"") if found is not None else None

    def _has_cd(self, node: Any) -> bool:
        source = self.source
        spend = self.spend
        stack = [node]
        while stack:
            cur = stack.pop()
            start, end = cur.start_byte, cur.end_byte
            if (
                source.find(b"cd", start, end) < 0
                and source.find(b"popd", start, end) < 0
                and source.find(b"pushd", start, end) < 0
            ):
                # no command name below can be cd, pushd or popd: charged as if each node were
                # visited, in one call (as in ``substitutions``; its subtree would be next)
                spend(cur.descendant_count)
                continue
            spend()
            if cur.type == "command_name" and text_in(self.code, cur).strip("\\'\"") in _CD:
                return True
            stack.extend(cur.children)
        return False

    def emit(self, command: Command) -> None:
        self.out.append(command)

    def unparseable(self, source: str, message: str) -> None:
        self.out.append(Command(source, "", Status.UNPARSEABLE, note=message))
