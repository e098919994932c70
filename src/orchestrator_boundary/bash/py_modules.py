"""Standard-library modules run with ``python -m`` that write the files their arguments name
(ADR 0070): zipfile and tarfile (``-c``, ``-e``), gzip, zipapp, pydoc ``-w``, cProfile, profile
and pickletools ``-o``, ensurepip. The command stays ``opaque`` (a file in the working folder
may shadow the module, and cProfile runs a script), but the writes are named, so that the
default ``bash.opaque = "allow"`` no longer lets them through.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque
from orchestrator_boundary.bash.paths import basename
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE


def _operands(rest: list[Word]) -> list[Word]:
    return [a for a in rest if a.value is None or not a.value.startswith("-")]


def _after(rest: list[Word], names: tuple[str, ...]) -> list[Word]:
    """The words after the first of ``names`` (``-o OUT``, ``-oOUT``, ``--outfile=OUT``)."""
    for i, arg in enumerate(rest):
        value = arg.value or ""
        for name in names:
            if value == name:
                return rest[i + 1 :]
            if value.startswith(name) and (name.startswith("--") and value[len(name)] == "="):
                return [Word(arg.text, value[len(name) + 1 :]), *rest[i + 1 :]]
            if not name.startswith("--") and value.startswith(name) and len(value) > 2:
                return [Word(arg.text, value[2:]), *rest[i + 1 :]]
    return []


def _archive(rest: list[Word]) -> list[Word | None]:
    """zipfile / tarfile: `-c ARCHIVE SOURCES` writes ARCHIVE, `-e ARCHIVE [DIR]` writes DIR."""
    create = _after(rest, ("-c", "--create"))
    if create:
        return [create[0]]
    extract = _after(rest, ("-e", "--extract"))
    if extract:
        return [extract[1] if len(extract) > 1 else lit(".")]
    return []


def _gzip(rest: list[Word]) -> list[Word | None]:
    decompress = any((a.value or "") in ("-d", "--decompress") for a in rest)
    out: list[Word | None] = []
    for arg in _operands(rest):
        if arg.value is None:
            out.append(None)
        elif decompress:
            out.append(lit(arg.value[:-3]) if arg.value.endswith(".gz") else None)
        else:
            out.append(lit(arg.value + ".gz"))
    return out


def _zipapp(rest: list[Word]) -> list[Word | None]:
    if any((a.value or "") == "--info" for a in rest):
        return []
    named = _after(rest, ("-o", "--output"))
    if named:
        return [named[0]]
    sources = _operands(rest)
    if sources and sources[0].value is not None:
        return [lit(sources[0].value.rstrip("/") + ".pyz")]
    return [None] if sources else []


def _pydoc(rest: list[Word]) -> list[Word | None]:
    if not any((a.value or "") == "-w" for a in rest):
        return []
    names = [a for a in rest if a.value != "-w"]
    return [
        lit(basename(a.value).removesuffix(".py") + ".html") if a.value is not None else None
        for a in names
    ]


def _outfile(rest: list[Word]) -> list[Word | None]:
    named = _after(rest, ("-o", "--outfile", "--output"))
    return [named[0]] if named else []


_WRITERS = {
    "zipfile": _archive,
    "tarfile": _archive,
    "gzip": _gzip,
    "zipapp": _zipapp,
    "pydoc": _pydoc,
    "cProfile": _outfile,
    "profile": _outfile,
    "pickletools": _outfile,
}


def writing_module(prog: str, module: str | None, rest: list[Word], env: Env) -> Outcome | None:
    """``python -m MODULE REST`` for a module that writes what its arguments name; None for
    any other module."""
    if module == "ensurepip":
        return opaque(prog, "ensurepip installs pip", [Fx(W, "", None, "ensurepip: site-packages")])
    found = _WRITERS.get(module or "")
    if found is None:
        return None
    targets = found(rest)
    if not targets:
        return None
    fx = [env.fx(W, t, f"python -m {module} output") for t in targets]
    return opaque(prog, f"python -m {module}: runs a module that writes", fx)
