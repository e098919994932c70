"""PowerShell assignments whose target is more than a plain variable (ADR 0062).

`$x = ...` only sets a variable of the script. Other targets act outside it:
- a member or an element of an object (`$f.Attributes = 'Hidden'`, `$f.LastWriteTime = ...`,
  `$f.IsReadOnly = $true`) sets a property of whatever the variable holds, a file included;
- `$PSDefaultParameterValues` (whole or an element) gives later cmdlets parameters the text
  does not show (`['Invoke-WebRequest:OutFile'] = 'x'` makes `Invoke-WebRequest URL` write x);
- a drive-qualified name other than a scope writes through its provider (`${C:f} = 'x'`,
  `$function:ls = ...`), and `$env:` names that make programs or PowerShell load code
  (`PSModulePath`, `NODE_OPTIONS`, ...) change what later commands run.
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.envvars import dangerous
from orchestrator_boundary.bash.powershell_tokens import Tok

_OPERATORS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", ".=", "??="})
_SCOPES = frozenset({"global", "script", "local", "private", "using"})
# the properties of a FileSystemInfo whose setter changes the file (its times, its attributes,
# FileInfo.IsReadOnly): `(gi f).LastWriteTime = ...`, `$f.IsReadOnly = $false` (ADR 0077)
_FILE_PROPERTY = re.compile(
    r"[.](lastwritetime|lastaccesstime|creationtime)(utc)?|[.](isreadonly|attributes)", re.I
)


def assignment_target(words: list[Tok]) -> str | None:
    """The text left of ``=`` when ``words`` assign to a ``$`` target, else None."""
    raw = words[0][1]
    if words[0][0] != "word" or not raw.startswith("$"):
        return None
    if len(words) > 1 and words[1][1] in _OPERATORS:
        return raw
    if "=" in raw:
        return raw[: raw.index("=")].rstrip("+-*/%.?")
    return None


def target_reason(target: str) -> str:
    """Why assigning to ``target`` (`$f.Attributes`) may act outside the script, or ""."""
    body = target[1:].strip("{}")
    scope, colon, rest = body.partition(":")
    if colon and scope.lower() in _SCOPES:
        body = rest
    elif colon and scope.lower() == "env":
        name = rest.upper()
        if name.startswith("PS") or dangerous(name, "") or name.startswith("GIT_"):
            return f"$env:{rest} changes what later commands load or run"
        return ""
    elif colon:
        return f"assigning to {target} writes through the {scope} provider"
    if "." in body or "[" in body:
        return f"assigning to {target} sets a property of an object (a file's, perhaps)"
    if body.lower() == "psdefaultparametervalues":
        return "$PSDefaultParameterValues gives later cmdlets parameters the text does not show"
    return ""


def setters(words: list[Tok]) -> list[str]:
    """The file properties among ``words`` that an assignment sets (``.IsReadOnly =``,
    ``$f.Attributes+=``): each is a write to the file the object is, which the text does not
    place (the object may be any file the statement met)."""
    out: list[str] = []
    for i, (kind, raw, _) in enumerate(words):
        if kind != "word":
            continue
        text = raw.rstrip("=").rstrip("+-*/%.?") if raw.endswith("=") else raw
        assigned = raw.endswith("=") or (i + 1 < len(words) and words[i + 1][1] in _OPERATORS)
        found = _FILE_PROPERTY.search(text)
        if assigned and found and found.end() == len(text):
            out.append(found.group(0)[1:])
    return out
