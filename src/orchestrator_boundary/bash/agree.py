"""Where tree-sitter-bash and Bash may read the same text differently: such text is unparseable.

tree-sitter-bash is not Bash. In a few places it splits the text differently, and the
difference can hide a whole command from the walk (attack round A, report section A):

- ``\\r``, ``\\v`` and ``\\f`` are blanks to the grammar and word characters to Bash, so
  ``echo x \\r# ; touch f`` is a comment to one and two commands to the other;
- a backslash-newline is removed by Bash before it splits words (``r\\<nl>m`` is ``rm``,
  ``a\\<nl>#`` is the word ``a#``, ``"$\\<nl>(cmd)"`` is a command substitution); the grammar
  treats it as a blank between tokens;
- a ``#`` Bash reads inside a word (``x=(a)#``) the grammar reads as a comment;
- backticks the grammar does not see as a substitution (``${x:-`cmd`}``, escaped backticks
  nested in backticks);
- heredoc delimiters Bash quote-removes (``E"O"F``, ``$'EOF'``) and lines it joins
  (``EO\\<nl>F``), so that the body ends elsewhere than the grammar says.

``disagreement`` finds these forms with one pass over the text and one pruned walk of the tree,
and names the first; the analysis then answers ``unparseable`` (ADR 0006's rule for text the
grammar does not read). None of them occurs in the corpus's 3,738 real commands. Backticks in
an unquoted heredoc body are no disagreement: ``heredoc_backticks`` reads them for the walk.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from orchestrator_boundary.bash.budget import Budget

_ODD_BLANKS = (b"\r", b"\v", b"\f")
_BLANK = frozenset(b" \t\n")
# bytes after which Bash starts a new word, so that a `#` there begins a comment
_COMMENT_AFTER = frozenset(b" \t\n;&|(")
_LITERAL = frozenset({"raw_string", "ansi_c_string", "comment"})
_DELIMITER_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-")


def _escaped(source: bytes, at: int) -> bool:
    """Whether the byte at ``at`` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and source[at - count - 1] == 0x5C:
        count += 1
    return count % 2 == 1


def _positions(source: bytes, needle: bytes, budget: Budget) -> list[int]:
    """Where ``needle`` occurs unescaped (not after an odd run of backslashes)."""
    found: list[int] = []
    at = source.find(needle)
    while at >= 0:
        budget.spend()
        if not _escaped(source, at):
            found.append(at)
        at = source.find(needle, at + 1)
    return found


def _inside(positions: list[int], start: int, end: int) -> bool:
    i = bisect_left(positions, start)
    return i < len(positions) and positions[i] < end


class _Scan:
    """One pruned walk of the tree: literal regions, backtick substitutions, comments and
    heredocs, checked as they are met."""

    def __init__(self, source: bytes, budget: Budget) -> None:
        self.source = source
        self.budget = budget
        self.joins = _positions(source, b"\\\n", budget)  # backslash-newline
        self.ticks = _positions(source, b"`", budget)
        self.hash = b"#" in source
        self.heredoc = b"<<" in source
        self.literal: list[tuple[int, int]] = []  # text where neither matters
        self.bodies: list[tuple[int, int]] = []  # unquoted heredoc bodies (backticks read)
        self.tick_ends: set[int] = set()  # the backticks that open or close a substitution

    def interesting(self, node: Any) -> bool:
        start, end = node.start_byte, node.end_byte
        if _inside(self.joins, start, end) or _inside(self.ticks, start, end):
            return True
        if self.hash and self.source.find(b"#", start, end) >= 0:
            return True
        return self.heredoc and self.source.find(b"<<", start, end) >= 0

    def walk(self, root: Any) -> str:
        stack = [root]
        while stack:
            node = stack.pop()
            if not self.interesting(node):
                self.budget.spend(node.descendant_count)
                continue
            self.budget.spend()
            why = self.visit(node)
            if why:
                return why
            if node.type not in _LITERAL:
                stack.extend(node.children)
        return ""

    def visit(self, node: Any) -> str:
        kind = node.type
        if kind == "comment":
            start = node.start_byte
            before = self.source[start - 1] if start else 0x0A
            if before not in _COMMENT_AFTER or (
                before == 0x0A and _escaped(self.source, start - 1)
            ):
                return "a '#' Bash reads inside a word is read as a comment"
        if kind in _LITERAL:
            self.literal.append((node.start_byte, node.end_byte))
        elif kind == "command_substitution" and self.source[node.start_byte] == 0x60:
            start, end = node.start_byte, node.end_byte
            if self.source.find(b"`", start + 1, end - 1) >= 0:
                return "backticks nested in backticks"
            self.tick_ends.update((start, end - 1))
        elif kind == "heredoc_redirect":
            return self.heredoc_redirect(node)
        return ""

    def heredoc_redirect(self, node: Any) -> str:
        op = start = body = end = None
        for child in node.children:
            kind = child.type
            if kind in ("<<", "<<-"):
                op = kind
            elif kind == "heredoc_start":
                start = child
            elif kind == "heredoc_body":
                body = child
            elif kind == "heredoc_end":
                end = child
        if start is None or end is None:
            return "a heredoc without its end"
        delimiter, quoted = _delimiter(start.text)
        if delimiter is None or end.text != delimiter:
            return "a heredoc delimiter Bash may read differently"
        if body is None:
            return ""
        span = (body.start_byte, body.end_byte)
        (self.literal if quoted else self.bodies).append(span)
        if _ends_early(body.text, delimiter, quoted, op == "<<-"):
            return "a heredoc body Bash may end elsewhere"
        return ""

    def check(self) -> str:
        self.literal.sort()
        self.bodies.sort()
        for at in self.joins:
            self.budget.spend()
            if self._within(self.literal, at):
                continue
            before = self.source[at - 1] if at else 0x0A
            after = self.source[at + 2] if at + 2 < len(self.source) else 0x0A
            if before not in _BLANK and after not in _BLANK:
                return "a backslash-newline inside a word (Bash joins the two lines)"
        for at in self.ticks:
            self.budget.spend()
            if at in self.tick_ends or self._within(self.literal, at):
                continue
            if not self._within(self.bodies, at):
                return "a backtick the grammar does not read as a command substitution"
        return ""

    @staticmethod
    def _within(spans: list[tuple[int, int]], at: int) -> bool:
        i = bisect_left(spans, (at + 1,)) - 1
        return i >= 0 and spans[i][0] <= at < spans[i][1]


def _delimiter(raw: bytes) -> tuple[bytes | None, bool]:
    """The delimiter Bash ends a heredoc at, and whether the body is quoted; None for a form
    this module does not model (``E"O"F``, ``$'EOF'``, ``EOF""``)."""
    quoted = False
    word = raw
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in (0x22, 0x27):
        word, quoted = raw[1:-1], True
    elif raw[:1] == b"\\":
        word, quoted = raw[1:], True
    if word and all(b in _DELIMITER_CHARS for b in word):
        return word, quoted
    return None, quoted


def _ends_early(body: bytes, delimiter: bytes, quoted: bool, strip_tabs: bool) -> bool:
    """Whether Bash would end the heredoc before the grammar's end: a line of the body equals
    the delimiter once Bash has joined backslash-newlines (unquoted bodies) and removed
    leading tabs (``<<-``)."""
    lines = body.split(b"\n")
    logical = b""
    for line in lines[:-1]:
        if not quoted and line.endswith(b"\\") and _escaped(line + b"\n", len(line)):
            if strip_tabs:
                return True  # joined lines and stripped tabs: not modelled
            logical += line[:-1]
            continue
        logical += line
        if (logical.lstrip(b"\t") if strip_tabs else logical) == delimiter:
            return True
        logical = b""
    return bool(logical)  # the last line runs on into the grammar's end line


# nodes that are (part of) a word: one that touches the next is the same word to Bash
_WORDISH = frozenset(
    [
        "word",
        "raw_string",
        "string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "arithmetic_expansion",
        "process_substitution",
        "number",
        "command_name",
        "variable_assignment",
    ]
)


def _dropped(node: Any, source: bytes, at: int) -> bool:
    """The backslash at ``at`` falls between the children of ``node``, in no word: the grammar
    skips ``\\ `` before a word (``touch \\ a`` is ``a`` to it, `` a`` to Bash; observed:
    ``echo x > \\ /../.claude/settings.json`` wrote the settings through a folder named blank).
    A backslash-newline there is a line continuation."""
    if node is None or node.child_count == 0 or source[at + 1 : at + 2] in (b"\n", b""):
        return False
    return not any(c.start_byte <= at < c.end_byte for c in node.children)


def _split_escape(root: Any, source: bytes, budget: Budget) -> str:
    """A word the grammar splits in two where Bash reads one (ADR 0082): at a backslash right
    after a quote or an expansion (``'a/'\\b``, ``"$x"\\b``, ``x="a"\\b cmd``), and after a
    ``$`` that it ends a word with (``a${X}$Y/z`` is ``a${X}$`` and ``Y/z`` to it: observed,
    ``cp f a${X}$Y/settings.json`` wrote ``.claude/settings.json`` while the analysis named
    ``Y/settings.json``), and before a backquote (``a`true`{,.bak}`` is ``a`` and a brace word)."""
    for mark, shift in ((b"\\", 0), (b"$", 1), (b"`", 0)):
        at = source.find(mark)
        while at >= 0:
            budget.spend()
            if mark == b"\\" and _dropped(root.descendant_for_byte_range(at, at), source, at):
                return "an escaped blank the grammar drops (Bash keeps it in the word)"
            if _touches(root, at + shift):
                return "a word the grammar splits in two (Bash reads one word)"
            at = source.find(mark, at + 1)
    return ""


def _touches(root: Any, at: int) -> bool:
    """A word-like node starts at ``at`` right where a word-like sibling ends."""
    node = root.descendant_for_byte_range(at, at)
    while node is not None and node.parent is not None and node.parent.start_byte == at:
        node = node.parent
    if node is None or node.start_byte != at or node.type not in _WORDISH:
        return False
    before = node.prev_sibling
    return before is not None and before.end_byte == at and before.type in _WORDISH


def disagreement(root: Any, source: bytes, budget: Budget) -> str:
    """Why Bash may read ``source`` (parsed as ``root``) differently from the grammar, or ""."""
    for odd in _ODD_BLANKS:
        if odd in source:
            return "a carriage return, vertical tab or form feed (Bash reads it as part of a word)"
    marks = (b"\\", b"$", b"`")
    split = _split_escape(root, source, budget) if any(m in source for m in marks) else ""
    if split:
        return split
    if not any(m in source for m in (b"\\\n", b"`", b"#", b"<<")):
        return ""
    scan = _Scan(source, budget)
    return scan.walk(root) or scan.check()


def heredoc_backticks(body: str) -> list[str] | None:
    """The command lines of the backtick substitutions in an unquoted heredoc body (the grammar
    leaves them as text), unescaped as Bash does; None when a backtick is not closed."""
    codes: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if ch != "`":
            i += 1
            continue
        out: list[str] = []
        j = i + 1
        while j < n and body[j] != "`":
            if body[j] == "\\" and j + 1 < n and body[j + 1] in "\\`$":
                j += 1
            out.append(body[j])
            j += 1
        if j >= n:
            return None
        codes.append("".join(out))
        i = j + 1
    return codes


def unread_body(body: str) -> str | None:
    """Code that reads an unquoted heredoc body the grammar left as plain text although Bash
    expands it: a ``<<-`` body (observed: ``cat <<-EOF`` with a tab-indented ``$(touch x)``
    wrote x; the grammar reads no substitution there). The body, its leading tabs removed as
    Bash removes them, fed to ``cat`` by a plain ``<<`` heredoc the grammar does read (ADR
    0077); None when it holds no ``$``."""
    if "$" not in body:
        return None
    text = "".join(line.lstrip("\t") for line in body.splitlines(keepends=True)).rstrip("\t")
    end = "OB_END"
    while end in text:
        end += "_"
    return f"cat <<{end}\n{text}{'' if text.endswith(chr(10)) else chr(10)}{end}\n"
