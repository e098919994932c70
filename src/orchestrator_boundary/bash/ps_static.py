"""PowerShell .NET calls and cmd.exe command lines: what they write (ADR 0021)."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.readonly_data import names

W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE

# [System.IO.File]::Method(...) and [System.IO.Directory]::Method(...): (kind, path argument)
_STATIC_WRITES = {
    **dict.fromkeys(
        names(
            "file::writealltext file::writealllines file::writeallbytes file::appendalltext "
            "file::appendalllines file::create file::createtext file::appendtext file::openwrite "
            "file::writealltextasync file::writealllinesasync file::writeallbytesasync "
            "file::appendalltextasync file::appendalllinesasync directory::createdirectory"
        ),
        (W, 0),
    ),
    # a stream opened on a path creates (or empties) it: `[IO.StreamWriter]::new('x')` (0077)
    **dict.fromkeys(
        names("file::open streamwriter::new filestream::new compression.zipfile::open"), (W, 0)
    ),
    **dict.fromkeys(
        names("compression.zipfile::extracttodirectory compression.zipfile::createfromdirectory"),
        (W, 1),
    ),
    **dict.fromkeys(("file::copy", "file::replace"), (W, 1)),
    **dict.fromkeys(("file::delete", "directory::delete"), (D, 0)),
    **dict.fromkeys(("file::move", "directory::move"), (W, 1)),
    **dict.fromkeys(
        names(
            "file::setattributes file::setcreationtime file::setlastwritetime "
            "file::setlastaccesstime file::encrypt file::decrypt file::setunixfilemode"
        ),
        (C, 0),
    ),
}
_STATIC_READS = names(
    "file::readalltext file::readalllines file::readallbytes file::readlines file::exists "
    "file::openread file::opentext file::getattributes file::getlastwritetime "
    "file::getcreationtime directory::exists directory::getfiles directory::getdirectories "
    "directory::enumeratefiles directory::enumeratedirectories "
    "directory::getcurrentdirectory path::combine path::getfilename path::getextension "
    "path::getdirectoryname path::getfullpath path::gettemppath path::join "
    "path::getfilenamewithoutextension environment::getenvironmentvariable math::round "
    "math::floor math::ceiling datetime::now datetime::parse convert::tobase64string "
    "convert::frombase64string text.encoding::utf8"
)


def _arguments(text: str) -> list[str | None]:
    """Top-level comma-separated arguments of a call: literal strings, else None."""
    out: list[str | None] = []
    depth = 0
    quote = ""
    current = ""
    for ch in text + ",":
        if quote:
            quote = "" if ch == quote else quote
            current += ch
        elif ch in "'\"":
            quote = ch
            current += ch
        elif ch in "([{":
            depth += 1
            current += ch
        elif ch in ")]}":
            depth -= 1
            current += ch
        elif ch == "," and depth == 0:
            item = current.strip()
            literal = len(item) >= 2 and item[0] == item[-1] and item[0] in "'\""
            out.append(item[1:-1] if literal and "$" not in item else None)
            current = ""
        else:
            current += ch
    return out


def static_call(
    raw: str, args_text: str | None
) -> tuple[str, list[tuple[EffectKind, str | None]]] | None:
    """("writes"/"reads"/"opaque", effects) of ``[Type]::Method(args)``; None for no such call."""
    if not raw.startswith("[") or "]::" not in raw:
        return None
    type_name, _, method = raw[1:].partition("]::")
    type_name = type_name.lower().removeprefix("system.").removeprefix("io.")
    key = f"{type_name}::{method.lower()}"
    args = _arguments(args_text) if args_text is not None else []
    if key in _STATIC_WRITES:
        kind, index = _STATIC_WRITES[key]
        effects = [(kind, args[index] if len(args) > index else None)]
        if key in ("file::move", "directory::move"):
            effects.insert(0, (D, args[0] if args else None))
        return "writes", effects
    if key in _STATIC_READS:
        return "reads", []
    return "opaque", []


def cmd_redirects(text: str) -> list[str | None]:
    """The files a cmd.exe command line redirects output to (``echo x > f``, ``2>>log``)."""
    targets: list[str | None] = []
    i = 0
    quote = False
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quote = not quote
        elif ch == ">" and not quote:
            j = i + 1
            while j < len(text) and text[j] in "> ":
                j += 1
            if text[j : j + 1] == "&":  # 2>&1
                i = j + 2
                continue
            end = j
            while end < len(text) and text[end] not in " &|<>":
                end += 1
            name = text[j:end].strip('"')
            targets.append(None if not name or "%" in name else name)
            i = end
            continue
        i += 1
    return [t for t in targets if t is None or t.lower() not in ("nul", "con")]


# New-Object TYPE ARGS: the types whose constructor opens (creates, empties) the path it is given
_OPENS = frozenset(
    names("io.streamwriter io.filestream io.binarywriter io.compression.zipfile")
    | names("system.io.streamwriter system.io.filestream system.io.binarywriter")
)


def new_object(params: dict[str, str | None], pos: list[str | None]) -> list[str | None] | None:
    """The paths ``New-Object IO.StreamWriter 'x'`` (``-TypeName``, ``-ArgumentList``) opens for
    writing; [None] when the type or the path is not literal; None for other types (ADR 0077)."""
    given = params.get("-typename", pos[0] if pos else None)
    type_name = given.lower() if given is not None else None
    if type_name is not None and type_name not in _OPENS:
        return None
    rest = pos[1:] if "-typename" not in params else pos
    argument = params.get("-argumentlist", rest[0] if rest else None)
    return [_arguments(argument)[0] if argument and "," in argument else argument]
