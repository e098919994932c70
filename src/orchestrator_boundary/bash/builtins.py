"""Shell builtins whose arguments can name variables, aliases or code (ADR 0021)."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from orchestrator_boundary.bash import windows_native, zsh_math, zsh_modules
from orchestrator_boundary.bash.envvars import NAME, settable_name
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only, runs_code, writes
from orchestrator_boundary.bash.paths import basename
from orchestrator_boundary.bash.ps_static import cmd_redirects
from orchestrator_boundary.bash.words import Word, lit, may_be_option, may_split

_LITERAL_ARITH = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=)?[0-9+\-*/%() ]*")


def _is_name(word: Word | None) -> bool:
    return word is not None and word.value is not None and NAME.fullmatch(word.value) is not None


def _settable(word: Word | None) -> bool:
    """A plain name the shell may set to any value without running other code (envvars)."""
    return word is not None and word.value is not None and settable_name(word.value)


def _read(prog: str, args: list[Word], env: Env) -> Outcome:
    """read / mapfile / readarray: every variable they set must be a plain, harmless name (a
    subscript in a name is evaluated as arithmetic); mapfile -C runs a callback."""
    valued = "dnOsuCc" if prog != "read" else "adinNptu"
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "a variable name is not a literal")
        if value.startswith("-") and len(value) > 1 and value != "--":
            for j in range(1, len(value)):  # a cluster, as getopt reads it: `-rp PROMPT`
                letter = value[j]
                if letter not in valued:
                    continue
                attached = value[j + 1 :]
                given = Word(attached, attached) if attached else None
                if given is None and i + 1 < len(args):
                    i += 1
                    given = args[i]
                if letter == "C":
                    callback = given.value if given is not None and not attached else None
                    return runs_code(prog, callback, env, f"{prog} -C runs a callback")
                if letter == "a" and not _settable(given):
                    return opaque(prog, "the array name is not a plain, harmless name")
                timed = zsh_math.evaluated(
                    prog, [given] if letter == "t" and given else [], env, ""
                )
                if timed.status is not Status.READ_ONLY:  # zsh: the timeout is arithmetic
                    return timed
                break
        elif value != "--" and not _settable(args[i]):
            return opaque(prog, f"{prog} sets {value}: not a plain, harmless name")
        i += 1
    return read_only(prog, "sets shell variables")


def _printf(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and may_be_option(args[0]):  # printf reads options only before the format
        return opaque(prog, f"{args[0].text} is not a literal: it may be printf -v")
    if args and args[0].value == "-v" and (len(args) < 2 or not _settable(args[1])):
        return opaque(prog, "printf -v sets a variable that is not a plain, harmless name")
    numbers = zsh_math.printf_numbers(
        prog, args[2:] if args and args[0].value == "-v" else args, env
    )
    return numbers or read_only(prog, "known read-only")


def _hash(prog: str, args: list[Word], env: Env) -> Outcome:
    if any(a.value is None or (a.value.startswith("-") and "p" in a.value) for a in args):
        return opaque(prog, "hash -p makes a name run another program")
    return read_only(prog, "known read-only")


def _alias(prog: str, args: list[Word], env: Env) -> Outcome:
    if any(a.value is None or "=" in a.value for a in args):
        # the alias may be used anywhere after this: what it runs is analysed here
        # ... with any words after it: `alias ls=touch` makes `ls f` a `touch f`
        bodies = [a.value.partition("=")[2] + ' "$@"' for a in args if a.value is not None]
        code = "\n".join(bodies) if all(a.value is not None for a in args) else None
        note = "defines an alias: later commands in this shell may run other code"
        outcome = runs_code(prog, code, env, note)
        if code is not None and all(c.status is Status.READ_ONLY for c in outcome.inner):
            # whatever uses the alias runs only what was just shown to be read-only
            return Outcome(prog, Status.READ_ONLY, (), "defines a read-only alias", outcome.inner)
        return outcome
    return read_only(prog, "lists aliases")


def splits(arg: Word) -> bool:
    """Whether the word may expand to several words (`$X`, `$(cmd)`, `"$@"`) or to a file name
    that is a test operator (`*` matches a file named `-v`)."""
    if arg.glob:
        pattern = arg.value or "*"
        return "{" in pattern or any(fnmatchcase(op, pattern) for op in ("-v", "-R"))
    return may_split(arg)


def _test(prog: str, args: list[Word], env: Env) -> Outcome:
    """test / [: only `-v NAME` and `-R NAME` evaluate (a subscript of NAME is arithmetic, its
    command substitutions run); a word that may split may bring both (observed: `[ $X ]` with
    X='-v a[$(touch${IFS}z)]', and `[ * ]` beside files named `-v` and `a[$(...)]`)."""
    for i, arg in enumerate(args):
        after = args[i + 1] if i + 1 < len(args) else None
        if arg.value in ("-v", "-R") and not _is_name(after):
            return opaque(prog, "test -v evaluates a subscript")
        if splits(arg):
            return opaque(prog, f"{arg.text} may expand to `-v NAME[...]`, which runs code")
        if may_be_option(arg) and after is not None and (after.value is None or "[" in after.value):
            return opaque(prog, f"{arg.text} is not a literal: it may be -v on a subscript")
    return read_only(prog, "known read-only")


def _let(prog: str, args: list[Word], env: Env) -> Outcome:
    for arg in args:
        if arg.value is None or _LITERAL_ARITH.fullmatch(arg.value) is None:
            return opaque(prog, "let evaluates a variable's value")
    return read_only(prog, "literal arithmetic")


def _by_name(prog: str, args: list[Word], env: Env) -> Outcome:
    """rg --pre, ag/ack --pager: an option that names a command to run."""
    # rg 14+ runs --hostname-bin's program to fill {host} in a --hyperlink-format
    runners = ("--pre", "--hostname-bin") if prog == "rg" else ("--pager",)
    for arg in args:
        value = arg.value
        if value is None or value == "--":
            break
        name = value.partition("=")[0]
        if len(name) > 3 and any(runner.startswith(name) for runner in runners):
            return opaque(prog, f"{prog} {name} runs a command")
    return read_only(prog, "known read-only")


def _file(prog: str, args: list[Word], env: Env) -> Outcome:
    """file -C (--compile, any prefix from --co) writes NAME.mgc in the working directory for
    each magic file -m names (magic.mgc without one)."""
    compiles = False
    magic: list[str | None] = []
    for i, arg in enumerate(args):
        value = arg.value
        if value is None:
            return opaque(prog, f"file {arg.text}: not a literal")
        name = value.partition("=")[0]
        if name.startswith("--") and len(name) >= 4 and "--compile".startswith(name):
            compiles = True
        elif value.startswith("-") and not value.startswith("--"):
            letters = value[1:].partition("m")[0]  # after -m comes its value
            compiles = compiles or "C" in letters
            if "m" in value[1:]:
                attached = value[1:].partition("m")[2]
                following = args[i + 1].value if i + 1 < len(args) else None
                magic.append(attached or following)
        elif name.startswith("--magic") or name == "--magic-file":
            magic.append(value.partition("=")[2] or None)
    if not compiles:
        return read_only(prog, "known read-only")
    names = [m for found in magic for m in (found.split(":") if found else [None])]
    outputs = [lit(basename(m) + ".mgc") if m else None for m in names] or [lit("magic.mgc")]
    return writes(prog, [env.fx(EffectKind.WRITE, o, "file -C compiled magic") for o in outputs])


def _cmd(prog: str, args: list[Word], env: Env) -> Outcome:
    """cmd.exe /c LINE (Git Bash spells it //c): its redirects write, the rest is opaque."""
    values = [a.value for a in args]
    start = next((i for i, v in enumerate(values) if (v or "").lower() in _CMD_RUN), None)
    if start is None or any(v is None for v in values[start + 1 :]):
        return opaque(prog, "cmd.exe: an interactive shell or a line that is not literal")
    line = " ".join(v or "" for v in values[start + 1 :])
    fx = [env.fx(EffectKind.WRITE, t, "cmd redirect") for t in cmd_redirects(line)]
    # each command of the line, up to its redirects: `del x`, `copy a b` (windows_native)
    parts = [re.split(r"[<>]", part)[0].split() for part in re.split(r"[&|]+", line)]
    fx += [f for words in parts for f in windows_native.cmd_line(words, env)]
    return opaque(prog, "cmd.exe command line", fx)


_CMD_RUN = frozenset({"/c", "//c", "/k", "//k"})


def _ulimit(prog: str, args: list[Word], env: Env) -> Outcome:
    """ulimit only narrows what later programs may do, except the core-file size: raised (`-c`
    with a value other than 0), a program that crashes later writes a core file where the
    kernel's core_pattern says, often ./core (observed: `ulimit -c unlimited; awk 'function
    f(){f()} BEGIN{f()}'` left an 8 MB ./core). Which program may crash is not knowable."""
    core = False
    values: list[str] = []
    for arg in args:
        value = arg.value or ""
        if len(value) > 1 and value.startswith("-") and not value[1:].isdigit():
            core = core or "c" in value[1:]
        else:
            values.append(value)
    if core and any(v != "0" for v in values):
        return opaque(prog, "ulimit -c: a later crash may write a core file")
    return read_only(prog, "ulimit")


def _history(prog: str, args: list[Word], env: Env) -> Outcome:
    """history -w/-a [FILE] (and zsh's fc -W/-A [FILE]) write the history list to FILE, or to
    $HISTFILE: an empty list truncates FILE (observed: `bash -c 'history -w f'` empties f).
    Listing, -c, -s, -r, -n change no file; fc without -l/-W/-A/-R runs commands again."""
    writing = ("-w", "-a") if prog == "history" else ("-W", "-A")
    letters = "".join((a.value or "?")[1:] for a in args if (a.value or "-").startswith("-"))
    files = [a for a in args if a.value is None or not a.value.startswith("-")]
    if any(flag[1] in letters for flag in writing):
        named = env.fx_many(EffectKind.WRITE, files, f"{prog} writes the history")
        return writes(prog, named or [env.fx(EffectKind.WRITE, None, "$HISTFILE")])
    if "?" in letters or (prog == "fc" and not any(c in letters for c in "lR")):
        return opaque(prog, f"{prog}: runs commands again, or a word that is not a literal")
    if prog == "history" and "d" in letters:
        return opaque(prog, "history -d: an offset the shell evaluates")
    return read_only(prog, "lists or changes the history list only")


def _less(prog: str, args: list[Word], env: Env) -> Outcome:
    """less runs LESSOPEN and reads lesskey files (opaque), and with -o/-O FILE or
    --log-file/--LOG-FILE=FILE (any prefix from --log) copies what it shows to FILE."""
    logs: list[Word | None] = []
    for i, arg in enumerate(args):
        value = arg.value or ""
        name, eq, attached = value.partition("=")
        following = args[i + 1] if i + 1 < len(args) else None
        if len(name) >= 5 and "--log-file".startswith(name.lower()):
            logs.append(Word(arg.text, attached) if eq else following)
        elif value[:1] == "-" and value[1:2] != "-" and value.lstrip("-")[-1:] in ("o", "O"):
            logs.append(following)  # -o FILE, -So FILE
        elif value[:1] == "-" and value[1:2] != "-" and ("o" in value or "O" in value):
            after = value.replace("O", "o").partition("o")[2]
            logs.append(Word(after, after))  # -oFILE
    fx = [env.fx(EffectKind.WRITE, w, "less log file") for w in logs]
    return opaque(prog, "less runs LESSOPEN and reads lesskey files", fx)


HANDLERS = {
    "less": _less,
    **dict.fromkeys(("robocopy", "xcopy", "attrib", "icacls"), windows_native.native),
    "history": _history,
    "fc": _history,
    "ulimit": _ulimit,
    "cmd": _cmd,
    "read": _read,
    "mapfile": _read,
    "readarray": _read,
    "printf": _printf,
    "hash": _hash,
    "alias": _alias,
    "test": _test,
    "[": _test,
    "let": _let,
    "rg": _by_name,
    "ag": _by_name,
    "ack": _by_name,
    "file": _file,
    **dict.fromkeys(zsh_math.COUNTED, zsh_math.count),
    "zmodload": zsh_modules.zmodload,
}
