"""What a hook's script runs in turn: the code it sources, runs or imports. ADR 0078.

Also what a skill's ``!`` lines, and the hooks in the front matter of a skill, a command or
an agent definition, name as code (``definitions``).

A settings command names ``bash .claude/hooks/post.sh``; post.sh sources ``lib.sh``, runs
``python3 scripts/check.py``, which imports ``rules``. Each of those runs with the hook, with
no PreToolUse hook asked, so each is as much the hook as post.sh is (ADR 0071 protected only
the first). ``followed`` reads each protected script's text for the code files it names and
protects those that exist, ``LEVELS`` levels deep and ``MAX_FOLLOWED`` files at most.

What counts as named, read on the text (no shell is parsed, no program run):
- a word with a code file's extension in the place of a program, or after one that runs code
  (``scripts/check.py``, ``source "$DIR/common.sh"``, ``["python3", "gen.py"]``), not an
  argument of another program (``ruff check src/main.py`` checks main.py, it does not run it:
  protecting every file a hook names made the project's own sources TAMPER, ADR 0081);
- the word after a program that runs or sources it (``source``, ``.``, ``bash``, ``python3``,
  ``node``...), extension or not (``. ./scripts/env_setup``);
- a Python ``import x`` / ``from x.y import`` (``x.py``, ``x/y.py``, a package's
  ``__init__.py``) next to the script, which Python puts first on ``sys.path``;
- a JavaScript ``require('./x')`` / ``import ... from './x'`` next to the script, with the
  extensions Node tries.
Of a skill, a command or an agent definition (markdown), only its front matter and its
`` !`...` `` spans are read: the rest is prose for the model, which names files to work on.
Each is looked for next to the script and in the project root (hooks run there); a word
that starts after a variable or a command substitution (``"$(dirname "$0")/lib.sh"``,
``${BASH_SOURCE%/*}/x.sh``) is read as relative to both. Only existing regular files count, so
data a script reads (``package.json``) stays an ordinary file.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from collections.abc import Iterable, Iterator

from orchestrator_boundary.paths import FileSystem

SCRIPT_MAX_BYTES = 64 * 1024  # a longer script is not read for what it runs
LEVELS = 3  # scripts read below the ones a settings command names
MAX_FOLLOWED = 64  # files protected this way per project
MAX_CANDIDATES = 128  # names read per script
MAX_TEXT = 1024 * 1024  # characters of script text read per call, all levels together
MAX_LOOKUPS = 4096  # file-system lookups per call
LABEL = "code a hook's script runs in turn"

# a code file's extensions; a name is a run of path characters (linear to find: a pattern
# that backtracks over a long run, as a 64 KiB minified line is, takes seconds)
_EXTS = frozenset(
    {"sh", "bash", "zsh", "ksh", "fish", "py", "pyw", "js", "mjs", "cjs", "ts", "mts", "cts"}
    | {"rb", "pl", "pm", "php", "lua", "ps1", "psm1", "bat", "cmd", "tcl"}
)
_WORD = re.compile(r"[\w.\-/\\~@+]+")
MAX_NAME = 4096  # a run longer than this is no file name
_RUNNERS = (
    r"source|\.|bash|sh|zsh|ksh|dash|exec|python[\d.]*|node|deno|bun|tsx|ruby|perl|php|"
    r"pwsh|powershell|call"
)
_RUN = re.compile(
    r"(?:^|[\s;&|(`])(?:" + _RUNNERS + r")\s+(?:-\S+\s+)*[\"']?([^\s;&|)`\"'<>]+)", re.M
)
_PY = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w., \t]+))", re.M)
_JS = re.compile(r"""(?:require\s*\(\s*|import\s*\(\s*|from\s+|import\s+)['"](\.\.?/[^'"]+)['"]""")
# a variable's or a folder variable's spelling: shells, PowerShell, cmd
_VARIABLE = re.compile(r"\$\{[^}\n]{0,200}\}|\$\([^()\n]{0,200}\)|\$[A-Za-z_]\w*|\$\d|%~dp0|%\w+%")
_HOME = re.compile(r"(?<![\w~$])~(?=[/\\])|\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE", re.I)
_JS_TRIES = ("", ".js", ".mjs", ".cjs", ".ts", "/index.js")
# what may stand before a program word in its command: the runners, wrappers, keywords,
# options, assignments and numbers (``timeout 5``); anything else makes the word an argument
_LEAD = re.compile(r"(?:" + _RUNNERS + r"|-\S*|\w+=\S*|\d+|exec|env|command|builtin|then|do"
                   r"|else|elif|if|while|until|!|sudo|time|nohup|nice|timeout|uv|run|npx|pnpm"
                   r"|yarn|poetry|pipenv|start|cmd|/c|@|\{|[\w-]+:)\Z", re.I)  # fmt: skip
_SEPARATOR = re.compile(r"[\n;&|(`{]")
_FRONT = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.S)
_BANG = re.compile(r"!`([^`\n]+)`")
_BANG_BLOCK = re.compile(r"^```![ \t]*\n(.*?)^```", re.M | re.S)


def _runnable(text: str, path: str) -> str:
    """The text of ``path`` that runs: all of a script; of a markdown definition, its front
    matter (its hooks), its `` !`...` `` spans and its ```` ```! ```` blocks, one per line."""
    if not path.lower().endswith(".md"):
        return text
    front = _FRONT.match(text)
    spans = [m[1] for m in (*_BANG.finditer(text), *_BANG_BLOCK.finditer(text))]
    return "\n".join([front[1] if front else "", *spans])


def _runs(text: str, at: int) -> bool:
    """Does the word at ``at`` stand where a program does, or after one that runs code?"""
    window = text[max(0, at - 400) : at]
    cut = max((m.end() for m in _SEPARATOR.finditer(window)), default=0)
    return all(_LEAD.match(t) for t in re.sub(r"[\"'\[\],]", " ", window[cut:]).split())


# What ``_names`` found in a script's text, keyed on the text itself (and the home), so never
# stale: a changed script is a new key. Only a long-lived process (the evaluator) reuses it
# between calls; what exists on disk is still asked each time (ADR 0083).
_MEMO: dict[tuple[str, str | None], list[tuple[str, tuple[str, ...]]]] = {}
MEMO_TEXT = 4 * 1024 * 1024  # characters of script text kept at most, all keys together
_MEMO_SIZE = [0]


def forget() -> None:
    """Empty the memo of script names (tests and benchmarks: a cold start)."""
    _MEMO.clear()
    _MEMO_SIZE[0] = 0


def _names(text: str, home: str | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """(name, suffixes to try) for each code file ``text`` names, remembered per text."""
    key = (text, home)
    found = _MEMO.get(key)
    if found is None:
        found = _read_names(text, home)
        if _MEMO_SIZE[0] + len(text) > MEMO_TEXT:
            forget()
        _MEMO[key] = found
        _MEMO_SIZE[0] += len(text)
    return found


def _read_names(text: str, home: str | None) -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    if home:  # ~/bin/x.js, $HOME/bin/x.js: the user's home
        text = _HOME.sub(lambda _: home.rstrip("/\\"), text)
    text = _VARIABLE.sub(" ", text)  # "$DIR/x.sh" -> " /x.sh": read below each base
    for m in _WORD.finditer(text):
        word = m[0]
        stem, dot, ext = word.rpartition(".")
        if (
            dot
            and ext.lower() in _EXTS
            and (stem[-1:].isalnum() or stem[-1:] == "_")
            and len(word) <= MAX_NAME
            and _runs(text, m.start())
        ):
            out.append((word, ("",)))
    out += [(m[1], ("",)) for m in _RUN.finditer(text)]
    out += [(m[1], _JS_TRIES) for m in _JS.finditer(text)]
    for m in _PY.finditer(text):
        modules = [m[1]] if m[1] is not None else m[2].replace("\t", " ").split(",")
        for module in modules:
            dotted = module.strip().split(" ")[0].lstrip(".")
            if dotted and all(p.isidentifier() for p in dotted.split(".")):
                out.append((dotted.replace(".", "/"), (".py", "/__init__.py")))
    return out[:MAX_CANDIDATES]


def _places(name: str, here: str, bases: tuple[str, ...], windows: bool) -> list[str]:
    """Where ``name`` may be: as it is when absolute, and (a word cut after a variable may
    look absolute) below the script's folder and each of ``bases``."""
    mod = ntpath if windows else posixpath
    tail = name.lstrip("/\\")
    out = [mod.normpath(name)] if mod.isabs(name) else []
    if mod.isabs(tail):  # C:\\x: nothing to join
        return out
    return out + [mod.normpath(mod.join(base, tail)) for base in (here, *bases)]


def followed(
    scripts: list[str],
    bases: tuple[str, ...],
    fs: FileSystem,
    known: Iterable[str] = (),
    label: str = LABEL,
    home: str | None = None,
) -> dict[str, str]:
    """{path: label} of each code file ``scripts`` run in turn, not already in ``scripts``
    or ``known``; ``bases[0]`` is the project root, the others the plugins' roots."""
    seen = {*scripts, *known, bases[0]}
    out: dict[str, str] = {}
    level, budget = list(scripts), [MAX_TEXT, MAX_LOOKUPS]
    for _ in range(LEVELS):
        found: list[str] = []
        for script in level:
            text = fs.script_text(script, SCRIPT_MAX_BYTES) if budget[0] > 0 else None
            if not text:
                continue
            text = _runnable(text, script)
            budget[0] -= len(text)
            for path in _existing(script, _names(text, home), bases, fs, seen, budget):
                found.append(path)
                out[path] = label
                if len(out) >= MAX_FOLLOWED:
                    return out
        level = found
    return out


def _existing(
    script: str,
    names: list[tuple[str, tuple[str, ...]]],
    bases: tuple[str, ...],
    fs: FileSystem,
    seen: set[str],
    budget: list[int],
) -> Iterator[str]:
    """Each regular file ``names`` may be that is not in ``seen`` (added to it), while the
    budget of file-system lookups lasts."""
    here = (ntpath if fs.windows else posixpath).dirname(script)
    for name, suffixes in names:
        for place in _places(name, here, bases, fs.windows):
            for path in (place + s for s in suffixes):
                if path in seen or budget[1] <= 0:
                    continue
                budget[1] -= 1
                if fs.identity(path) is not None:
                    seen.add(path)
                    yield path


# Skills, commands and agent definitions: Claude Code runs the ``!`` lines of a skill or a
# command when it loads one, and the hooks in the front matter of each (an agent's while that
# subagent runs), with no PreToolUse hook asked. The files themselves are protected
# (``protect.CODE_DIRS``, ``.claude/agents``); the scripts they name are read from here.
DEFINITION_DIRS = ("agents", "skills", "commands")
MAX_DEFINITIONS = 256  # markdown files read per project (and per user folder)
DEFINITIONS_LABEL = "code a skill, a command or an agent definition runs"


def definitions(claude_dirs: list[str], fs: FileSystem) -> list[str]:
    """The markdown files of the skills, commands and agent types below ``claude_dirs``
    (the project's ``.claude``, the user's Claude folder)."""
    mod = ntpath if fs.windows else posixpath
    out: list[str] = []
    for base in claude_dirs:
        for name in DEFINITION_DIRS:
            found = fs.files_below(mod.join(base, name), MAX_DEFINITIONS)
            out += [f for f in found if f.lower().endswith(".md")]
    return out[: MAX_DEFINITIONS * 2]
