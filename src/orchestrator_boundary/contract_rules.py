"""The delegation-contract rules as the policy runs them. ADR 27.

Pure: what they know of the state the shell keeps comes through ``Context.ledger`` (none in
``check`` and ``replay``: then only the rules that need no state run). Per target, after the
write rule: DELEGATION_SCOPE > FILE_LEASED > STALE_FILE > DELEGATION_SCOPE of a file with
other names (ADR 0059); opaque words: DELEGATION_SCOPE; a write the text does not place:
the same, the lease and stale rules on where it lands (ADR 0080). For an Agent or Workflow
call, after TOOL_NOT_ALLOWED: DELEGATION_INVALID. The
lease and staleness rules are judged before the call only: afterwards the call itself has
changed the file.
"""

from __future__ import annotations

from orchestrator_boundary.contract_calls import AGENT_TOOLS as AGENT_TOOLS
from orchestrator_boundary.contract_calls import PRE, _violation, narrowing
from orchestrator_boundary.contract_calls import agent_contract as agent_contract  # the policy's
from orchestrator_boundary.contract_calls import tool_contract as tool_contract
from orchestrator_boundary.targets import Call, Target
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.values import replace
from orchestrator_boundary.violation import Violation

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:  # each rule imports them once it knows it applies: a call that no rule
    # here applies to (an orchestrator's Read) never loads the delegation records
    from collections.abc import Callable

    from orchestrator_boundary.contracts import Breach
    from orchestrator_boundary.delegation import Delegation, Ledger
    from orchestrator_boundary.paths import Located

# the tools Claude Code refuses on a file changed since the agent read it (ADR 0027)
CLI_CHECKED = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})


def _what(call: Call, target: Target) -> str:
    return f"`{target.command}` writes" if target.command else f"{call.payload.tool_name} of"


def delegation_contract(call: Call, target: Target) -> Violation | None:
    """The delegation contract's rules for one target, in their order (the first that finds
    a violation decides). Only a write, and only with the delegation state: without it (in
    ``check`` and ``replay``) none of them has anything to read."""
    ledger = call.context.ledger
    if ledger is None:
        return None
    if not target.write:
        if target.words:  # opaque or unread: DELEGATION_SCOPE unless Run: names it (0080)
            return opaque_command(call, target, ledger)
        if unplaced(call, target):  # DELEGATION_SCOPE; a glob's matches keyed (ADR 0073, 0080)
            return delegation_scope(call, target, ledger) or glob_places(call, target, ledger)
        named = _named_argument(call, target)
        if named is None:
            return None
        target = named
    for rule in TARGET_RULES:
        found = rule(call, target, ledger)
        if found is not None:
            return found
    return None


def unplaced(call: Call, target: Target) -> bool:
    """A subagent's write the Bash analysis found at a place the command's text does not fix
    (``patch -p0 < d.diff``, ``cp a "src/$N"``, ``sed -i ... src/*.py``, after a ``cd`` it
    could not follow). The write rules leave it to a subagent's profile (``write=False``);
    a delegation's scope cannot place it, so it is outside (ADR 0073). An opaque command's
    words (``shown`` empty) are guesses at names, not a write found."""
    return target.guessed and bool(target.shown) and not call.main


_NAMED: list[tuple[object, frozenset[str]]] = []  # the last unknown-tool call's path arguments


def _named_argument(call: Call, target: Target) -> Target | None:
    """An unknown tool's (an MCP server's) path argument: it may write there, so the
    contract judges it like a write (ADR 0050); a relative one placed in the call's cwd,
    where Claude Code starts its servers (ADR 0059). Its loose strings are the guard's only."""
    if call.classification.tool_class is not ToolClass.UNKNOWN:
        return None
    payload = call.payload
    from orchestrator_boundary.tools import says_it_changes

    if not says_it_changes(payload.tool_name):  # mcp__fs__read_file: a read (0081, 0085)
        return None
    if not _NAMED or _NAMED[0][0] is not payload:
        from orchestrator_boundary.tool_args import arguments  # only an unknown tool's

        found = arguments(payload.tool_input, call.context.home, True)
        _NAMED[:] = [(payload, frozenset(found.paths))]
    located = target.located
    if located.raw not in _NAMED[0][1]:
        return None
    if located.absolutes:
        return target
    from orchestrator_boundary.ledger_files import placed  # a relative path argument's place

    full = placed(located.raw, payload.cwd or "")
    if not full:
        return None
    from orchestrator_boundary.paths import locate

    there = locate(full, call.context.root, call.context.fs, call.insensitive)
    return Target(there, there.display, config=False, write=False)


def delegation_scope(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """A subagent's write outside its delegation's effective scope."""
    if call.main:
        return None
    import orchestrator_boundary.contracts as contracts

    def judged(below: Located | None, at: Located | None = None) -> Breach | None:
        rules, mkdir = call.rules.contracts, program_of(target) == "mkdir"
        return contracts.delegation_scope(
            ledger.record(), at or target.located, call.insensitive, require=rules.require,
            what=_what(call, target), contracts=rules, makes_folder=mkdir, below=below,
        )  # fmt: skip

    found = judged(None)  # then, only for what is outside, the folder it all lies below
    if found is not None and unplaced(call, target) and target.located.raw == "{}":
        found = None if _find_held(call, target, ledger, judged) else found
    elif found is not None:
        below = held_glob_folder(call, target) if unplaced(call, target) else held(target, ledger)
        found = judged(below) if below is not None else found
    if found is not None and unplaced(call, target):
        found = replace(found, suggestion=NAME_THEM + found.suggestion)
    return _violation(found, target.command) if found else None


def _find_held(
    call: Call, target: Target, ledger: Ledger, judged: Callable[..., Breach | None]
) -> bool:
    """``find src/auth -name '*.py' -exec sed -i ... {} +``: is every folder it starts from
    (``_find_roots``: none with ``-L`` or after a ``cd``) one the scope holds entirely, with
    no link in it, and, when the command deletes what it finds, the folder itself (find
    names it too) in the scope? A team's refactor in its own folder was DELEGATION_SCOPE
    (ADR 0085)."""
    roots, contained = _find_roots(call, target), getattr(ledger, "self_contained", None)
    if not roots or contained is None or not all(contained(r) for r in roots):
        return False
    return all(judged(r) is None and (not target.deletes or judged(None, r) is None) for r in roots)


def held(target: Target, ledger: Ledger) -> Located | None:
    """An existing folder a command writes in (``ruff format src/auth``): what it changes lies
    below it when nothing in it links out (``Ledger.self_contained``; ``folder_writes``)."""
    from orchestrator_boundary.folder_writes import folder_place

    located = folder_place(target)
    contained = getattr(ledger, "self_contained", None)  # a fake ledger may not know
    return located if located and contained is not None and contained(located) else None


def held_glob_folder(call: Call, target: Target) -> Located | None:
    """The folder a glob's matches all lie below, when what it matches now stays there (no
    link out of it, no hard link): ``glob_places`` (ADR 0074, 0076)."""
    from orchestrator_boundary.glob_places import expanded, stays_in

    folder, matches = expanded(call, target)
    if folder is None or matches is None:
        return None
    return folder if stays_in(matches, folder, call) else None


def opaque_command(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """A narrowed subagent's command whose writes the analysis cannot see (``make``), or text
    that does not parse, or past the 32 opaque commands judged: ``unlisted_command`` (0080)."""
    raw, opaque = target.located.raw, target.opaque
    opaque &= len(call.analysis.opaque if call.analysis else ()) <= 32  # all judged (targets)
    if (narrowed := narrowing(call, ledger)) is None:
        return None
    from orchestrator_boundary.directives import unlisted_command

    scope, run, held = narrowed
    return unlisted_command(run, scope, target.command, raw, opaque=opaque, require=held)


GLOB_KEYS = 64  # a glob's matches judged one by one; more, or not listed: its folder


def glob_places(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """A subagent's glob write (``sed -i ... src/*.py``): the lease and stale rules judge
    what it matches now, each claimed as a file the call writes, or (past ``GLOB_KEYS``,
    or when they cannot be listed) the folder the text fixes. ADR 0080."""
    if call.payload.hook_event_name != PRE:
        return None
    from orchestrator_boundary.glob_places import expanded

    folder, matches = expanded(call, target)
    if folder is None:  # `find src -exec sed -i ... {} +`: its folders; `patch`: no key
        return _keyed(call, target, ledger, _find_roots(call, target))
    places = matches if matches is not None and len(matches) <= GLOB_KEYS else [folder]
    if target.deletes and places is matches:  # `rm -rf src/*`: the folders it matches too
        places = [*places, *_folders_matched(call, target, folder)]
    return _keyed(call, target, ledger, places if len(places) <= GLOB_KEYS * 2 else [folder])


def _keyed(call: Call, target: Target, ledger: Ledger, places: list[Located]) -> Violation | None:
    if call.rules.contracts.leases == "warn" and not call.main:  # noted, as a named write's
        getattr(ledger, "note_held", lambda _: None)([p for p in places if p.absolutes])
    ones = (Target(p, p.display, target.command, target.deletes) for p in places)
    found = (file_leased(call, t, ledger) or stale_file(call, t, ledger) for t in ones)
    return next((f for f in found if f is not None), None)


def _find_roots(call: Call, target: Target) -> list[Located]:
    """Where a ``find ... -exec CMD {}`` starts (``ledger_files.find_roots``, ADR 0080)."""
    from orchestrator_boundary.ledger_files import find_roots
    from orchestrator_boundary.paths import locate

    roots = find_roots(target.command, call.command or "") if target.located.raw == "{}" else []
    ctx, base = call.context, call.payload.cwd or call.context.root
    return [locate(r if r.startswith("/") else f"{base}/{r}", ctx.root, ctx.fs) for r in roots]


def _folders_matched(call: Call, target: Target, folder: Located) -> list[Located]:
    """The folders directly in ``folder`` the glob matches (a delete takes what is in them)."""
    from orchestrator_boundary.glob_places import MATCH_LIMIT
    from orchestrator_boundary.ledger_files import matched_names
    from orchestrator_boundary.paths import locate

    base, fs = (folder.absolutes or ("",))[0].rstrip("/"), call.context.fs
    names = matched_names(fs.files_below(base, MATCH_LIMIT), base, target.located.raw)
    return [locate(f"{base}/{n}", call.context.root, fs, call.insensitive) for n in names]


NAME_THEM = (
    "Name each file the command changes in its text (`sed -i 's/a/b/' src/auth/x.py "
    "src/auth/y.py`, no glob or variable), or change them with Edit; if they lie outside the "
    "scope: "
)


def other_names(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """A delegation's write to a file with more than one name (a hard link the subagent may
    have made to a file outside its scope): a write changes it under every name, and the
    scope can place only this one (ADR 0059). Last: a lease or a stale read says more."""
    if call.main or target.deletes or not target.located.absolutes:
        return None
    from orchestrator_boundary.delegation import Delegation

    record = ledger.record()
    if not isinstance(record, Delegation):
        return None
    import orchestrator_boundary.contracts as contracts

    located, fs = target.located, call.context.fs
    me = located.identity_of(located.absolutes[0], fs)
    if me is None or me[2] < 2 or _names_inside(call, me, record):
        return None
    found = contracts.other_names(record, located.display, me[2], _what(call, target))
    return _violation(found, target.command) if found else None


LINK_SCAN = 20_000  # files of the project looked at for a hard link's other names


def _names_inside(call: Call, me: tuple[int, int, int], record: Delegation) -> bool:
    """Are all ``me[2]`` names of the file in the project and inside the delegation's scope?
    Names not found (elsewhere on the disk, past the scan) count as outside."""
    from orchestrator_boundary.delegation import within
    from orchestrator_boundary.paths import locate

    fs, root = call.context.fs, call.context.root
    names = [p for p in fs.files_below(root, LINK_SCAN) if (fs.identity(p) or ())[:2] == me[:2]]
    if len(names) < me[2]:
        return False
    places = (locate(p, root, fs, call.insensitive) for p in names)
    return all(within(p, record.scope, call.insensitive) is None for p in places)


def overwrites_nothing(call: Call, target: Target) -> bool:
    """Does the command that names ``target`` leave every file's content as it was, so that
    it cannot overwrite another agent's change (ADR 0065)? ``mkdir`` makes a folder or fails
    (``-p``: leaves an existing one as it is), so ``mkdir -p tests`` next to another agent's
    test file is no overwrite. A git command's write to the repository's own folder,
    ``.git``, when it does not delete it: git locks its index and refs itself, and no agent
    can read a folder again (two agents that each ``git add`` or ``git commit`` their own
    files, or the main agent that commits after its subagents did). A file inside ``.git``,
    a deleted ``.git`` and the work tree git rewrites stay judged."""
    from orchestrator_boundary.ledger_files import leaves_content

    return leaves_content(target.command, target.located.display, target.deletes, call.insensitive)


def program_of(target: Target) -> str:
    """ "git" or "mkdir" when that is the program of the command that names ``target`` and
    it does not delete it, else ""."""
    from orchestrator_boundary.ledger_files import PROGRAM

    found = PROGRAM.match(target.command)
    return found.group(1) if found and not target.deletes else ""


def file_leased(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """A subagent's write to a file another running subagent wrote (``leases = "enforce"``;
    ``"warn"`` is recorded in the audit line by the shell)."""
    if call.main or call.rules.contracts.leases != "enforce":
        return None
    if call.payload.hook_event_name != PRE or not target.located.absolutes:
        return None
    if overwrites_nothing(call, target):
        return None
    import orchestrator_boundary.delegation as delegation

    holder = ledger.lease(target.located)
    if not isinstance(holder, delegation.Lease):
        return None
    import orchestrator_boundary.contracts as contracts

    found, _ = contracts.file_leased(
        target.located.display, holder, call.payload.agent_id or "", "enforce"
    )
    return _violation(found, target.command) if found else None


def stale_file(call: Call, target: Target, ledger: Ledger) -> Violation | None:
    """Any agent's write to a file changed since that agent last read or wrote it."""
    if call.payload.hook_event_name != PRE or not target.located.absolutes:
        return None
    if overwrites_nothing(call, target):
        return None
    import orchestrator_boundary.delegation as delegation

    seen = ledger.seen(target.located)
    if isinstance(seen, delegation.Seen):
        import orchestrator_boundary.contracts as contracts

        by = ledger.last_writer(target.located)
        # A change no other agent's recorded write made, before a file tool's write: Claude
        # Code's own read-before-edit check judges it, and it takes a change made by a hook
        # of the agent's own last call (a formatter run at PostToolUse, beside this one) as
        # the file's content. Bash has no such check (ADR 0065).
        if by or call.payload.tool_name not in CLI_CHECKED:
            found = contracts.stale_file(
                target.located.display, seen.sha256, ledger.current(target.located), by
            )
            if found:
                return _violation(found, target.command)
    elif seen is not None:
        return None  # the store is unavailable: no finding
    # another agent's write this agent has not seen (never read or written, or still
    # running); when none, this agent's write is claimed as running (ADR 0059)
    written = ledger.unseen_write(target.located)
    if not written:
        return None
    import orchestrator_boundary.contracts as contracts

    return _violation(contracts.unseen_change(target.located.display, written), target.command)


# Per target, after the write rule, in this order.
TARGET_RULES: tuple[Callable[[Call, Target, Ledger], Violation | None], ...] = (
    delegation_scope,
    file_leased,
    stale_file,
    other_names,
)
