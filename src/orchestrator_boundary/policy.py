"""The policy: who may change what. ADR 0002, 0005, 0010.

Pure: it takes the parsed payload, the config and the ``Facts`` the shell gathered, and
returns frozen values. Precedence, first match wins: TAMPER (anyone changing what guards
them) > CONFIG_INVALID (any write while the config is broken) > a subagent's
TOOL_NOT_ALLOWED > the write rules (ORCHESTRATOR_WRITE / BASH_* / SCOPE_VIOLATION) >
UNKNOWN_TOOL. Within a scope an exclusion beats an inclusion (``scope``).
"""

from __future__ import annotations

import fnmatch
import ntpath
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import assert_never

from orchestrator_boundary import bash, scope
from orchestrator_boundary.bash.model import BashAnalysis, Effect, EffectKind, Status
from orchestrator_boundary.config import AgentProfile, Config, ConfigProblem
from orchestrator_boundary.paths import ROOT_ITSELF, FileSystem, Located, fold, locate
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.protect import Protected, hit, linked
from orchestrator_boundary.rules import Assessment, Code, Violation
from orchestrator_boundary.session import Session, SessionKind, detect
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.tools import PATH_KEYS, ToolClass, classify


@dataclass(frozen=True, slots=True)
class Facts:
    """What the shell learned from the environment; the core reads nothing else."""

    root: str  # the project root, resolved
    fs: FileSystem
    phase: Phase = Phase.WARN
    phase_source: str = "default"
    bypass: bool = False
    home: str | None = None
    config_problem: ConfigProblem | None = None
    protected: tuple[Protected, ...] = ()


def _targets(payload: HookPayload) -> list[str] | None:
    key = PATH_KEYS.get(payload.tool_name)
    keys = (key,) if key else ("file_path", "notebook_path", "path")
    for k in keys:
        value = payload.tool_input.get(k)
        if isinstance(value, str) and value:
            return [value]
    return None


# Argument names that name a file in tools the policy does not know (MCP servers, plugins).
_PATH_ARGS = frozenset(
    {
        "file_path",
        "filepath",
        "filePath",
        "path",
        "notebook_path",
        "filename",
        "file",
        "target",
        "target_path",
        "destination",
        "dest",
        "source",
        "source_path",
        "new_path",
        "old_path",
        "directory",
        "dir",
        "uri",
    }
)
_PATH_LIST_ARGS = frozenset({"paths", "files", "file_paths", "sources"})

# read on every call: bound once (Enum.MEMBER is a slow lookup in Python 3.11, see session)
_MAIN = SessionKind.MAIN
_BASH_WRITE, _ORCHESTRATOR_WRITE = Code.BASH_WRITE, Code.ORCHESTRATOR_WRITE


def _path_arguments(tool_input: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key, value in tool_input.items():
        if key in _PATH_ARGS and isinstance(value, str) and value:
            out.append(value.removeprefix("file://"))
        elif key in _PATH_LIST_ARGS and isinstance(value, list):
            out.extend(v.removeprefix("file://") for v in value[:64] if isinstance(v, str) and v)
    return out[:64]


def _unresolved(effect: Effect) -> Located:
    return Located(effect.path, (), (), "the target cannot be determined from the command text")


def _profile(config: Config, session: Session) -> tuple[str, AgentProfile] | None:
    if session.agent_type and session.agent_type in config.agents:
        return session.agent_type, config.agents[session.agent_type]
    if "*" in config.agents:
        return "*", config.agents["*"]
    return None


@dataclass(frozen=True, slots=True)
class _Lists:
    """A config's pattern and name lists in the form each call reads them, built once per
    config (a loaded config is never changed: looked up by identity, like the deny hint's
    writers in ``suggest``)."""

    allow: tuple[str, ...]  # orchestrator.write_allow
    allow_bash: tuple[str, ...]  # + bash.allow_write
    outside: tuple[str, ...]  # subagents.write_outside_root
    scopes: dict[str, tuple[str, ...]]  # agent type -> write_scope + write_outside_root
    tools: dict[str, frozenset[str]]  # agent type -> its tools entries
    read_only: frozenset[str]  # bash.read_only_commands


_LISTS: list[tuple[Config, _Lists]] = []


def _lists(config: Config) -> _Lists:
    for cached, found in reversed(_LISTS):
        if cached is config:
            return found
    allow = tuple(config.orchestrator.write_allow)
    outside = tuple(config.subagents.write_outside_root)
    agents = config.agents.items()
    found = _Lists(
        allow,
        allow + tuple(config.bash.allow_write),
        outside,
        {n: (*p.write_scope, *outside) for n, p in agents if p.write_scope is not None},
        {n: frozenset(p.tools) for n, p in agents if p.tools is not None},
        frozenset(config.bash.read_only_commands),
    )
    _LISTS[:] = [*_LISTS[-7:], (config, found)]
    return found


@lru_cache(maxsize=256)
def _exclusion_heads(
    patterns: tuple[str, ...], insensitive: bool
) -> tuple[tuple[str, bool, str], ...]:
    """(exclusion, absolute?, its literal head folded) for each exclusion that has a head."""
    out = []
    for text in patterns:
        if not text.startswith("!"):
            continue
        body = text[1:]
        head: list[str] = []
        for part in body.strip("/").split("/"):
            if not part or any(c in part for c in "*?[\\"):
                break
            head.append(part)
        if head:
            out.append((text, body.startswith("/"), fold("/".join(head), insensitive)))
    return tuple(out)


def _exclusion_within(located: Located, patterns: Sequence[str], insensitive: bool) -> str | None:
    """An exclusion whose literal folder is the target or lies below it.

    ``!src/secrets/**`` excludes what is inside ``src/secrets``; changing the folder itself or
    one above it (``rm -rf src/secrets``, ``mv src old``, swapping it for a link) changes the
    excluded files without naming them. Only the literal head of an exclusion can be compared
    this way (``!**/*.key`` has none).
    """
    for text, absolute, prefix in _exclusion_heads(tuple(patterns), insensitive):
        if absolute:
            subjects = [a.replace("\\", "/").lstrip("/") for a in located.absolutes]
        else:
            subjects = list(located.relatives) if located.inside else []
        for subject in subjects:
            folded = fold(subject, insensitive).rstrip("/")
            if folded and (prefix == folded or prefix.startswith(folded + "/")):
                return text
    return None


def _tool_listed(name: str, tool_class: ToolClass, entries: Sequence[str]) -> bool:
    return any(e == name or e == tool_class.value or fnmatch.fnmatchcase(name, e) for e in entries)


class _Check:
    """One assessment in progress: the shared facts, and helpers that build violations."""

    __slots__ = (
        "advisory",
        "analysis",
        "anchors",
        "classification",
        "config",
        "facts",
        "insensitive",
        "lists",
        "main",
        "paths",
        "payload",
        "session",
    )

    def __init__(self, payload: HookPayload, config: Config, facts: Facts) -> None:
        self.payload, self.config, self.facts = payload, config, facts
        self.session = detect(payload)
        self.classification = classify(payload.tool_name, config.tools)
        self.lists = _lists(config)
        self.insensitive = facts.fs.case_insensitive(facts.root)
        self.anchors = (facts.root, facts.home) if facts.home else (facts.root,)
        self.paths: list[str] = []
        self.advisory = ""
        self.analysis: BashAnalysis | None = None
        self.main = self.session.kind is _MAIN

    def locate(self, raw: str) -> Located:
        located = locate(raw, self.facts.root, self.facts.fs, self.insensitive)
        self.paths.append(located.display)
        return located

    def _relative_readings(self, located: Located) -> list[Located]:
        """A relative path is never inside a scope, but for the guard it is read against the
        payload's cwd and the root: the tool may well resolve it there."""
        raw = located.raw
        mod = ntpath if self.facts.fs.windows else posixpath
        if located.absolutes or not raw or "\x00" in raw or mod.isabs(raw):
            return []
        bases = dict.fromkeys(b for b in (self.payload.cwd, self.facts.root) if b and mod.isabs(b))
        return [
            locate(mod.join(base, raw), self.facts.root, self.facts.fs, self.insensitive)
            for base in bases
        ]

    def configured(self, located: Located) -> Protected | None:
        """``[protect] paths``: more files no agent may change, matched on any reading."""
        patterns = self.config.protect.paths
        if not patterns:
            return None
        for reading in (located, *self._relative_readings(located)):
            rels: tuple[str | None, ...] = reading.relatives if reading.inside else (None,)
            for absolute in reading.absolutes:
                for rel in rels:
                    single = Located(
                        reading.raw,
                        (absolute,),
                        (rel,) if rel else (),
                        "" if rel else "outside the project root",
                    )
                    match = scope.check(single, patterns, self.insensitive)
                    if match.allowed:
                        label = f"protected by [protect] paths ({match.pattern})"
                        return Protected(absolute, False, label)
        return None

    def tamper(
        self, located: Located, command: str = "", *, deletes: bool = False
    ) -> Violation | None:
        # Writing into the root (tar x, git checkout -- .) is ordinary work; deleting it
        # (rm -rf ., find . -delete) takes .claude/ with it, whatever the filters say.
        anchors = () if deletes else self.anchors
        entry = hit(located, self.facts.protected, self.insensitive, anchors)
        if entry is None and not located.absolutes:  # else it has no relative readings
            for reading in self._relative_readings(located):
                entry = hit(reading, self.facts.protected, self.insensitive, anchors)
                if entry is not None:
                    break
        entry = entry or linked(located, self.facts.protected, self.facts.fs)
        if entry is None and self.config.protect.paths:
            entry = self.configured(located)
        if entry is None:
            return None
        return Violation(
            Code.TAMPER,
            f"protected: {entry.label}",
            f"{located.display} is {entry.label}, which guards the agents; no agent may change it.",
            "Ask the user to make this change themselves.",
            located.display,
            command,
            recoverable=False,
        )

    def broken_config(self, path: str | None, command: str = "") -> Violation | None:
        problem = self.facts.config_problem
        if problem is None:
            return None
        return Violation(
            Code.CONFIG_INVALID,
            f"config: {problem.file}",
            f"the boundary config is broken ({problem}); writes stay blocked until it is fixed.",
            f"Ask the user to fix {problem.file}"
            + (f" (key {problem.key!r})" if problem.key else "")
            + ", then retry.",
            path,
            command,
        )

    def write_rule(self, located: Located, command: str = "") -> Violation | None:
        """The write rules for one target; ``command`` is set for Bash effects."""
        if self.main:
            allow = self.lists.allow_bash if command else self.lists.allow
            if scope.check(located, allow, self.insensitive).allowed and not _exclusion_within(
                located, allow, self.insensitive
            ):
                return None
            code = _BASH_WRITE if command else _ORCHESTRATOR_WRITE
            rule = "orchestrator.write_allow" + (" + bash.allow_write" if command else "")
            shown = located.display
            where = shown + ("" if located.inside else f" ({located.problem})")
            what = (
                f"`{command}` writes {where}" if command else f"{self.payload.tool_name} of {where}"
            )
            return Violation(
                code,
                rule,
                f"the main agent may not change files itself: {what} is not in {rule}.",
                delegate_hint(self.config, shown, self.payload.tool_name),
                shown,
                command,
            )
        return self.subagent_scope(located, command)

    def subagent_scope(self, located: Located, command: str) -> Violation | None:
        named = _profile(self.config, self.session)
        if named is not None and named[1].write_scope is not None:
            rule = f"agents.{named[0]}.write_scope"
            patterns = self.lists.scopes[named[0]]
        else:
            rule = "project root + subagents.write_outside_root"
            # a Bash effect on the root folder itself (tar x, git checkout -- .) is inside it
            if located.inside or (command and located.problem == ROOT_ITSELF):
                return None
            patterns = self.lists.outside
        match = scope.check(located, patterns, self.insensitive)
        if match.allowed:
            holds = _exclusion_within(located, patterns, self.insensitive)
            if holds is None:
                return None
            match = scope.ScopeMatch(False, match.pattern, holds)
        why = (
            f"excluded by {match.excluded_by!r}"
            if match.excluded_by
            else (located.problem or "no pattern covers it")
        )
        what = f"`{command}` writes" if command else f"{self.payload.tool_name} of"
        return Violation(
            Code.SCOPE_VIOLATION,
            rule,
            f"{self.session.label}: {what} {located.display} is outside its write scope ({why}).",
            "Write only inside the scope: " + (", ".join(patterns) or "the project root") + ".",
            located.display,
            command,
        )

    def target(
        self, located: Located, command: str = "", *, deletes: bool = False
    ) -> Violation | None:
        found = self.tamper(located, command, deletes=deletes)
        if found is None and self.facts.config_problem is not None:
            found = self.broken_config(located.display, command)
        return found or self.write_rule(located, command)

    def tool_profile(self) -> Violation | None:
        if self.main:
            return None
        named = _profile(self.config, self.session)
        if named is None or named[1].tools is None:
            return None
        name, profile = named
        cls = self.classification.tool_class
        listed = self.lists.tools[name]
        tool = self.payload.tool_name
        # the exact entries first (a set lookup); the patterns as _tool_listed reads them
        if tool in listed or cls.value in listed or _tool_listed(tool, cls, profile.tools or ()):
            return None
        return Violation(
            Code.TOOL_NOT_ALLOWED,
            f"agents.{name}.tools",
            f"{self.session.label} may not use {self.payload.tool_name} ({cls.value}).",
            "Allowed for this agent type: "
            + (", ".join(profile.tools or ()) or "nothing")
            + ". Report back to the main agent so it can hand this step to another agent type.",
        )

    def write_tool(self) -> Violation | None:
        raws = _targets(self.payload)
        if raws is None:
            self.paths.append("?")
            missing = Located("", (), (), "the tool input names no file")
            return self.broken_config(None) or self.write_rule(missing)
        for raw in raws:
            found = self.target(self.locate(raw))
            if found:
                return found
        return None

    def unknown_tamper(self) -> Violation | None:
        """An unknown tool (an MCP filesystem server, a plugin) is treated like a write, but only
        the main agent's calls were checked and only as UNKNOWN_TOOL: a subagent could write the
        settings through ``mcp__fs__write_file``, and in warn so could the main agent. Any
        argument that names a file is checked against the protected set."""
        for raw in _path_arguments(self.payload.tool_input):
            found = self.tamper(self.locate(raw))
            if found:
                return found
        return None

    def unknown_tool(self) -> Violation | None:
        if not self.main or _tool_listed(
            self.payload.tool_name, ToolClass.UNKNOWN, self.config.orchestrator.allow_tools
        ):
            return None
        name = self.payload.tool_name
        return Violation(
            Code.UNKNOWN_TOOL,
            "tools (unknown class is treated as a write)",
            f"the main agent may not use {name}: it is not a known read-only tool, so it is "
            "treated like a write.",
            f"Delegate it to a subagent, or ask the user to classify it in .claude/boundary.toml "
            f'([tools] "{name}" = "read") or allow it ([orchestrator] allow_tools).',
        )

    def bash_command(self) -> Violation | None:
        command = self.payload.tool_input.get("command")
        if not isinstance(command, str):
            self.paths.append("?")
            return self.broken_config(None) or (
                self.write_rule(Located("", (), (), "no command text"), "?") if self.main else None
            )
        cfg = self.config.bash
        shell = "powershell" if self.payload.tool_name == "PowerShell" else "bash"
        self.analysis = analysis = bash.analyze(
            command,
            cwd=self.payload.cwd or self.facts.root,
            home=self.facts.home,
            read_only_commands=self.lists.read_only,
            shell=shell,
        )
        for effect in analysis.effects:
            if effect.resolved is None:
                self.paths.append(effect.path or "?")
                if self.main:
                    found = self.broken_config(effect.path, effect.command) or self.write_rule(
                        _unresolved(effect), effect.command
                    )
                    if found:
                        return found
                continue
            found = self.target(
                self.locate(effect.resolved),
                effect.command,
                deletes=effect.kind is EffectKind.DELETE,
            )
            if found:
                return found
        if not self.main:
            return None
        if analysis.status is Status.UNPARSEABLE:
            return self.bash_mode(cfg.unparseable, Code.BASH_UNPARSEABLE, command, analysis.error)
        for cmd in analysis.commands:
            if cmd.program and cmd.program in cfg.deny_commands:
                return Violation(
                    Code.BASH_DENIED_COMMAND,
                    "bash.deny_commands",
                    f"the main agent may not run {cmd.program} (`{cmd.text}`).",
                    delegate_hint(self.config, None, "Bash"),
                    command=cmd.text,
                )
        if analysis.status is Status.OPAQUE:
            parts = "; ".join(c.text for c in analysis.opaque[:3]) or command
            return self.bash_mode(
                cfg.opaque, Code.BASH_OPAQUE, parts, "its effects cannot be known"
            )
        return None

    def bash_mode(self, mode: str, code: Code, command: str, why: str) -> Violation | None:
        rule = "bash.unparseable" if code is Code.BASH_UNPARSEABLE else "bash.opaque"
        if mode == "allow":
            return None
        text = f"`{command[:200]}`: {why}"
        if mode == "warn":
            self.advisory = f"orchestrator-boundary ({rule} = warn): {text}. Prefer delegating."
            return None
        return Violation(
            code,
            rule,
            f"the main agent may not run {text}.",
            delegate_hint(self.config, None, "Bash"),
            command=command[:200],
        )


_RANK = {Code.TAMPER: 0, Code.CONFIG_INVALID: 1, Code.TOOL_NOT_ALLOWED: 2}


def assess(payload: HookPayload, config: Config, facts: Facts) -> Assessment:
    """What the call would be in ``enforce``: the violation, if any, and what was looked at."""
    check = _Check(payload, config, facts)
    found: list[Violation | None] = []
    if payload.tool_name:
        match check.classification.tool_class:
            case ToolClass.WRITE:
                found.append(check.write_tool())
            case ToolClass.EXECUTE:
                found.append(check.bash_command())
            case ToolClass.UNKNOWN:
                found.append(check.unknown_tamper())
                found.append(check.broken_config(None) if check.main else None)
                found.append(check.unknown_tool())
            case (
                ToolClass.READ
                | ToolClass.SEARCH
                | ToolClass.COORDINATE
                | ToolClass.DELEGATE
                | ToolClass.NETWORK
            ):
                pass
            case other:
                assert_never(other)
        found.append(check.tool_profile())
    violation = None
    for v in found:  # the first of those that take precedence
        if v is not None and (
            violation is None
            or _RANK.get(v.code, len(_RANK)) < _RANK.get(violation.code, len(_RANK))
        ):
            violation = v
    return Assessment(
        check.session,
        payload.tool_name,
        check.classification,
        tuple(dict.fromkeys(check.paths)),
        violation,
        check.advisory,
        check.analysis,
    )
