"""One simple command: its words, redirects, heredoc, and what its program does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from orchestrator_boundary.bash import boundary_cli
from orchestrator_boundary.bash.agree import heredoc_backticks, unread_body
from orchestrator_boundary.bash.assign import risky_assignment, spelled_settings
from orchestrator_boundary.bash.braces import expand_braces
from orchestrator_boundary.bash.dispatch import dispatch
from orchestrator_boundary.bash.locks import FLOCK_FD, locked
from orchestrator_boundary.bash.model import Command, Effect, EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Fx, runs_code
from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.bash.paths import is_device, resolve
from orchestrator_boundary.bash.words import Word, program_word, word
from orchestrator_boundary.bash.zsh_redirect import clobbered, prefixed

State = tuple[str | None, str | None]  # the working directory after success / after failure


class Walker(Protocol):
    """What a simple command needs of the walk it is part of (``walk.Walker`` is the one)."""

    env: Env
    out: list[Command]
    code: str | None
    source: bytes  # the parsed text, in UTF-8
    piped: str | None  # literal text piped into this command (walk.py)
    inherited: dict[int, Fx | None]  # descriptors an enclosing statement or `exec` opened
    statement: tuple[int, int, Any] | None  # (start, end) of a redirected statement's body
    output: str | None  # literal text this command prints, for the next one in a pipeline
    known: dict[str, str]  # variables whose value the walk knows (known_vars)

    def substitutions(self, node: Any, cwd: str | None, depth: int) -> None: ...

    def stmt(self, node: Any, cwd: str | None, depth: int) -> State: ...

    def pipeline(
        self,
        parts: list[Any],
        cwd: str | None,
        depth: int,
        tail: tuple[Any, ...],
        piped: str | None,
    ) -> None: ...


W = EffectKind.WRITE
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_CD, _MOVES = frozenset({"cd", "pushd", "popd"}), frozenset({"eval", "source", "."})
_PLAIN = {"variable_assignment": "", "variable_assignments": "", "test_command": "[["}


_STD_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
Fds = dict[int, "Fx | None"]  # what this command opened on a descriptor: a file, or no file


def _descriptor(node: Any, code: str | None, default: int) -> int:
    found = node.child_by_field_name("descriptor")
    text = text_in(code, found) if found is not None else ""
    return int(text) if text.isdigit() else default


def _stream(path: str | None) -> int | None:
    """The descriptor a path names: /dev/stdin is 0, /dev/fd/N and /proc/self/fd/N are N."""
    if path is None:
        return None
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if path.startswith(prefix) and path[len(prefix) :].isdigit():
            return int(path[len(prefix) :])
    return _STD_STREAMS.get(path)


def _redirect(
    w: Walker, node: Any, cwd: str | None, args: list[Word], fx: list[Fx], fds: Fds
) -> None:
    op = ""
    for child in node.children:  # the first unnamed child is the operator
        if not child.is_named:
            op = child.type
            break
    dests = node.children_by_field_name("destination")
    if not dests:
        return
    if len(dests) > 1:  # `echo > f hi`: hi is an argument
        args.extend([word(d, w.env.home, w.code, cwd, w.known) for d in dests[1:]])
    dest = dests[0]
    if op in (">&", "<&") and dest.type == "number":  # `2>&1`: a copy of another descriptor
        fds[_descriptor(node, w.code, 1 if op == ">&" else 0)] = fds.get(int(text_in(w.code, dest)))
        return
    if op == ">&" and text_in(w.code, dest) != "-":
        op = ">&"  # `>& file` is `&> file`
    target = word(dest, w.env.home, w.code, cwd, w.known)
    literal = target.literal
    resolved = resolve(literal, cwd, backslash_sep=w.env.backslash_sep)
    stream = _stream(resolved) if dest.type != "process_substitution" else None
    if stream is not None:  # /dev/stdout, /dev/fd/3: whatever that descriptor is open on
        unknown = None if stream in (1, 2) else Fx(W, "", None, "")  # inherited: a terminal?
        opened = fds[stream] if stream in fds else w.inherited.get(stream, unknown)
        found = None if opened is None else Fx(W, opened.path, opened.resolved, f"redirect '{op}'")
    elif is_device(resolved, literal or "", windows=w.env.windows):
        found = None
    else:
        found = Fx(W, literal or target.text, resolved, f"redirect '{op}'")
    reads = op.startswith("<") and op != "<>"
    both = op in ("&>", "&>>", ">&")
    for fd in (1, 2) if both else (_descriptor(node, w.code, 0 if reads else 1),):
        fds[fd] = found
    if found is not None and (op in _WRITE_OPS or op == ">&"):
        fx.append(found)
    zsh = clobbered(w, dests, cwd) if op in _WRITE_OPS or op == ">&" else None
    fx.extend([zsh] if zsh is not None else [])


def _heredoc(
    w: Walker,
    node: Any,
    cwd: str | None,
    depth: int,
    args: list[Word],
    fx: list[Fx],
    followers: list[Any],
    fds: Fds,
) -> str | None:
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    quoted = start is not None and any(q in text_in(w.code, start) for q in "'\"\\")
    body_text: str | None = None
    for child in node.named_children:
        if child.type == "heredoc_body":
            body_text = text_in(w.code, child)
            if quoted:
                continue
            w.substitutions(child, cwd, depth + 1)
            ticks = _backticks(w, body_text, cwd, depth) | _unread(w, child, body_text, cwd, depth)
            if ticks or any(c.type != "heredoc_content" for c in child.named_children):
                body_text = None
        elif child.type == "file_redirect":
            w.substitutions(child, cwd, depth + 1)
            _redirect(w, child, cwd, args, fx, fds)
        elif child.type not in ("heredoc_start", "heredoc_end"):
            followers.append(child)
    return body_text


def _unread(w: Walker, node: Any, body: str, cwd: str | None, depth: int) -> bool:
    """A ``<<-`` body the grammar left as text, read again (``agree.unread_body``, 0077)."""
    code = None if node.named_children else unread_body(body)
    inner = runs_code("", code, w.env.for_command(cwd, None, depth), "").inner if code else []
    w.out.extend(c for c in inner if c.program != "cat" or c.effects)
    return code is not None


def _backticks(w: Walker, body: str, cwd: str | None, depth: int) -> bool:
    """Run an unquoted body's backtick substitutions (left as text); whether there were any."""
    if "`" not in body:
        return False
    codes = heredoc_backticks(body)
    env = w.env.for_command(cwd, None, depth)
    if codes is None:
        w.out.append(Command(body, "", Status.OPAQUE, (), "a backtick in a heredoc body"))
        return True
    for code in codes:
        w.out.extend(runs_code("", code, env, "").inner)
    return True


def _command_text(w: Walker, node: Any, redirects: Sequence[Any]) -> str:
    code = w.code
    if node is None:
        return " ".join([text_in(code, r) for r in redirects])
    statement = w.statement
    if statement is not None and statement[:2] == (node.start_byte, node.end_byte):
        return text_in(code, statement[2])  # the redirected statement this command is the body of
    if redirects:
        return " ".join([text_in(code, node), *[text_in(code, r) for r in redirects]])
    return text_in(code, node)


def _plain_statement(w: Walker, node: Any, text: str, cwd: str | None, depth: int) -> None:
    """An assignment, ``declare``, ``unset`` or ``[[ ]]``: no program runs."""
    w.substitutions(node, cwd, depth + 1)
    children = node.children
    program = _PLAIN.get(node.type, text_in(w.code, children[0]) if children else "")
    risky = risky_assignment(w, node, cwd, depth)
    spelled = None
    if node.type == "declaration_command":
        spelled = spelled_settings(w, node, program, cwd, depth)
    if risky:
        status, why = Status.OPAQUE, f"sets {risky}: later programs may run other code"
    elif spelled is not None and spelled.status is not Status.READ_ONLY:
        status, why = spelled.status, spelled.note
    else:
        status, why = Status.READ_ONLY, "builtin / assignment"
    w.out.append(Command(text, program, status, (), why))
    if spelled is not None:
        w.out.extend(spelled.inner)


def _children(
    w: Walker, node: Any, cwd: str | None, depth: int, redirects: list[Any]
) -> tuple[Any, list[Any], str]:
    """The name node, the argument nodes, and a dangerous variable the command sets; the
    command's own redirects are added to ``redirects``. Substitutions run in text order."""
    name: Any = None
    arg_nodes: list[Any] = []
    risky = ""
    for i, child in enumerate(node.children):
        field = node.field_name_for_child(i)
        if field == "name":
            named = child.named_children
            name = named[0] if named else child
        elif field == "argument":
            arg_nodes.append(child)
        elif field == "redirect" or child.type.endswith("_redirect"):
            redirects.append(child)
            continue
        elif child.type == "variable_assignment":
            found = risky_assignment(w, child, cwd, depth, exported=True)  # code analysed
            risky = risky or found
        w.substitutions(child, cwd, depth + 1)
    return name, arg_nodes, risky


def _redirects(
    w: Walker,
    redirects: list[Any],
    cwd: str | None,
    depth: int,
    args: list[Word],
    fx: list[Fx],
    followers: list[Any],
    fds: Fds,
) -> str | None:
    """Effects of the redirects into ``fx``; the literal text fed to stdin, if any; what the
    redirects opened on each descriptor goes into ``fds``."""
    stdin: str | None = None
    for red in redirects:
        w.env.budget.spend()
        if red.type == "heredoc_redirect":
            stdin = _heredoc(w, red, cwd, depth, args, fx, followers, fds)
            continue
        w.substitutions(red, cwd, depth + 1)
        if red.type == "herestring_redirect":
            named = red.named_children
            value = word(named[0], w.env.home, w.code, None, w.known).value if named else None
            stdin = None if value is None else value + "\n"
        elif red.type == "file_redirect":
            _redirect(w, red, cwd, args, fx, fds)
    return stdin


def simple_command(
    w: Walker,
    node: Any,
    redirects: Sequence[Any],
    cwd: str | None,
    depth: int,
    note: str = "",
) -> State:
    env = w.env
    text = _command_text(w, node, redirects)
    if node is not None and node.type != "command":
        _plain_statement(w, node, text, cwd, depth)
        return cwd, cwd
    piped, w.piped = w.piped, None
    redirect_nodes = list(redirects)
    name, arg_nodes, risky = (
        (None, [], "") if node is None else _children(w, node, cwd, depth, redirect_nodes)
    )
    args = [word(a, env.home, w.code, cwd, w.known) for a in arg_nodes]
    fx, zsh = prefixed(w, redirect_nodes, name, node, env.for_command(cwd, None, depth))
    followers: list[Any] = []
    fds: Fds = {}
    stdin = _redirects(w, redirect_nodes, cwd, depth, args, fx, followers, fds)
    stdin = piped if piped is not None and not redirect_nodes else stdin
    ok = fail = cwd
    inner: Sequence[Command] = ()
    script = ""
    if name is None or (text_in(w.code, name) == "exec" and not args):
        w.inherited.update(fds)  # `exec 3< f`: open for the rest of this shell
    if name is None:
        status = Status.WRITES if fx else Status.READ_ONLY
        program, why = "", note or "redirect only"
    else:
        argv = expand_braces([program_word(word(name, env.home, w.code, cwd, w.known)), *args])
        outcome = dispatch(argv, env.for_command(cwd, stdin, depth))
        w.output = _printed(outcome.program, argv, stdin)
        program, inner, status, why = outcome.program, outcome.inner, outcome.status, outcome.note
        script = outcome.script
        if program in _CD:
            # `builtin cd x` / `command cd x`: a cd we do not follow precisely
            ok = _cd(argv, cwd, env.home) if _followed(w, argv) else None
        elif program in _MOVES and (not inner or any(c.program in _CD | _MOVES for c in inner)):
            ok = fail = None  # eval, source run in this shell: a cd there sticks (unread: 0077)
        own = outcome.fx
        if program == "flock" and own and own[0].source == FLOCK_FD:
            own = [locked(own[0], fds, w.inherited)]
        fx[:0] = own  # the program's own effects first, then its redirects
        if status is Status.READ_ONLY and fx:
            status = Status.WRITES
            why = f"{why}; output redirected" if why else ""
    if risky and status is not Status.UNPARSEABLE:
        status, why = Status.OPAQUE, f"runs with {risky} set: may run other code"
    if status is Status.OPAQUE:  # `su -c "orchestrator-boundary phase off"` (ADR 0045)
        fx += boundary_cli.spelled(fx, text, stdin)
    effects = tuple(Effect(f.kind, f.path, f.resolved, text, f.source, f.names) for f in fx)
    w.out.append(Command(text, program, status, effects, why, script))
    w.out.extend([*inner, *zsh])
    _followers(w, followers, cwd, depth)
    return ok, fail


def _followers(w: Walker, followers: list[Any], cwd: str | None, depth: int) -> None:
    """What heredocs and process substitutions of this command feed on to run."""
    printed = w.output
    for follower in followers:
        if follower.type == "pipeline":  # `cat <<EOF | sh`: this command is its first part
            w.pipeline(follower.named_children, cwd, depth + 1, (), printed)
        else:
            w.stmt(follower, cwd, depth + 1)


def _followed(w: Walker, argv: list[Word]) -> bool:
    """Whether this cd is followed: spelled plainly, and not where `cd d` may go to $CDPATH/d
    or, with cdable_vars, to $d (attack round C)."""
    return argv[0].value in _CD and b"CDPATH" not in w.source and b"cdable_vars" not in w.source


def _cd(argv: list[Word], cwd: str | None, home: str | None) -> str | None:
    if argv[0].value == "popd":
        return None
    operands = [a for a in argv[1:] if a.value not in ("-L", "-P", "-e", "-@", "--")]
    if not operands:
        return home if argv[0].value == "cd" else None
    target = operands[0].literal
    if target is None or target == "-" or target.startswith(("+", "-")):
        return None
    if "-P" in (a.value for a in argv[1:]) and ".." in target.split("/"):
        return None  # `cd -P lnk/..`: the parent of wherever lnk points
    return resolve(target, cwd, logical=True)  # `cd lnk/..` is where it started (Bash -L)


def _printed(program: str, argv: list[Word], stdin: str | None) -> str | None:
    """The literal text ``echo``, ``printf`` or ``cat`` prints, when it is knowable."""
    if program not in ("echo", "printf", "cat"):
        return None
    texts: list[str] = []
    for arg in argv[1:]:
        if arg.value is None:
            return None
        texts.append(arg.value)
    if program == "cat":
        return stdin if not texts or texts == ["-"] else None
    if program == "echo":
        newline = "\n"
        if texts and texts[0] == "-n":
            texts, newline = texts[1:], ""
        if (texts and texts[0].startswith("-")) or any("\\" in t for t in texts):
            return None  # -e, -E and escapes: not worth decoding here
        return " ".join(texts) + newline
    if program == "printf" and texts:
        form = _printf_escapes(texts[0])
        if form is not None and "%" not in form:
            return form
        if form in ("%s", "%s\n") and len(texts) > 1:
            end = "\n" if form == "%s\n" else ""
            return "".join(t + end for t in texts[1:])
    return None


_PRINTF_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


def _printf_escapes(form: str) -> str | None:
    """printf's format with \n, \t and \\ decoded; None for any other escape."""
    out: list[str] = []
    i = 0
    while i < len(form):
        if form[i] != "\\":
            out.append(form[i])
            i += 1
            continue
        decoded = _PRINTF_ESCAPES.get(form[i + 1 : i + 2])
        if decoded is None:
            return None
        out.append(decoded)
        i += 2
    return "".join(out)


def opened(w: Walker, redirects: Sequence[Any], cwd: str | None) -> Fds:
    """What the redirects of a compound statement (`{ ...; } < f`) open for its body."""
    fds: Fds = {}
    for red in redirects:
        if red.type == "file_redirect":
            _redirect(w, red, cwd, [], [], fds)
    return fds
