"""What a machine-local entry does when its package is gone (ADRs 0052, 0058, 0079).

A local, user or managed entry runs ``"<python>" -I -S "<package>/launcher.py" EVENT``; once
the package is uninstalled or moved, Python exits 2 (cannot open the script), which Claude Code
takes as "block": every call of every phase, warn included, with Python's own error. ADR 0052
had a guard exit 1 instead, so that ``onFailure`` decides; but a Claude Code before 2.1.295
lets exit 1 through, in enforce too. The guard now answers as the package does when its
policy cannot load (``client.cannot_load``): a stop is never held; a tool call goes through
under the bypass or in off and warn (``ORCHESTRATOR_BOUNDARY_PHASE``, else the phase line of
the nearest ``.claude/boundary.toml`` at or above the project) and is blocked in enforce and
ask. With no phase to read, a local or managed entry blocks, as ``cannot_load`` does; a user
entry, which serves every project of its user, lets the call through, as a working hook does
in a project without a config (the default phase, warn). POSIX entries carry it as ``sh``
text; Windows' exec-form entries as a short ``-c`` program.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
import shlex
from collections.abc import Mapping
from typing import Any

TOOL_EVENTS = ("PreToolUse", "PostToolUse")

_GONE = (
    "orchestrator-boundary: {script} is gone (the package was uninstalled or moved); "
    "install it again, then run orchestrator-boundary install again (with the same --scope); "
    "to stop using it, remove its hooks from your Claude Code settings"
)
_SH_PHASE = (
    "p=${ORCHESTRATOR_BOUNDARY_PHASE:-$(d=${CLAUDE_PROJECT_DIR:-$PWD}; case $d in (/*) ;; "
    '(*) d=$PWD/$d ;; esac; until [ -z "$d" ] || '
    '[ -f "$d/.claude/boundary.toml" ]; do d=${d%/*}; done; tr "\\t" " " <"$d/.claude/'
    "boundary.toml\" 2>/dev/null | sed -n '/^ *\\[/q; s/^ *phase *= *.\\([A-Za-z]*\\).*/\\1/p')}; "
    "case $(echo $AMPLIFIER_BYPASS_BOUNDARY | tr A-Z a-z) in 1|true|yes|on) exit 0;; esac; "
    "case $(echo $p | tr A-Z a-z) in off|warn) exit 0;; enforce|ask) exit 2;; esac; exit NONE; "
)


def _none(user: bool) -> str:
    """The answer with no phase to read: a user-scope entry serves every project of its user,
    most of them without a config, which a working hook judges in the default phase (warn):
    through. A local or managed entry serves projects meant to be guarded: blocked, as
    ``cannot_load`` blocks (ADR 0079)."""
    return "0" if user else "2"


_NO_PYTHON = (
    "orchestrator-boundary: {python}, the interpreter these hooks run, is gone (a venv loses it "
    "when its base Python is removed or upgraded away); install the package again with a "
    "Python that is there, then run orchestrator-boundary install again (with the same "
    "--scope); to stop using it, remove its hooks from your Claude Code settings"
)


def gone_guard(script: str, event: str, user: bool = False, python: str = "") -> str:
    """The ``sh`` text before a POSIX entry's ``exec``: the answer when ``script`` is gone or,
    given ``python``, when that is not an executable file (a venv's ``bin/python`` link left
    dangling by ``brew upgrade``: ``exec`` failed with 127, which Claude Code lets through
    without ``onFailure``; ADR 0084)."""
    gone = f"echo {sh_quote(_GONE.format(script=script))} >&2"
    answer = _SH_PHASE.replace("NONE", _none(user)) if event in TOOL_EVENTS else "exit 0; "
    if not python:
        return f"[ -f {sh_quote(script)} ] || {{ {gone}; {answer}}}; "
    no_python = f"echo {sh_quote(_NO_PYTHON.format(python=python))} >&2"
    check = f"[ -f {sh_quote(script)} ] && [ -x {sh_quote(python)} ]"
    return f"{check} || {{ [ -f {sh_quote(script)} ] && {no_python} || {gone}; {answer}}}; "


_PY_PHASE = """
e=os.environ.get;p=e("ORCHESTRATOR_BOUNDARY_PHASE","").strip().lower()
d=os.path.abspath(e("CLAUDE_PROJECT_DIR") or ".")
while not p:
 f=os.path.join(d,".claude","boundary.toml")
 if os.path.isfile(f):
  for l in open(f,encoding="utf-8-sig",errors="replace"):
   k,_,v=l.partition("=")
   if k.strip().startswith("["):break
   if k.strip()=="phase":p=v.split("#")[0].strip().strip("'\\"").strip().lower();break
  break
 if os.path.dirname(d)==d:break
 d=os.path.dirname(d)
b=e("AMPLIFIER_BYPASS_BOUNDARY","").strip().lower() in ("1","true","yes","on")
sys.exit(0 if b or p in ("off","warn") else 2 if p in ("enforce","ask") else NONE)"""


def exec_args(script: str, tail: list[str]) -> list[str]:
    """The ``args`` of an exec-form entry (Windows, ADR 0058): ``launcher.py``'s work as a
    short ``-c`` program that first checks the package is there, and without it answers as
    the POSIX guard does (ADR 0079). Exec form has no shell for that guard, and ``python
    launcher.py`` exits 2 when the file is gone. It costs what running ``launcher.py`` by path
    costs: one small compile."""
    dirname = ntpath.dirname if _drive(script) else posixpath.dirname
    gone = _GONE.format(script=script)
    user = tail[1:] == ["user"]
    tool = bool(tail) and tail[0] in TOOL_EVENTS
    answer = _PY_PHASE.replace("NONE", _none(user)) if tool else "\nsys.exit(0)"
    code = (
        f"import os,sys\ns={script!r}\nif not os.path.isfile(s):\n sys.stderr.write({gone!r}+'\\n')"
        + answer.replace("\n", "\n ")
        + f"\nsys.path.insert(0,{dirname(dirname(script))!r})"
        "\ntry:from orchestrator_boundary.hook_main import main"
        "\nexcept Exception as x:"  # a broken install: never exit 1 (ADR 0084)
        "\n sys.dont_write_bytecode,sys.pycache_prefix=True,os.devnull"
        "\n try:from orchestrator_boundary.rescue import rescued;main=rescued(x)"
        "\n except Exception:"
        f"\n  sys.stderr.write('orchestrator-boundary: cannot load the package (%s)\\n'%x)"
        + answer.replace("\n", "\n  ")
        + "\nsys.exit(main(sys.argv))"
    )
    return ["-I", "-S", "-c", code, *tail]


GUARD = re.compile(
    r"^\[ -f .*? \](?: && \[ -x .*? \])? \|\| \{ (?:\[ -f .*? \] && )?echo .*?>&2; "
    r".*?exit [012]; \}; exec "
)


def sh_quote(word: str) -> str:
    """Double quotes (readable in settings.json) unless the word needs the shell's single ones."""
    if not any(c in word for c in '"$`\\!'):
        return f'"{word}"'
    return "'" + word.replace("'", "'\\''") + "'"


def _drive(path: str) -> bool:
    return bool(ntpath.splitdrive(path)[0])


def entry_argv(entry: Mapping[str, Any]) -> list[str]:
    """The words a direct entry starts: exec form as given, the shell form split as ``sh``
    splits it (what ``testing`` runs, so tests run exactly what ``install`` registers)."""
    args = entry.get("args")
    if isinstance(args, list):
        return [str(entry["command"]), *map(str, args)]
    command = str(entry["command"])
    guard = GUARD.match(command)
    return shlex.split(command[guard.end() :] if guard else command)
