"""What a Skill (SlashCommand) call runs that no hook sees. ADR 0053.

Claude Code 2.1.330 runs a skill's or command's ``!`cmd``` lines and ```` ```! ```` blocks (with
the call's args in place of ``$ARGUMENTS``) and the hooks of its front matter itself when the
Skill tool loads it, with no PreToolUse hook for them (observed offline with the pinned CLI).
This module finds the file a call loads, through the ``FileSystem`` interface, and the commands
in it, which the policy judges as the call's own Bash command (``targets``).
"""

from __future__ import annotations

import ntpath
import posixpath
import re

from orchestrator_boundary.agent_defs import front_matter_name
from orchestrator_boundary.context import Context
from orchestrator_boundary.payload import HookPayload

SKILL_TOOLS = frozenset({"Skill", "SlashCommand"})
SKILL_MAX_BYTES = 64 * 1024
SKILL_SCAN = 256  # SKILL.md files looked at per folder for a skill named in its front matter


def skill_call(payload: HookPayload) -> tuple[str, str]:
    """(the skill's name, its args): Skill ``{"skill", "args"}``; SlashCommand
    ``{"command": "/name args"}``."""
    tool_input = payload.tool_input
    if payload.tool_name == "SlashCommand":
        given = tool_input.get("command")
        name, _, args = (given.strip() if isinstance(given, str) else "").partition(" ")
        return name.lstrip("/"), args.strip()
    skill, extra = tool_input.get("skill"), tool_input.get("args")
    return (
        skill.strip().lstrip("/") if isinstance(skill, str) else "",
        extra if isinstance(extra, str) else "",
    )


def skill_files(name: str, context: Context) -> list[str]:
    """The files a skill or command called ``name`` may be loaded from, in the project's
    ``.claude`` and the user's Claude folder (``$CLAUDE_CONFIG_DIR``, else ``~/.claude``):
    ``skills/NAME/SKILL.md`` (or a SKILL.md whose front matter names it) and
    ``commands/NAME.md`` (``a:b`` is ``commands/a/b.md``); a plugin's (``plugin:name``) below
    the user's plugins folder (``_plugin_files``)."""
    if not name or any(bad in name for bad in ("\x00", "/", "\\", "..")):
        return []
    mod = ntpath if context.fs.windows else posixpath
    bases = [mod.join(context.root, ".claude")]
    if context.claude_config_dir:
        bases.append(context.claude_config_dir)
    elif context.home:
        bases.append(mod.join(context.home, ".claude"))
    out: list[str] = []
    for base in bases:
        if ":" not in name:
            out.append(mod.join(base, "skills", name, "SKILL.md"))
        out.append(mod.join(base, "commands", *name.split(":")) + ".md")
    if ":" in name:
        out += _plugin_files(name, bases[1:], context)
    for base in bases:
        for path in context.fs.files_below(mod.join(base, "skills"), SKILL_SCAN):
            if mod.basename(path) != "SKILL.md" or path in out:
                continue
            text = context.fs.script_text(path, SKILL_MAX_BYTES)
            if text is None or front_matter_name(text) == name:  # unread: it may be the one
                out.append(path)
    return out


PLUGIN_SCAN = 4096  # files looked at below the user's plugins folder for a plugin's skill


def _plugin_files(name: str, bases: list[str], context: Context) -> list[str]:
    """A plugin's skill or command (``plugin:skill``, ``plugin:ns:command``): the file below
    the user's ``plugins`` folder, in a folder named for the plugin, at ``skills/NAME/SKILL.md``
    or ``commands/NAME.md``; and the same files of each plugin the project holds or its
    settings name (``protect_plugins``, ADR 0078), whatever it is called. The file is
    protected, but the call's args are pasted into its ``!`` lines as shell text (ADR 0071)."""
    from orchestrator_boundary.protect_plugins import plugin_roots  # only for a plugin's

    plugin, _, rest = name.partition(":")
    ends = ("/skills/" + rest + "/SKILL.md", "/commands/" + rest.replace(":", "/") + ".md")
    out = [
        root.rstrip("/\\") + end  # a plugin the project holds (ADR 0078), by any name
        for root in plugin_roots(context.root, context.fs)
        for end in ends
    ]
    for base in bases:
        folder = (base + "/plugins").replace("\\", "/")
        for path in context.fs.files_below(folder, PLUGIN_SCAN):
            slashed = path.replace("\\", "/")
            if slashed.endswith(ends) and f"/{plugin}/" in slashed[len(folder) :]:
                out.append(path)
    return out


_BANG_INLINE = re.compile(r"!`([^`\n]+)`")
_BANG_BLOCK = re.compile(r"^```!\s*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_HOOK_COMMAND = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]*)?command:[ \t]*(?P<value>.*?)[ \t]*$")
_BLOCK_SCALAR = re.compile(r"[|>][-+]?\d*")


def _yaml_scalar(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace('\\"', '"') if value[0] == '"' else inner.replace("''", "'")
    return value.split(" #", 1)[0]


def _hook_commands(front: str) -> list[str]:
    """The ``command:`` values in the front matter's ``hooks:`` (plain, quoted, or a block
    scalar ``|`` / ``>`` with the lines indented below it)."""
    lines = front.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        match = _HOOK_COMMAND.match(line)
        if match is None:
            continue
        value = match["value"]
        if not _BLOCK_SCALAR.fullmatch(value):
            out.append(_yaml_scalar(value))
            continue
        depth = len(match["indent"])
        block = []
        for below in lines[i + 1 :]:
            if below.strip() and len(below) - len(below.lstrip()) <= depth:
                break
            block.append(below.strip())
        out.append(("\n" if value.startswith("|") else " ").join(block).strip())
    return out


# the CLI's placeholders for one of the arguments: $ARGUMENTS[0], $0, $1, ${1}
_POSITIONAL = re.compile(r"\$ARGUMENTS\[\d+\]|\$\{?\d+\}?")


def _pasted(command: str, args: str) -> list[str]:
    """``command`` with the call's ``args`` in place of ``$ARGUMENTS`` and of each positional
    placeholder (ADR 0071). An argument is a part of ``args``, with its quotes taken off
    (``"x; rm y"`` is one argument, ``x; rm y``): each is read as the whole ``args``, and as
    ``args`` without quotes, which covers whichever part it is."""
    if not _POSITIONAL.search(command):
        return [command.replace("$ARGUMENTS", args)]
    unquoted = args.replace('"', "").replace("'", "")
    out = []
    for value in dict.fromkeys((args, unquoted)):
        pasted = _POSITIONAL.sub(value.replace("\\", "\\\\"), command)  # a literal, not a template
        out.append(pasted.replace("$ARGUMENTS", args))
    return out


def skill_commands(text: str, args: str) -> list[str]:
    """The shell commands Claude Code runs when the Skill tool loads ``text`` (a SKILL.md or a
    command file), as observed on 2.1.330: each ``!`cmd``` and each ```` ```! ```` block of the
    body, with ``$ARGUMENTS`` (and ``$ARGUMENTS[N]``, ``$N``: ``_pasted``) replaced by the
    call's ``args`` (the CLI substitutes before it runs them, so the arguments are shell
    text), and the ``command:`` of each hook in the front matter. No PreToolUse hook sees
    any of them."""
    body, front = text.lstrip("\ufeff"), ""
    if body.startswith("---"):
        end = body.find("\n---", 3)
        if end != -1:
            front, body = body[3:end], body[end + 4 :]
    found = [m.group(1) for m in _BANG_INLINE.finditer(body)]
    found += [m.group(1) for m in _BANG_BLOCK.finditer(body)]
    found = [pasted for c in found for pasted in _pasted(c, args)]
    if "hooks" in front:
        found += _hook_commands(front)
    return [c for c in found if c.strip()]


def loaded_commands(payload: HookPayload, context: Context) -> list[str]:
    """The commands the skill or command file this call loads runs, each once, in order."""
    name, args = skill_call(payload)
    commands: list[str] = []
    for path in skill_files(name, context):
        text = context.fs.script_text(path, SKILL_MAX_BYTES)
        if text is not None:
            commands += skill_commands(text, args)
        elif args.strip() and context.fs.identity(path) is not None:
            # a file that is there but cannot be read here (over SKILL_MAX_BYTES, not UTF-8):
            # any of its ! lines may paste the args in, so they are judged as shell text
            commands.append(args)
    return list(dict.fromkeys(commands))
