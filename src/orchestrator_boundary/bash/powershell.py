"""PowerShell (`shell="powershell"`): a simple linear tokenizer, not a full grammar.

Handles statements (`;`, newline, `&&`, `||`), pipelines, redirects (`>`, `>>`, `*>`, `n>`),
the common item/content cmdlets and their aliases; anything else is opaque.
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash import powershell_data as data
from orchestrator_boundary.bash.budget import MAX_INPUT_BYTES, MAX_UNWRAP, Budget, BudgetExhausted
from orchestrator_boundary.bash.gitlinks import gitlinks
from orchestrator_boundary.bash.model import (
    BashAnalysis,
    Command,
    Effect,
    EffectKind,
    Status,
    summarize,
)
from orchestrator_boundary.bash.outcome import Fx
from orchestrator_boundary.bash.paths import is_device, is_windows, normalize_cwd, resolve
from orchestrator_boundary.bash.powershell_tokens import Tok, subexpressions, tokenize
from orchestrator_boundary.bash.ps_assign import assignment_target, setters, target_reason
from orchestrator_boundary.bash.ps_static import cmd_redirects, new_object, static_call

W, D = EffectKind.WRITE, EffectKind.DELETE


class _Ps:
    def __init__(
        self, cwd: str | None, home: str | None, read_only: frozenset[str], budget: Budget
    ) -> None:
        self.cwd, self.home, self.read_only, self.budget = cwd, home, read_only, budget
        self.start = cwd  # where the script started: a Windows drive means Windows devices
        self.out: list[Command] = []

    def path(self, value: str | None) -> tuple[str, str | None]:
        if value is None:
            return "", None
        if value.startswith("~") and self.home:
            value = self.home + value[1:] if value[1:2] in ("", "/", "\\") else value
        return value, resolve(value, self.cwd, backslash_sep=True)

    def fx(self, kind: EffectKind, value: str | None, source: str) -> list[Fx]:
        path, resolved = self.path(value)
        windows = is_windows(self.start)
        if value is not None and (
            value.lower() == "$null" or is_device(resolved, path, windows=windows)
        ):
            return []
        return [Fx(kind, path or "", resolved, source)]

    def run(self, code: str, depth: int) -> None:
        if depth > MAX_UNWRAP:
            raise BudgetExhausted("budget exhausted (nested script blocks)")
        self.budget.spend_text(code)
        cmd: list[Tok] = []
        for tok in [*tokenize(code), ("sep", "", None)]:
            self.budget.spend()
            if tok[0] in ("sep", "pipe"):
                if cmd:
                    self.command(cmd, depth)
                cmd = []
            else:
                cmd.append(tok)

    def command(self, toks: list[Tok], depth: int) -> None:
        text = " ".join(t[1] for t in toks)
        for tok in toks:  # `"$(ni x)"`: a subexpression runs when its string is expanded
            if tok[0] != "block" and '"' in tok[1]:
                for code in subexpressions(tok[1]):
                    self.run(code, depth + 1)
        fx: list[Fx] = []
        words: list[Tok] = []
        i = 0
        while i < len(toks):
            kind, raw, _ = toks[i]
            if kind == "redir":
                target = raw.partition(">")[2]
                target = target.lstrip(">")
                op_text = raw[: len(raw) - len(target)] if target else raw
                if target.startswith("&"):
                    i += 1
                    continue
                if not target and i + 1 < len(toks):
                    i += 1
                    target, target_value = toks[i][1], toks[i][2]
                else:
                    target_value = None if "$" in target else target or None
                if target.lower() == "$null":
                    i += 1
                    continue
                fx += self.fx(W, target_value, f"redirect '{op_text}'")
            else:
                words.append(toks[i])
            i += 1
        status, program, note, more = self.statement(words, depth)
        fx += more
        if status == Status.READ_ONLY and fx:
            status = Status.WRITES
        effects = tuple(Effect(f.kind, f.path, f.resolved, text, f.source) for f in fx)
        self.out.append(Command(text, program, status, effects, note))

    def statement(self, words: list[Tok], depth: int) -> tuple[Status, str, str, list[Fx]]:
        """``cmdlet``, unless the statement assigns to more than a plain variable."""
        target = assignment_target(words) if words else None
        reason = target_reason(target) if target is not None else ""
        if reason:
            return self.rest_opaque(words, depth, reason)
        return self.cmdlet(words, depth)

    def cmdlet(self, words: list[Tok], depth: int) -> tuple[Status, str, str, list[Fx]]:
        if not words:
            return Status.READ_ONLY, "", "redirect only", []
        kind, raw, value = words[0]
        if kind == "block":
            self.run(raw, depth + 1)
            if len(words) > 1:  # `(Get-Item a).Delete()`: a member of the result is called
                return self.rest_opaque(words[1:], depth, "a member or operator on a result")
            return Status.READ_ONLY, "", "grouping", []
        assigned = _assignment(words)
        if assigned is not None:  # `$null = Set-Content ...`: the command runs all the same
            return self.cmdlet(assigned, depth)
        has_args = len(words) > 1 and words[1][0] == "block"
        static = static_call(raw, words[1][1] if has_args else None)
        if static is not None:
            if len(words) > 1 + has_args:  # `[IO.File]::Exists('a') -and (ni x)`
                return self.rest_opaque(words[1 + has_args :], depth, "an expression")
            return self.static(raw, static)
        if (
            raw.startswith("$")
            and "(" not in raw
            and not any(w[0] == "block" or "(" in w[1] for w in words[1:])
        ):
            return Status.READ_ONLY, "", "expression", []
        if value is None or value in ("&", "."):
            return self.rest_opaque(words[1:], depth, "call operator or computed command", raw)
        name = value.lower()
        if name.endswith(".exe"):
            name = name[:-4]
        params: dict[str, str | None] = {}
        positional: list[str | None] = []
        i = 1
        while i < len(words):
            k, r, v = words[i]
            if k == "block":
                if name in data.BLOCK_RUNNERS or r.strip():
                    self.run(r, depth + 1)
                positional.append(None)
            elif (v or r).startswith("-") and len(r) > 1 and r[1].isalpha() and (v or ":" in r):
                pname, colon, pval = (v or r).lower().partition(":")
                if colon:
                    params[pname] = pval
                elif pname in data.SWITCHES or i + 1 >= len(words):
                    params[pname] = ""
                else:
                    params[pname] = words[i + 1][2]
                    i += 1
                    if words[i][0] == "block":  # `-Path (ni x)`, `-ScriptBlock { ni x }`
                        self.run(words[i][1], depth + 1)
            else:
                positional.extend([p for p in v.split(",") if p] if v is not None else [None])
            i += 1
        if name in self.read_only:
            return Status.READ_ONLY, name, "caller's read-only command", []
        if name in ("foreach-object", "%", "foreach") and _member_call(words[1:], params):
            return self.rest_opaque(words[1:], depth, "ForEach-Object calls a member by name")
        if name in data.WHATIF and params.get("-whatif", "-") in ("", "$true", "true", "1"):
            return Status.READ_ONLY, name, "-WhatIf only reports", []
        return self.known(name, params, positional)

    def download(
        self, name: str, params: dict[str, str | None], pos: list[str | None]
    ) -> tuple[Status, str, str, list[Fx]]:
        """Invoke-WebRequest / -RestMethod write only with -OutFile, which PowerShell also takes
        abbreviated (`-OutF`, `-o`); curl and wget may be the native programs (PowerShell 7),
        whose options write too (`curl -o f`, `curl -O`); Start-BitsTransfer always writes
        (attack round C)."""
        out = [v for k, v in params.items() if len(k) >= 2 and "-outfile".startswith(k)]
        if name == "start-bitstransfer":
            target = params.get("-destination", pos[1] if len(pos) > 1 else None)
            return Status.WRITES, name, "", self.fx(W, target, f"{name} output")
        if out:  # curl.exe's -O takes the URL and names the file after it: unknown here
            target = None if "://" in (out[0] or "") else out[0]
            return Status.WRITES, name, "", self.fx(W, target, f"{name} output")
        if name in ("curl", "wget") and params:
            return Status.OPAQUE, name, "may be the native program: its options may write", []
        return Status.READ_ONLY, name, "downloads to the output stream", []

    def rest_opaque(
        self, rest: list[Tok], depth: int, note: str, program: str = ""
    ) -> tuple[Status, str, str, list[Fx]]:
        """Opaque; the groups and script blocks among ``rest`` are analysed as if they ran. A
        .NET method that writes, called by name (``(gi x).Delete()``, ``$f.CopyTo('y')``, ``ls
        | % Delete``), is a write to a place the text does not fix (ADR 0070)."""
        for tok in rest:
            if tok[0] == "block":
                self.run(tok[1], depth + 1)
        named = [m for t in (program, *(t[1] for t in rest if t[0] == "word")) for m in _writer(t)]
        fx = [Fx(EffectKind.WRITE, "", None, f"{m}(): a .NET method that writes") for m in named]
        fx += [Fx(EffectKind.WRITE, "", None, f"{m}: a file's property set") for m in setters(rest)]
        return Status.OPAQUE, program, note, fx[:1]

    def listed(self, name: str, params: dict[str, str | None]) -> tuple[Status, str, str, list[Fx]]:
        """A read-only cmdlet, unless it is a native program here or a parameter starts one."""
        if name in data.NATIVE_ELSEWHERE and not is_windows(self.start):
            return Status.OPAQUE, name, f"{name} runs the native program outside Windows", []
        if _starts_program(name, params):
            return Status.OPAQUE, name, f"{name} -Online / -ShowWindow starts a program", []
        return Status.READ_ONLY, name, "known read-only cmdlet", []

    def static(
        self, raw: str, found: tuple[str, list[tuple[EffectKind, str | None]]]
    ) -> tuple[Status, str, str, list[Fx]]:
        verdict, effects = found
        fx = [f for kind, path in effects for f in self.fx(kind, path, f"{raw}()")]
        if verdict == "writes":
            return Status.WRITES, raw, "", fx
        if verdict == "reads":
            return Status.READ_ONLY, raw, ".NET call that reads", []
        return Status.OPAQUE, raw, ".NET call: effects not known", []

    def known(
        self, name: str, params: dict[str, str | None], pos: list[str | None]
    ) -> tuple[Status, str, str, list[Fx]]:
        def first(*keys: str, index: int = 0) -> str | None:
            for key in keys:
                if key in params:
                    return params[key]
            return pos[index] if len(pos) > index else None

        if name in data.WRITE_CONTENT:
            target = first("-path", "-literalpath", "-filepath")
            return Status.WRITES, name, "", self.fx(W, target, f"{name} target")
        if name in data.NEW_ITEM:
            base = first("-path")
            leaf = params.get("-name")
            target = (
                base
                if leaf is None
                else (None if base is None and "-path" in params else f"{base or '.'}/{leaf}")
            )
            return Status.WRITES, name, "", self.fx(W, target, f"{name} target")
        if name in data.REMOVE:
            given = [params[k] for k in ("-path", "-literalpath") if k in params] or pos or [None]
            fx = [f for g in given for f in self.fx(D, g, f"{name} target")]
            return Status.WRITES, name, "", fx
        if name in data.COPY | data.MOVE | data.RENAME:
            source = first("-path", "-literalpath")
            if name in data.RENAME:
                new = first("-newname", index=1)
                parent = (
                    source.replace("\\", "/").rsplit("/", 1)[0]
                    if source and "/" in source.replace("\\", "/")
                    else "."
                )
                dest = None if new is None or source is None else f"{parent}/{new}"
            else:
                dest = first("-destination", index=1)
            fx = self.fx(W, dest, f"{name} destination")
            if name not in data.COPY:
                fx = self.fx(D, source, f"{name} source") + fx
            return Status.WRITES, name, "", fx
        if name in data.DOWNLOADS:
            return self.download(name, params, pos)
        if name in data.ARCHIVES:
            target = params.get("-destinationpath")
            if name in data.ARCHIVES and "-destinationpath" not in params:
                target = "." if name.startswith("expand") else None
            return Status.WRITES, name, "", self.fx(W, target, f"{name} output")
        if name == "new-object" or (name in ("cmd", "cmd.exe") and pos):
            return self.opens(name, params, pos)
        if name in data.SET_LOCATION:
            self.cwd = None  # a failed Set-Location does not stop the next statement
            return Status.READ_ONLY, name, "changes the location (later paths unknown)", []
        if name in data.READ_ONLY or name in data.BLOCK_RUNNERS:
            return self.listed(name, params)
        return Status.OPAQUE, name, "unknown cmdlet or program", []

    def opens(
        self, name: str, params: dict[str, str | None], pos: list[str | None]
    ) -> tuple[Status, str, str, list[Fx]]:
        """``New-Object IO.StreamWriter 'x'`` (ADR 0077), and ``cmd /c LINE``'s redirects."""
        if name == "new-object":
            opened = new_object(params, pos)
            if opened is None:
                return Status.OPAQUE, name, "unknown cmdlet or program", []
            return Status.WRITES, name, "", [f for p in opened for f in self.fx(W, p, "stream")]
        line = " ".join(p or "" for p in pos[1:]) if (pos[0] or "").lower() in ("/c", "/k") else ""
        fx = [f for t in cmd_redirects(line) for f in self.fx(W, t, "cmd redirect")]
        return Status.OPAQUE, name, "cmd.exe command line", fx


def _starts_program(name: str, params: dict[str, str | None]) -> bool:
    """`Get-Help x -Online` (any prefix: `-o`) opens the browser, `-ShowWindow` a window."""
    if name not in ("get-help", "help"):
        return False
    return any(len(p) >= 2 and full.startswith(p) for p in params for full in data.HELP_RUNS)


def powershell_commands(
    code: str, cwd: str | None, home: str | None, read_only: frozenset[str], budget: Budget
) -> list[Command]:
    ps = _Ps(cwd, home, read_only, budget)
    ps.run(code, 0)
    return ps.out


def analyze_powershell(
    command: str, *, cwd: str, home: str | None, read_only_commands: frozenset[str], budget: Budget
) -> BashAnalysis:
    if len(command.encode("utf-8", "surrogatepass")) > MAX_INPUT_BYTES:
        return BashAnalysis(Status.UNPARSEABLE, error="input too large")
    lowered = frozenset(c.lower() for c in read_only_commands)
    return summarize(
        gitlinks(
            powershell_commands(command, normalize_cwd(cwd), normalize_cwd(home), lowered, budget)
        )
    )


def _assignment(words: list[Tok]) -> list[Tok] | None:
    """The command on the right of ``$x = command`` / ``$x=command``, or None."""
    kind, raw, _ = words[0]
    if kind != "word" or not raw.startswith("$"):
        return None
    if len(words) > 2 and words[1][1] in ("=", "+=", "-=", ".="):
        rest = words[2:]
    elif "=" in raw and raw.index("=") > 1:
        right = raw[raw.index("=") + 1 :]
        if not right:
            return None
        rest = [("word", right, None if "$" in right else right), *words[1:]]
    else:
        return None
    kind, raw, value = rest[0]
    if kind == "word" and raw.startswith("[") and "]::" in raw:
        return rest  # `$w = [IO.File]::CreateText('x')`: the call runs all the same (0077)
    if kind != "word" or value is None or not value[:1].isalpha():
        return None  # `$x = 5`, `$x = "text"`, `$x = $y`: an expression
    name = value.lower()
    known = "-" in name or any(name in table for table in data.ALL_NAMES)
    return rest if known else None


def _member_call(args: list[Tok], params: dict[str, str | None]) -> bool:
    """`ls | % Delete`, `% -MemberName CopyTo b`: ForEach-Object calls a method of each input
    object by name (FileInfo.Delete deletes the file); only script blocks are analysed."""
    plain = [t for t in args if t[0] != "block" and not (t[2] or t[1]).startswith("-")]
    return "-membername" in params or bool(plain)


# methods of FileInfo / DirectoryInfo, XmlDocument, images, WebClient and ZipFile that write
# (not String.Replace: `(gc f).Replace('a', 'b')` only makes a new string)
_WRITERS = re.compile(
    r"(?:^|\.)(delete|moveto|copyto|encrypt|decrypt|create|createsubdirectory|createtext|"
    r"appendtext|openwrite|save|downloadfile|downloadfileasync|downloadfiletaskasync|"
    r"setaccesscontrol|createassymboliclink|extracttodirectory|extracttofile|"
    r"createfromdirectory|createentryfromfile)\Z",
    re.IGNORECASE,
)


def _writer(raw: str) -> list[str]:
    found = _WRITERS.search(raw)
    return [found.group(1)] if found else []
