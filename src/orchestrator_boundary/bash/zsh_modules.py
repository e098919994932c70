"""zsh's `zmodload`: modules that give the shell ways to write files (ADR 0077).

The Bash tool runs zsh on macOS. ``zmodload zsh/mapfile`` makes the array ``mapfile`` the
files of the folder: ``mapfile[x]=y`` writes ``x``, ``unset 'mapfile[x]'`` deletes it (observed
with zsh 5.9; without the module the same assignment only fails). zsh/system (``sysopen -w``,
``syswrite``), zsh/files (builtin ``rm``/``mv``/``ln`` with their own options), zsh/db/gdbm
(``ztie``), zsh/zftp, zsh/zpty and zsh/sched write or run code through names the analysis
reads as other things, or not at all. Loading a module not known to be harmless (or one the
text does not name) is opaque with a write the text does not place; listing the loaded
modules, or loading a harmless one, reads only.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, read_only
from orchestrator_boundary.bash.words import Word

# modules that add no way to write a file or run a command (zsh 5.9's documentation)
_HARMLESS = frozenset(
    [
        "zsh/datetime",
        "zsh/mathfunc",
        "zsh/parameter",
        "zsh/terminfo",
        "zsh/termcap",
        "zsh/langinfo",
        "zsh/regex",
        "zsh/pcre",
        "zsh/zutil",
        "zsh/complist",
        "zsh/complete",
        "zsh/computil",
        "zsh/zle",
        "zsh/zleparameter",
        "zsh/nearcolor",
        "zsh/deltochar",
        "zsh/main",
        "zsh/rlimits",
        "zsh/stat",
    ]
)
# options that list or query, loading nothing (`zmodload -L`, `-e zsh/x`)
_QUERIES = frozenset(["-L", "-l", "-e", "-Le", "-Fl", "-FL", "-u"])


def zmodload(prog: str, args: list[Word], env: Env) -> Outcome:
    options = [a.value for a in args if a.value is not None and a.value.startswith("-")]
    modules = [a for a in args if a.value is None or not a.value.startswith("-")]
    if not modules or (options and all(o in _QUERIES for o in options)):
        return read_only(prog, "zmodload lists or queries modules")
    if all(m.value in _HARMLESS for m in modules) and all(o in ("-i", "-s") for o in options):
        return read_only(prog, "zmodload of a module that writes nothing")
    named = ", ".join(m.text for m in modules)
    found = Fx(EffectKind.WRITE, "", None, f"zmodload {named}: writes through the shell itself")
    return opaque(prog, f"zmodload {named}: a module that may write files", [found])
