"""The files the delegation ledger reads beside its state (ADR 0027): a subagent's
``meta.json``, the tail of the audit trail for the Stop summary, and another name of a file
(a hard link) among those other agents hold or wrote (ADR 0050); which of a call's writes may
have overwritten another agent's (``leaves_content``, ``overwriting``: ADR 0065, 0074); where
a write the text does not place lands (``find_roots``, ``matched_names``: ADR 0080).
Shell side, a leaf."""

from __future__ import annotations

import json
import ntpath
import os
import re

from orchestrator_boundary.contract_tables import MAIN
from orchestrator_boundary.fs import open_regular, read_regular
from orchestrator_boundary.paths import fold

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any

    from orchestrator_boundary.bash.model import BashAnalysis
    from orchestrator_boundary.paths import FileSystem, Located


def read_meta(transcript_path: str, agent_id: str) -> dict[str, Any] | None:
    """``agent-<id>.meta.json`` beside the session transcript (``transcript_path`` without
    ``.jsonl``, then ``subagents/``), or None when absent, unreadable or not a JSON object."""
    if not transcript_path.endswith(".jsonl") or not _safe_id(agent_id):
        return None
    folder = os.path.join(transcript_path[: -len(".jsonl")], "subagents")
    path = os.path.join(folder, f"agent-{agent_id}.meta.json")
    raw = read_regular(path, 65536)  # not a FIFO or device an agent put there: no hang
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def root_above(located: Located, root: str, insensitive: bool) -> str:
    """The state's name of the project's root (``locate`` names it by its absolute path, the
    files in it by relative ones) when ``located`` is there in it, else "": a write of the
    root (``git stash pop``) or of a folder wrote the files in it (ADR 0073); a file made
    there since (a new test beside copied fixtures) overwrites nothing of it."""
    there = located.inside and located.absolute and os.path.lexists(located.absolute)
    itself = fold(located.display, insensitive) == fold(root, insensitive)  # ADR 0080
    return fold(root, insensitive) if (there or itself) and root else ""


def unseen_label(who: str, path: str, running: bool, key: str, display: str, absolute: str) -> str:
    """Another agent's write at ``path`` (``state_claims.unseen_write``) as the stale rule
    names it, for a write at ``key``; "" when it finished and its file is gone. ``path`` is
    ``key``, a file below it, or a folder that holds it (ADR 0073)."""
    below = path[: len(key) + 1] == key + "/"
    full = absolute + path[len(key) :] if below else absolute
    if path != key and not below:  # its write of a folder that holds this file
        path = f"{display} (in the folder {path} it wrote)"
    if running:
        return f"{label(who)} wrote {path} (a write still running)"
    return f"{label(who)} wrote {path}" if os.path.lexists(full) else ""


def _safe_id(agent_id: str) -> bool:
    return 0 < len(agent_id) <= 64 and all(c.isalnum() or c in "-_" for c in agent_id)


def label(agent: str) -> str:
    """How a message names an agent; ``agent@session``: of another session (ADR 0085)."""
    agent, _, session = agent.partition("@")
    who = "the main agent" if agent == MAIN else f"subagent {agent}"
    return f"{who} of the Claude Code session {session}" if session else who


def alias_of(
    rows: Callable[[], object], root: str, absolute: str | None, fs: FileSystem | None
) -> tuple[str, str, str] | None:
    """(agent, description, path) of the row of ``rows()`` (``state_claims.others``: the
    files other agents hold or wrote) whose file is ``absolute`` under another name: a hard
    link (ADR 0050). Asked only of a file with more than one name."""
    if fs is None or not root or absolute is None:
        return None
    me = fs.identity(absolute)
    if me is None or me[2] < 2:
        return None
    found = rows()
    for path, agent, desc in found if isinstance(found, list) else ():
        other = fs.identity(path if os.path.isabs(path) else os.path.join(root, path))
        if other is not None and other[:2] == me[:2]:
            return agent, desc, path
    return None


def named_paths(tool_input: dict[str, Any], home: str | None, base: str = "") -> list[str]:
    """The path arguments of an unknown tool's input (``tool_args``): where an MCP tool may
    have written. A relative one is placed in ``base`` (the call's cwd, where Claude Code
    starts its servers: ADR 0059); without it, only the absolute ones."""
    from orchestrator_boundary.tool_args import arguments  # only an unknown tool's

    found = [placed(raw, base) for raw in arguments(tool_input, home).paths[:64]]
    return [p for p in found if p]


def placed(raw: str, base: str) -> str:
    """``raw`` when absolute; a relative path argument joined to ``base`` (absolute); ""
    when it cannot be placed (no base, a URL, ``~``, a drive-relative ``C:x``, a NUL)."""
    if os.path.isabs(raw):
        return raw
    if not (base and os.path.isabs(base) and raw) or raw.startswith("~") or "://" in raw:
        return ""
    return "" if "\x00" in raw or ntpath.splitdrive(raw)[0] else os.path.join(base, raw)


SUMMARY_TAIL_BYTES = 4 * 1024 * 1024  # the Stop summary reads at most this much of the trail


def tail_records(path: str) -> list[dict[str, Any]]:
    """The audit records in the last ``SUMMARY_TAIL_BYTES`` of the trail (a long session's
    first lines may be cut: the summary says what the tail holds)."""
    try:
        with open_regular(path) as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - SUMMARY_TAIL_BYTES))
            data = fh.read(SUMMARY_TAIL_BYTES)
    except OSError:
        return []
    lines = data.split(b"\n")
    if size > SUMMARY_TAIL_BYTES:
        lines = lines[1:]  # a line cut in the middle
    out = []
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out


# ---- what a call may have overwritten (contract_rules.overwrites_nothing, ADR 0065, 0074) ----


def leaves_content(command: str, path: str, deletes: bool, insensitive: bool) -> bool:
    """``overwrites_nothing`` for a Bash effect: ``command`` writes ``path``."""
    found = PROGRAM.match(command)
    program = found.group(1) if found and not deletes else ""
    if program == "mkdir":
        return True
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return program == "git" and (name.casefold() if insensitive else name) == ".git"


def overwriting(
    paths: Sequence[str], bash: BashAnalysis | None, root: str, insensitive: bool
) -> list[str]:
    """``paths`` without those only a Bash command that overwrites nothing writes (mkdir,
    git's own ``.git``), and those its text does not place (``src/*.py``, ``"$F"``: no file
    to key): ``leases = "warn"`` notes no lease for them, as enforce skips them (0073)."""
    if bash is None:
        return list(paths)
    quiet: set[str] = set()
    loud: set[str] = set()
    unplaced = {e.path for e in bash.effects if e.resolved is None}
    for e in bash.effects:
        if e.resolved is not None:
            keep = leaves_content(e.command, e.resolved, e.deletes, insensitive)
            (quiet if keep else loud).add(os.path.normpath(e.resolved))
    quiet -= loud
    return [
        x
        for x in paths
        if x not in unplaced and os.path.normpath(os.path.join(root, x)) not in quiet
    ]


def overwritten(
    written: Sequence[Located], bash: BashAnalysis | None, root: str, insensitive: bool
) -> list[Located]:
    """Of what a call wrote, what it may have overwritten (``overwriting``): a folder
    ``mkdir`` made and git's own ``.git`` take no lease after the call (ADR 0074)."""
    kept = set(overwriting([w.display for w in written], bash, root, insensitive))
    return [w for w in written if w.display in kept]


# a command's program (after variable assignments; by path or not): `cp -r x/. .git` is no
# git command
PROGRAM = re.compile(r"\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?(git|mkdir)(?:\.exe)?(?:\s|$)")


def as_written(tool: str, tool_input: Mapping[str, object], response: object) -> dict[str, Any]:
    """A Write's, Edit's or NotebookEdit's PostToolUse: the hash of the content the tool left, for
    ``trace`` (ADR 0080). The file is hashed by this hook beside the project's other
    PostToolUse hooks (a formatter), so what it records may already be their change: where
    the two differ, the file was changed beside the write. An Edit's is its response's
    ``originalFile`` with ``oldString`` (the text it really replaced, its quotes as in the
    file) made ``newString``; none when the response does not say it exactly."""
    content = tool_input.get("content") if tool == "Write" else _edited(response)
    if tool == "NotebookEdit":  # the notebook it left (2.1.330's NotebookEditOutput, 0085)
        content = response.get("updated_file") if isinstance(response, dict) else None
    if not isinstance(content, str):
        return {}
    from hashlib import sha256

    return {"tool_sha256": sha256(content.encode("utf-8", "surrogatepass")).hexdigest()}


def _edited(response: object) -> str | None:
    if not isinstance(response, dict):  # JSON
        return None
    text, old, new = (response.get(k) for k in ("originalFile", "oldString", "newString"))
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str) and old):
        return None
    every = response.get("replaceAll") is True
    if not every and text.count(old) != 1:
        return None
    return text.replace(old, new) if every else text.replace(old, new, 1)


def entries(walk: Iterable[tuple[str, list[str], list[str]]]) -> Iterator[tuple[str, str, bool]]:
    """(folder, name, is a file) of each entry an ``os.walk`` lists."""
    for top, dirs, names in walk:
        yield from ((top, d, False) for d in dirs)
        yield from ((top, f, True) for f in names)


def traced(settled: Sequence[tuple[str, str | None]]) -> list[dict[str, Any]]:
    """The audit line's ``trace`` entries of the writes a command's text did not place
    (``state_claims.settle``: a glob's matches), so ``trace`` finds them (ADR 0080)."""
    return [{"path": path, "sha256": sha, "placed": False} for path, sha in settled[:256]]


# ---- where a write the text does not place lands (ADR 0080) ----

_FIND = re.compile(r"\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?find\s")


def find_roots(command: str, whole: str) -> list[str]:
    """The folders ``find ... -exec CMD {}`` (``command``, a part of ``whole``) starts from,
    as written (``.`` when none): all it can hand ``{}`` lies below them. None when it
    follows links (``-L``, ``-follow``) or a ``cd`` in ``whole`` may have moved a relative
    one."""
    if not _FIND.match(command):
        return []
    import shlex

    from orchestrator_boundary.glob_places import MOVES

    try:
        words = shlex.split(command)
    except ValueError:
        return []
    at = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] == "find"), len(words)) + 1
    while at < len(words) and words[at] in ("-H", "-P", "-D", "-O"):
        at += 2 if words[at] == "-D" else 1
    roots: list[str] = []
    for word in words[at:]:
        if word.startswith(("-", "(", ")", "!", ",")):
            break
        roots.append(word)
    moved = MOVES.search(whole) and not all(r.startswith("/") for r in roots or ["."])
    return [] if moved or {"-L", "-follow"} & set(words) else roots or ["."]


def matched_names(files: Sequence[str], base: str, pattern: str) -> list[str]:
    """The names directly in ``base`` that ``pattern``'s last part matches, as bash expands
    it (``*`` skips a leading dot), read off the files below it: folders included."""
    import fnmatch

    glob = pattern.rstrip("/").rpartition("/")[2]
    names = {p[len(base) + 1 :].partition("/")[0] for p in files}
    hidden = not glob.startswith(".")
    return [
        n
        for n in sorted(names)
        if n and fnmatch.fnmatchcase(n, glob) and not (hidden and n[0] == ".")
    ]


_LINK = re.compile(r"\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:\S*/)?ln\s(?:.*\s)?-\w*s")


def links_made(bash: BashAnalysis | None, root: str) -> set[str]:
    """The paths at which a command made a symbolic link (``ln -s pay.py alias.py``). After
    the call the path resolves to the link's target, which the command did not write: it must
    not count as written, or as seen, by the agent (ADR 0080: a2 made a link to a1's file and
    wrote through it unseen)."""
    if bash is None:
        return set()
    made = (e.resolved for e in bash.effects if e.resolved and _LINK.match(e.command))
    return {os.path.normpath(placed(p, root)) for p in made}


# Programs that write what their input names: `tar -xP`, `unzip -:`, `cpio` keep `../` and
# absolute member names, a diff names its files (`patch -d src/auth`; GNU patch refuses `..`,
# others need not), so a write "into" a folder may land anywhere (ADR 0080)
_UNPACKERS = frozenset(
    {"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "pax", "jar", "ar"}
    | {"busybox", "unrar", "unar", "patch"}
)


def unpacks(command: str) -> bool:
    """Does ``command`` name an archive tool anywhere (past ``sudo``, ``timeout``, ...)?"""
    return any(w.rsplit("/", 1)[-1].removesuffix(".exe") in _UNPACKERS for w in command.split())
