"""Properties: analyze never raises, stays within its budget, never calls a write read-only."""

from __future__ import annotations

import shlex
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator_boundary.bash import BashAnalysis, EffectKind, Status, analyze, clear_memo

CWD = "/w/p"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TOKENS = [
    "rm",
    "cp",
    "echo",
    "ls",
    "cat",
    "sed -i",
    "awk",
    "bash -c",
    "sh",
    "eval",
    "sudo",
    "env",
    "xargs",
    "find",
    "git",
    "python -c",
    "node -e",
    "tee",
    "a",
    "b.txt",
    '"q w"',
    "'s t'",
    "$X",
    "${Y}",
    "$(",
    ")",
    "`",
    "<(",
    ">(",
    ">",
    ">>",
    "2>&1",
    "&>",
    "<",
    "<<EOF\n",
    "\nEOF\n",
    "<<<",
    "|",
    "||",
    "&&",
    ";",
    "&",
    "\n",
    "{",
    "}",
    "(",
    "((",
    "))",
    "if",
    "then",
    "else",
    "fi",
    "for",
    "in",
    "do",
    "done",
    "case",
    "esac",
    ";;",
    "while",
    "!",
    "\\",
    "'",
    '"',
    "#",
    "~",
    "*",
    "?",
    "[",
    "]",
    "[[",
    "]]",
    "=",
    "X=1",
    "--",
    "-rf",
    "-exec",
    "{}",
    "\\;",
    "cd",
    "..",
    "/",
    "$'\\n'",
    "-n",
    "-o",
    "of=x",
]

shellish = st.lists(st.sampled_from(_TOKENS), max_size=40).map(" ".join)


def _check(result: BashAnalysis) -> None:
    assert isinstance(result, BashAnalysis)
    assert result.status in Status
    if result.status == Status.UNPARSEABLE or result.exhausted:
        assert result.error
    if result.exhausted:  # issue 12, point 9: out of budget is opaque, never read_only
        assert result.status is Status.OPAQUE and result.error.startswith("budget exhausted")
    if result.status == Status.READ_ONLY:
        assert result.effects == ()
    for effect in result.effects:
        assert effect.resolved is None or effect.resolved.startswith("/")


@FAST
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    _check(analyze(text, cwd=CWD))


@FAST
@given(shellish)
def test_shellish_text_never_raises(text: str) -> None:
    _check(analyze(text, cwd=CWD, home="/home/u"))


@FAST
@given(shellish, st.sampled_from(["bash", "powershell"]))
def test_both_shells_never_raise(text: str, shell: str) -> None:
    _check(analyze(text, cwd=CWD, shell=shell))


def _wrap(inner: str, how: str) -> str:
    return {
        "pipe-left": f"{inner} | cat",
        "pipe-right": f"ls | {inner}",
        "and": f"true && {inner}",
        "or": f"false || {inner}",
        "semi": f"echo x; {inner}",
        "subshell": f"( {inner} )",
        "brace": f"{{ {inner}; }}",
        "if": f"if true; then {inner}; fi",
        "for": f"for i in 1 2; do {inner}; done",
        "cmdsub": f"echo $( {inner} )",
        "procsub": f"cat <( {inner} )",
        "bash-c": f"bash -c {shlex.quote(inner)}",
        "sudo": f"sudo {inner}" if not inner.startswith(("(", "{", "if", "for")) else inner,
        "negate": f"! {inner}",
        "func": f"f() {{ {inner}; }}",
    }[how]


@FAST
@given(
    st.lists(
        st.sampled_from(
            [
                "pipe-left",
                "pipe-right",
                "and",
                "or",
                "semi",
                "subshell",
                "brace",
                "if",
                "for",
                "cmdsub",
                "procsub",
                "bash-c",
                "sudo",
                "negate",
                "func",
            ]
        ),
        max_size=6,
    )
)
def test_a_nested_write_is_never_read_only(wrappers: list[str]) -> None:
    command = "rm -f marker.txt"
    for how in wrappers:
        command = _wrap(command, how)
    result = analyze(command, cwd=CWD)
    assert result.status in (Status.WRITES, Status.OPAQUE, Status.UNPARSEABLE), command
    if result.status == Status.WRITES:
        assert (EffectKind.DELETE, "/w/p/marker.txt") in {
            (e.kind, e.resolved) for e in result.effects
        }


# --- budget cases ----------------------------------------------------------------------------
def _not_read_only(result: BashAnalysis) -> None:
    _check(result)
    assert result.status != Status.READ_ONLY


def _exhausted(result: BashAnalysis) -> None:
    """Out of budget: opaque, with a reason that says so (issue 12, point 9)."""
    _check(result)
    assert result.status is Status.OPAQUE and result.exhausted, result
    assert result.error.startswith("budget exhausted"), result.error
    assert "stopped before it had read the whole command" in result.error


def test_100kb_command_with_a_write_at_the_end() -> None:
    command = "echo a; " * 12_800 + "rm -f last.txt"
    assert len(command) > 100_000
    result = analyze(command, cwd=CWD)
    _not_read_only(result)
    if result.status == Status.WRITES:
        assert result.effects[-1].resolved == "/w/p/last.txt"


def test_5000_deep_command_substitution() -> None:
    command = "echo " + "$(" * 5000 + "rm deep" + ")" * 5000
    result = analyze(command, cwd=CWD)
    _exhausted(result)
    assert "nesting" in result.error


def test_deep_subshells() -> None:
    result = analyze("(" * 3000 + "rm x" + ")" * 3000, cwd=CWD)
    _not_read_only(result)


def test_long_pipeline() -> None:
    result = analyze("cat f" + " | cat" * 5000 + " | tee out.txt", cwd=CWD)
    _not_read_only(result)


def test_long_and_chain_does_not_recurse() -> None:
    result = analyze("true && " * 5000 + "rm z", cwd=CWD)
    _not_read_only(result)


def test_deeply_nested_shells_stop_at_the_unwrap_depth() -> None:
    result = analyze("eval " * 12 + "rm x", cwd=CWD)
    _exhausted(result)
    command = "rm x"
    for _ in range(5):
        command = f"bash -c {shlex.quote(command)}"
    assert analyze(command, cwd=CWD).effects[-1].resolved == "/w/p/x"
    command = "sh -c 'bash -c \"eval eval eval eval eval eval eval eval rm x\"'"
    result = analyze(command, cwd=CWD)
    _exhausted(result)


def test_input_over_256kb_is_unparseable() -> None:
    result = analyze("echo " + "a" * 300_000, cwd=CWD)
    assert result.status == Status.UNPARSEABLE
    assert "too large" in result.error


def test_small_budget_is_exhausted_not_read_only() -> None:
    _exhausted(analyze("ls; " * 200 + "rm y", cwd=CWD, budget=50))
    _exhausted(analyze("ls; " * 200 + "ls", cwd=CWD, budget=50))  # read-only text, unread
    _exhausted(analyze("Get-ChildItem; " * 200, cwd=CWD, shell="powershell", budget=50))


def test_adversarial_inline_code_is_linear() -> None:
    code = "fs.writeFileSync(" * 20_000
    result = analyze(f"node -e '{code}'", cwd=CWD)
    _check(result)
    awk = "{print " + "(" * 20_000 + "}"
    _check(analyze(f"awk '{awk}' f", cwd=CWD))
    sed = "s/" + "\\/" * 20_000
    _check(analyze(f"sed '{sed}' f", cwd=CWD))


def test_deep_python_inline_code() -> None:
    code = "(" * 5000 + ")" * 5000
    result = analyze(f"python -c '{code}'", cwd=CWD)
    assert result.status == Status.OPAQUE


def test_powershell_huge_and_nested() -> None:
    _check(analyze("{" * 5000 + "}" * 5000, cwd=CWD, shell="powershell"))
    _check(analyze("Get-Item x; " * 10_000, cwd=CWD, shell="powershell"))


def test_surrogates_and_nul() -> None:
    _check(analyze("echo \udc9d > f\x00", cwd=CWD))


def _substitution_nodes(source: bytes) -> bool:
    from orchestrator_boundary.bash.parse import parse

    stack = [parse(source)]
    while stack:
        node = stack.pop()
        if node.type in ("command_substitution", "process_substitution"):
            return True
        stack.extend(node.children)
    return False


_NO_PARENS = [t for t in _TOKENS if "(" not in t and "`" not in t and ")" not in t]
mixed = st.one_of(shellish, st.lists(st.sampled_from(_NO_PARENS), max_size=40).map(" ".join))

_PARSEABLE = [  # statements that parse, most with a '(' or '`' somewhere
    "echo a b",
    "ls $(pwd) > out",
    "cat <(ls -la) | tee f",
    'echo "(x) $(date)" >> log',
    "x=$(date +%s)",
    "a `b c` d",
    "(cd d && rm -f g)",
    "echo '$(not run)' x",
    "diff <(sort a) >(wc -l)",
    "f() { touch x; }",
    "[[ $(id -u) == 0 ]] && echo root",
    "sudo bash -c 'echo $(whoami) > /tmp/w'",
    "for i in $(seq 3); do echo $i > f$i; done",
    "cat <<EOF > f\n$(date)\nEOF\n",
    "python -c 'print(1)'",
    "if true; then cd x; fi",
    "for f in a b; do pushd $f; touch g; done",
    "while false; do echo cd > \\cd; done",
    "case $x in a) 'cd' y;; esac",
]
parseable = st.lists(st.sampled_from(_PARSEABLE), min_size=1, max_size=6).map(
    lambda parts: " && ".join(parts)
)


@FAST
@given(mixed)
def test_text_without_paren_or_backtick_has_no_substitution(text: str) -> None:
    """The walk skips its search for $(...), `...`, <(...) and >(...) in text that holds
    neither '(' nor '`' (bash/walk.py): the grammar never finds one there either."""
    source = text.encode()
    if _substitution_nodes(source):
        assert b"(" in source or b"`" in source


@FAST
@given(st.one_of(mixed, parseable))
def test_skipping_the_substitution_search_changes_no_analysis(text: str) -> None:
    from unittest import mock

    from orchestrator_boundary.bash import walk

    real_init = walk.Walker.__init__

    def always_search(self: walk.Walker, *args: object) -> None:
        real_init(self, *args)  # type: ignore[arg-type]
        self.substitutes = True

    clear_memo()  # else the second analysis is the first one, remembered
    fast = analyze(text, cwd=CWD, home="/home/u")
    clear_memo()
    with mock.patch.object(walk.Walker, "__init__", always_search):
        slow = analyze(text, cwd=CWD, home="/home/u")
    assert fast == slow


@FAST
@given(st.one_of(mixed, parseable))
def test_a_node_without_paren_or_backtick_has_no_substitution_below(text: str) -> None:
    """The substitution search skips a subtree whose bytes hold neither '(' nor '`', and
    charges its ``descendant_count`` (bash/walk.py): the grammar finds no substitution in such
    a subtree, and that count is the number of nodes a walk over ``children`` visits."""
    from orchestrator_boundary.bash.parse import parse

    source = text.encode()

    def visited(node: object) -> int:
        return 1 + sum(visited(c) for c in node.children)  # type: ignore[attr-defined]

    stack = [parse(source)]
    while stack:
        node = stack.pop()
        assert node.descendant_count == visited(node)
        segment = source[node.start_byte : node.end_byte]
        if b"(" not in segment and b"`" not in segment:
            assert not _substitution_nodes(segment) or node.type == "program"
            below = [node]
            while below:
                cur = below.pop()
                assert cur.type not in ("command_substitution", "process_substitution")
                below.extend(cur.children)
        stack.extend(node.children)


@FAST
@given(st.one_of(mixed, parseable))
def test_the_pruned_substitution_search_changes_no_analysis(text: str) -> None:
    """Against the plain searches for substitutions and for a cd in a loop or conditional
    (every node visited and charged one step): the same analysis, and the same steps charged,
    so that every budget runs out where it did."""
    from unittest import mock

    from orchestrator_boundary.bash import budget, walk

    def plain(self: walk.Walker, node: Any, cwd: str | None, depth: int) -> None:
        if not self.substitutes:
            return
        stack = [node]
        while stack:
            self.env.budget.spend()
            cur = stack.pop()
            if cur.type in ("command_substitution", "process_substitution"):
                self.block(cur.named_children, cwd, depth + 1)
                continue
            stack.extend(reversed(cur.children))

    def counted() -> tuple[BashAnalysis, int]:
        made: list[budget.Budget] = []
        real_init = budget.Budget.__init__

        def init(self: budget.Budget, limit: int = budget.MAX_STEPS) -> None:
            real_init(self, limit)
            made.append(self)

        clear_memo()
        with mock.patch.object(budget.Budget, "__init__", init):
            result = analyze(text, cwd=CWD, home="/home/u")
        return result, made[0].steps

    def plain_has_cd(self: walk.Walker, node: Any) -> bool:
        stack = [node]
        while stack:
            self.env.budget.spend()
            cur = stack.pop()
            if cur.type == "command_name" and cur.text.decode().strip("\\'\"") in walk._CD:
                return True
            stack.extend(cur.children)
        return False

    fast = counted()
    with (
        mock.patch.object(walk.Walker, "substitutions", plain),
        mock.patch.object(walk.Walker, "_has_cd", plain_has_cd),
    ):
        slow = counted()
    assert fast == slow


@FAST
@given(st.one_of(shellish, parseable))
def test_node_texts_cut_from_the_command_change_no_analysis(text: str) -> None:
    """The walk cuts node texts from the command when it is ASCII (parse.text_in); decoding
    each node's bytes instead gives the same analysis."""
    from unittest import mock

    from orchestrator_boundary.bash import walk

    real_init = walk.Walker.__init__

    def decode_each(self: walk.Walker, *args: Any) -> None:
        real_init(self, *args)
        self.code = None

    clear_memo()
    cut = analyze(text, cwd=CWD, home="/home/u")
    clear_memo()
    with mock.patch.object(walk.Walker, "__init__", decode_each):
        decoded = analyze(text, cwd=CWD, home="/home/u")
    assert cut == decoded


@FAST
@given(st.text(alphabet="ab $`\\\"(){}!\n'", max_size=30))
def test_a_string_without_dollar_or_backtick_holds_only_string_content(body: str) -> None:
    """words._part reads a double-quoted string's children only when its text holds a '$' or
    a '`', which every expansion and substitution inside one starts with."""
    from orchestrator_boundary.bash.parse import parse

    root = parse(f'echo "{body}" x'.encode())
    if root.has_error:
        return  # unparseable: the walk never reads it
    stack = [root]
    while stack:
        node = stack.pop()
        text = node.text.decode()
        if node.type in ("string", "translated_string") and "$" not in text and "`" not in text:
            assert all(c.type == "string_content" for c in node.named_children), text
        stack.extend(node.children)
