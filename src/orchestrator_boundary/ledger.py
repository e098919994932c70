"""The shell's side of delegation contracts (ADR 0027): the ``Ledger`` the contract rules
read, what each hook event leaves in the state store, and the answer to SubagentStop. It
reads the subagent's meta.json, hashes files and talks to ``state.Store``. Every step that
cannot reach the store gives its deliberate answer (an unknown delegation, no stale or lease
finding, a stop that is not blocked) and says so in the audit line; none raises."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import cached_property

from orchestrator_boundary import ledger_files as files
from orchestrator_boundary.contract_tables import MAIN, Contracts
from orchestrator_boundary.fs import sha256_of
from orchestrator_boundary.ledger_files import read_meta as read_meta
from orchestrator_boundary.paths import Located, fold, locate
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.setups import Setup
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.verdict import POST, PRE, Decision, Verdict

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:  # the contract rules and the delegation records are imported where a
    # call reaches them (an orchestrator's Read never does), the store when a call uses it
    from typing import Any

    from orchestrator_boundary.bash.model import BashAnalysis
    from orchestrator_boundary.contracts import Breach, Launch
    from orchestrator_boundary.delegation import Lease, Record, Seen, Unavailable
    from orchestrator_boundary.paths import FileSystem
    from orchestrator_boundary.state import Store

AGENT_TOOLS = frozenset({"Agent", "Task"})
# Not tool calls: recorded, SubagentStop/SessionEnd acted on; never blocked by a failure.
LIFECYCLE_EVENTS = frozenset({"SubagentStop", "Stop", "SessionEnd", "SubagentStart"})
COMMANDS = frozenset({"Bash", "PowerShell", "Monitor"})  # tools that run a command line
CLI_CHECKED = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})  # all or nothing
FAILED = "PostToolUseFailure"  # a call that failed: observed, never judged (ADR 0029)


class StoreLedger:
    """One call's view of the state store (``contracts.Ledger``). The store is opened on
    first use: a call that asks nothing of it (an orchestrator's Read) never imports
    ``state`` and ``sqlite3`` (ADR 0030)."""

    def __init__(
        self, audit_file: str, payload: HookPayload, insensitive: bool = False,
        leases: str = "off", root: str = "", fs: FileSystem | None = None
    ) -> None:  # fmt: skip
        self.audit_file, self.payload, self.root, self.fs = audit_file, payload, root, fs
        self.session = payload.session_id or "-"
        self.agent = payload.agent_id or MAIN
        self.insensitive, self.leases = insensitive, leases
        self._record: Record | None = None
        self.claims: list[Any] = []  # what this call's rules claimed (``release``, ADR 0073)
        self.settled: list[tuple[str, str | None]] = []  # ``state_claims.settle`` (0080)
        self.noted: dict[str, str] = {}  # held in warn: a glob's matches (ADR 0080)
        self.unavailable = False  # a read could not reach the store (for the audit line)

    def key(self, located: Located) -> str:  # a file as ``locate`` resolved it, folded
        return fold(located.display, self.insensitive)

    def record(self) -> Record | None:
        if not (agent_id := self.payload.agent_id):
            return None
        if self._record is None:
            import orchestrator_boundary.state_claims as claims  # loaded with the store

            meta = read_meta(self.payload.transcript_path, agent_id)
            kind = self.payload.agent_type
            self._record = claims.record(self.store, self.session, agent_id, kind, meta)
        return self._record

    def _note(self, got: Any) -> Any:
        import orchestrator_boundary.delegation as delegation  # loaded with the store

        if isinstance(got, delegation.Unavailable):
            self.unavailable = True
        return got

    @cached_property
    def store(self) -> Store:
        return store_for(self.audit_file)

    def seen(self, located: Located) -> Seen | Unavailable | None:
        found: Seen | Unavailable | None = self._note(
            self.store.seen(self.session, self.agent, self.key(located))
        )
        return found

    def current(self, located: Located) -> str | None:
        return sha256_of(located.absolute) if located.absolute else None

    def last_writer(self, located: Located) -> str:
        who = self.store.last_writer(self.session, self.key(located))
        if not isinstance(who, str) or who == self.agent:
            return ""
        return files.label(who)

    def unseen_write(self, located: Located) -> str:
        """Another agent's write there, in it or of a folder holding it, unseen by this agent
        ("subagent X wrote src/a.py"); "": none, and this write is claimed (ADR 0059, 0073)."""
        import orchestrator_boundary.state_claims as claims  # loaded with the store

        key, sha = self.key(located), self.current(located)
        root = files.root_above(located, self.root, self.insensitive)
        got = self._note(
            claims.unseen_write(self.store, self.session, self.agent, key, sha, root, self.claims)
        )
        if got is None:
            alias = self._alias(located, leases=False)
            return f"{files.label(alias[0])} wrote {alias[2]} (a hard link to it)" if alias else ""
        if not isinstance(got, tuple) or located.absolute is None:
            return ""
        who, path, running = got
        return files.unseen_label(who, path, running, key, located.display, located.absolute)

    def lease(self, located: Located) -> Lease | Unavailable | None:
        """The running subagent that holds ``located``, a file in it or a folder holding it;
        before a subagent's write, asking is claiming a free file (ADR 0050, 0073)."""
        import orchestrator_boundary.state_claims as claims  # loaded with the store

        key = self.key(located)
        agent_id = self.payload.agent_id
        if agent_id and self.leases != "off" and self.payload.hook_event_name == PRE:
            desc = getattr(self.record(), "description", "") or agent_id
            root = files.root_above(located, self.root, self.insensitive)
            found: Lease | Unavailable | None = self._note(
                claims.claim_lease(self.store, self.session, key, agent_id, desc, root, self.claims)
            )
        else:
            found = self._note(self.store.lease(self.session, key))
        if found is None:
            alias = self._alias(located, leases=True)
            if alias is not None:
                from orchestrator_boundary.delegation import Lease  # loaded with the store

                return Lease(alias[0], f"{alias[1] or alias[0]}, through {alias[2]}")
        return found

    def self_contained(self, located: Located) -> bool:
        """A folder whose 1,024 first entries hold no link, symbolic or hard (ADR 0080)."""
        if os.path.islink(folder := located.absolute or "") or not os.path.isdir(folder):
            return False
        for n, (top, name, is_file) in enumerate(files.entries(os.walk(folder))):
            path = os.path.join(top, name)  # gone since: lstat raises, the call is refused
            if n >= 1024 or os.path.islink(path) or (is_file and os.lstat(path).st_nlink > 1):
                return False
        return True

    def note_held(self, places: Sequence[Located]) -> None:
        """``leases = "warn"``: the audit line's ``leased_to``; asking claims (ADR 0080)."""
        from orchestrator_boundary.delegation import Lease  # loaded with the store

        for place in places[:16]:
            held = self.lease(place)
            if isinstance(held, Lease) and held.agent_id != self.agent:
                of = f" of the Claude Code session {held.session}" * bool(held.session)
                self.noted[place.display] = f"{held.description} ({held.agent_id}){of}"

    def _alias(self, located: Located, *, leases: bool) -> tuple[str, str, str] | None:
        import orchestrator_boundary.state_claims as claims  # loaded with the store

        def rows() -> object:
            but = self.key(located)
            return claims.others(self.store, self.session, self.agent, leases=leases, but=but)

        return files.alias_of(rows, self.root, located.absolute, self.fs)

    def audit(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self._record is not None:
            out["delegation"] = self._record.audit()
        if self.unavailable:
            out["state"] = "unavailable"
        return out


def store_for(audit_file: str) -> Store:
    from orchestrator_boundary.state import Store
    from orchestrator_boundary.stores import kept

    return kept(Store, audit_file)


def ledger_for(payload: HookPayload, audit_file: str, *more: Any) -> StoreLedger:
    return StoreLedger(audit_file, payload, *more)  # one call's view of the store


def _description(payload: HookPayload) -> str:
    return d[:200] if isinstance(d := payload.tool_input.get("description"), str) else ""


def launch_of(contracts: Contracts, payload: HookPayload, ledger: StoreLedger) -> Launch | Breach:
    """The contract of an Agent call (the same check the policy made)."""
    from orchestrator_boundary.contracts import check_launch

    got = payload.tool_input.get("prompt"), payload.tool_input.get("subagent_type")
    prompt, requested = (v if isinstance(v, str) else None for v in got)
    return check_launch(contracts, prompt or "", requested, ledger.record())


def before(contracts: Contracts, payload: HookPayload, ledger: StoreLedger, denied: bool) -> None:
    """PreToolUse: an Agent call that goes ahead leaves its contract (or its refusal) for the
    subagent it starts. A call refused writes nothing: what its rules claimed goes (0073)."""
    if denied and ledger.claims:
        from orchestrator_boundary.state_claims import release

        release(ledger.store, ledger.session, ledger.agent, ledger.claims)
    if payload.tool_name not in AGENT_TOOLS or denied or not payload.tool_use_id:
        return
    from orchestrator_boundary.contracts import Launch

    found = launch_of(contracts, payload, ledger)
    if isinstance(found, Launch):
        ok = ledger.store.record_launch(
            ledger.session, payload.tool_use_id, found, _description(payload)
        )
    else:
        ok = ledger.store.record_refused(ledger.session, payload.tool_use_id, found.reason)
    ledger.unavailable |= not ok


def after(
    contracts: Contracts,
    payload: HookPayload,
    ledger: StoreLedger,
    read: Located | None,
    written: Sequence[Located],
    leased: Sequence[Located] | None = None,
) -> None:
    """PostToolUse: the Agent call's link to its subagent; what the agent read or wrote (hashed
    now); its leases (``leased``: what it may have overwritten, ADR 0074); its counts."""
    with ledger.store.batch() as result:
        _record_after(
            contracts, payload, ledger, read, written, written if leased is None else leased
        )
    ledger.unavailable |= not result[0]


def _record_after(
    contracts: Contracts,
    payload: HookPayload,
    ledger: StoreLedger,
    read: Located | None,
    written: Sequence[Located],
    leased: Sequence[Located],
) -> None:
    import orchestrator_boundary.delegation as delegation  # loaded with the store
    import orchestrator_boundary.state_claims as claims
    import orchestrator_boundary.state_ends as ends

    store, session, agent = ledger.store, ledger.session, ledger.agent
    resp = payload.tool_response
    if payload.tool_name in AGENT_TOOLS and isinstance(resp, Mapping):
        new = resp.get("agentId")
        if isinstance(new, str) and new and payload.tool_use_id:
            claims.started(store, session, new, payload.tool_use_id, _description(payload))
    if payload.tool_name == "TaskStop":  # no SubagentStop comes for it (ADR 0065)
        ends.task_stopped(store, session, resp)
    elif payload.tool_name in ("KillShell", "KillBash"):  # a kept subagent's shell (0085)
        ends.shell_ended(store, session, payload.tool_input.get("shell_id"))
    elif payload.agent_id and payload.tool_name in COMMANDS:
        ends.shell_started(store, session, payload.agent_id, resp)  # one in the background
    if read is not None:
        store.saw(session, agent, ledger.key(read), ledger.current(read), wrote=False)
    for located in written:
        store.saw(session, agent, ledger.key(located), ledger.current(located), wrote=True)
    if payload.tool_name in COMMANDS:  # what ``written`` cannot name (0080); a Monitor's too
        claims.settle(store, session, agent, ledger.root, ledger.settled)
    if payload.agent_id:
        record = ledger.record()
        desc = record.description if isinstance(record, delegation.Delegation) else ""
        store.note_running(session, payload.agent_id, desc)
        if contracts.leases != "off":
            for located in leased:
                store.take_lease(
                    session, ledger.key(located), payload.agent_id, desc or payload.agent_id
                )
        # a write deliverable is a change in the project (not /dev/null, not a file in /tmp)
        changed = any(located.inside for located in written)
        store.count(session, payload.agent_id, [payload.tool_name, *(["write"] if changed else [])])


def lifecycle(
    contracts: Contracts, payload: HookPayload, ledger: StoreLedger, phase: Phase, bypass: bool
) -> tuple[str, dict[str, Any]]:
    """(stdout, audit fields) for SubagentStop (``state_ends.subagent_stop``) and SessionEnd."""
    store, session = ledger.store, ledger.session
    if payload.hook_event_name == "SessionEnd":
        return "", {"state": "cleaned" if store.end_session(session) else "unavailable"}
    if payload.hook_event_name != "SubagentStop" or not payload.agent_id:
        return "", {}
    from orchestrator_boundary.state_ends import subagent_stop

    return subagent_stop(contracts, payload, store, session, phase, bypass)


class ToolCall:
    """One tool event's use of the state store: the ledger the rules read (``view``), then
    what the call leaves behind (``done``)."""

    def __init__(self, payload: HookPayload, s: Setup) -> None:
        self.payload, self.s = payload, s
        self.insensitive = insensitive = s.context.fs.case_insensitive(s.root)
        leases, fs = s.rules.contracts.leases, s.context.fs
        self.view = ledger_for(payload, s.audit_file, insensitive, leases, s.root, fs)

    def _located(self, raw: str) -> Located:
        root = self.s.root
        full = raw if os.path.isabs(raw) else os.path.join(root, raw)
        return locate(full, root, self.s.context.fs)

    def done(self, verdict: Verdict, trace: list[dict[str, Any]] | None) -> dict[str, Any]:
        p, contracts = self.payload, self.s.rules.contracts
        extra: dict[str, Any] = {}
        if p.hook_event_name == PRE:
            before(contracts, p, self.view, denied=verdict.decision is Decision.DENY)
            if contracts.leases == "warn" and p.agent_id and verdict.decision is not Decision.DENY:
                unknown = verdict.assessment.classification.tool_class is ToolClass.UNKNOWN
                paths = [x.display for x in self._named(p)] if unknown else verdict.assessment.paths
                extra = self._leased(paths, verdict.assessment.bash)
        elif p.hook_event_name == POST:
            raw = p.tool_input.get("file_path") if p.tool_name == "Read" else None
            read = self._located(raw) if isinstance(raw, str) and raw else None
            links = files.links_made(verdict.assessment.bash, self.s.root)  # not their targets
            paths = [t["path"] for t in trace or () if isinstance(t.get("path"), str)]
            made = {x for x in paths if os.path.normpath(os.path.join(self.s.root, x)) in links}
            written = [self._located(x) for x in paths if x not in made]
            if verdict.assessment.classification.tool_class is ToolClass.UNKNOWN:
                written += self._named(p)  # an MCP tool's path arguments: it may have written
            bash, root = verdict.assessment.bash, self.s.root
            leased = files.overwritten(written, bash, root, self.insensitive)  # not mkdir's
            after(contracts, p, self.view, read, written, leased)
            extra = files.as_written(p.tool_name, p.tool_input, p.tool_response) if trace else {}
            if self.view.settled:  # what the text did not place: a glob's matches (0080)
                extra["trace"] = [*(trace or ()), *files.traced(self.view.settled)]
        elif p.hook_event_name == FAILED:
            self._failed(p)
            if self.view.settled:  # what it may have written, for ``trace`` (ADR 0085)
                extra["trace"] = [{**t, "failed": True} for t in files.traced(self.view.settled)]
        if p.agent_id:
            self.view.record()
        return {**self.view.audit(), **extra}

    def _failed(self, p: HookPayload) -> None:
        """PostToolUseFailure: a foreground Agent call's subagent no longer runs; a command
        that exited non-zero wrote what its PreToolUse marked; a file tool that failed (an
        Edit whose text was not found) wrote nothing, and its marks held the file as "a
        write still running" against the others (ADR 0085)."""
        view = self.view
        if p.tool_name in AGENT_TOOLS:
            from orchestrator_boundary.state_ends import agent_call_failed

            agent_call_failed(view.store, view.session, p.tool_use_id)
            return
        from orchestrator_boundary.state_claims import settle

        if p.tool_name in CLI_CHECKED:  # it changed nothing: done, no trace (not a read:
            settle(view.store, view.session, view.agent, self.s.root, [])  # hides its writes)
        elif p.tool_name in COMMANDS or p.tool_name.startswith("mcp__"):  # may have written
            settle(view.store, view.session, view.agent, self.s.root, view.settled)

    def _named(self, p: HookPayload) -> list[Located]:
        """An MCP tool's path arguments (ADR 0059); none of a tool whose name says it only
        reads (``mcp__fs__read_file``: a read, not a write other agents meet, ADR 0085)."""
        from orchestrator_boundary.tools import says_it_changes

        if not says_it_changes(p.tool_name):
            return []
        named = files.named_paths(p.tool_input, self.s.context.home, p.cwd or "")
        return [self._located(raw) for raw in named]

    def _leased(self, paths: Sequence[str], bash: BashAnalysis | None) -> dict[str, Any]:
        """``leases = "warn"``: the files it writes another subagent holds (FILE_LEASED)."""
        kept = files.overwriting(paths, bash, self.s.root, self.insensitive)
        self.view.note_held([self._located(p) for p in kept if p and p != "?"])
        return {"leased_to": dict(self.view.noted)} if self.view.noted else {}


def lifecycle_call(payload: HookPayload, s: Setup) -> tuple[str, dict[str, Any]]:
    """SubagentStop, SessionEnd (``lifecycle``); Stop (``at_stop``, ``stop_summary``)."""
    if payload.hook_event_name == "Stop":
        from orchestrator_boundary.state_ends import at_stop  # the store, at Stop only

        tasks = getattr(payload, "background_tasks", None)  # kept by ``payload`` (0080)
        ended = at_stop(s.audit_file, payload.session_id, tasks)
        if not s.config.report.stop_summary or payload.stop_hook_active is True:
            return "", ended
        from orchestrator_boundary.session_summary import summary  # only at Stop, when asked

        text = summary(files.tail_records(s.audit_file), payload.session_id)
        out = json.dumps({"systemMessage": text}) if text else ""
        return out, {**ended, **({"summary": True} if text else {})}
    return lifecycle(
        s.rules.contracts, payload, ledger_for(payload, s.audit_file), s.phase, s.bypass
    )
