"""Claude Code's own command line: the uses that change what answers a tool call (issue 13).

`claude plugin install|enable|disable|uninstall|update` and `claude plugin marketplace add`
bring in (or take out) plugins, whose hooks and mods can answer a tool call before ours;
`claude mcp add|remove` and `claude config set` change the settings Claude Code reads. Run by
an agent, that is tampering with what guards the agents: a ``CONTROL`` effect, which the policy
treats as TAMPER. The uses that only read (`plugin list`, `plugin validate`, `marketplace
list`, `mcp list|get`, `config get|list`, help, version) stay read_only; anything else
(`claude -p ...` runs an agent) stays opaque.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, read_only, writes
from orchestrator_boundary.bash.words import Word

PROGRAM = "claude"
_GROUPS = frozenset({"plugin", "plugins", "mcp", "config"})
_READS = {
    "plugin": frozenset({"list", "ls", "validate", "help"}),
    "mcp": frozenset({"list", "get", "help"}),
    "config": frozenset({"get", "list", "ls", "help"}),
    "marketplace": frozenset({"list", "ls", "help"}),
}


def _control(text: str) -> Fx:
    why = "changes Claude Code's plugins or settings (hooks or mods that answer before ours)"
    return Fx(EffectKind.CONTROL, text, None, why)


def claude(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    words = [v or "" for v in values]
    if len(words) == 1 and words[0] in ("-v", "--version", "-h", "--help"):
        return read_only(PROGRAM, "help or version")
    # `claude --debug plugin install x`: the group after global options (then never read_only,
    # as an option's value could be the word: `claude -p plugin` runs an agent)
    at = next((i for i, w in enumerate(words[:8]) if w in _GROUPS), None)
    if at is None or (at and not words[0].startswith("-")):
        return opaque(PROGRAM, "runs Claude Code: its effects cannot be known")
    group = "plugin" if words[at] == "plugins" else words[at]
    text = " ".join([PROGRAM, *(a.text for a in args)])
    if any(v is None for v in values[: at + 3]):  # which subcommand it is cannot be known
        return writes(PROGRAM, [_control(text)])
    rest = [w for w in words[at + 1 :] if not w.startswith("-")]
    sub = rest[0] if rest else ""
    if group == "plugin" and sub in ("marketplace", "marketplaces"):
        group, sub = "marketplace", rest[1] if len(rest) > 1 else ""
    if group == "mcp" and sub == "serve":  # serves Claude Code's tools to another client
        return opaque(PROGRAM, "claude mcp serve: its tools' effects cannot be known")
    if not sub or sub in _READS[group] or any(w in ("-h", "--help") for w in words[at + 1 :]):
        if at:
            return opaque(PROGRAM, "runs Claude Code with options: its effects cannot be known")
        return read_only(PROGRAM, f"claude {group} {sub}".rstrip())
    return writes(PROGRAM, [_control(text)])
