"""Round eleven (ADR 0077): PowerShell property setters that change a file. A FileSystemInfo's
times and attributes and FileInfo.IsReadOnly are written to the file when set, so
``(Get-Item f).LastWriteTime = ...`` and ``$f.IsReadOnly = $false`` write; they were opaque with
no effect, which ``bash.opaque = "allow"`` (the default) lets through. The object may be any
file, so the write is one the text does not place (judged like ``(gi x).Delete()``)."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import Status, analyze

SETTERS = [
    ("group-lastwritetime", "(Get-Item f).LastWriteTime = Get-Date"),
    ("variable-isreadonly", "$f = Get-Item f; $f.IsReadOnly = $false"),
    ("attributes-glued", "(gi src/a.py).Attributes='Normal'"),
    ("creationtime-utc", "(Get-Item f).CreationTimeUtc = '2020-01-01'"),
    ("lowercase-group-value", "(Get-Item f).lastaccesstime=(Get-Date)"),
    ("foreach", "Get-ChildItem | % { $_.IsReadOnly = $true }"),
    ("add-assign", "$f.Attributes += 'Hidden'"),
    ("scoped-variable", "$script:f.Attributes = 'Hidden'"),
]


@pytest.mark.parametrize("command", [s[1] for s in SETTERS], ids=[s[0] for s in SETTERS])
def test_a_file_property_set_is_an_unplaced_write(command: str) -> None:
    result = analyze(command, cwd="/p", home="/h", shell="powershell")
    assert result.status is Status.OPAQUE, result
    assert [(e.kind.value, e.resolved) for e in result.effects] == [("write", None)], result


READING = [
    ("read-property", "$x = Get-Item f; $x.LastWriteTime"),
    ("compare", "$f.Attributes -eq 'Hidden'"),
    ("select", "Get-Item f | Select-Object LastWriteTime, IsReadOnly"),
    ("other-property", "$h.Name = 1"),
    ("length", "(Get-Item f).Length"),
]


@pytest.mark.parametrize("command", [r[1] for r in READING], ids=[r[0] for r in READING])
def test_reading_a_property_writes_nothing(command: str) -> None:
    assert not analyze(command, cwd="/p", home="/h", shell="powershell").effects


STREAMS = [
    ("file-open", "[IO.File]::Open('x', 'Create')", ("/p/x",)),
    ("streamwriter-new", "[IO.StreamWriter]::new('x')", ("/p/x",)),
    ("filestream-new", "[IO.FileStream]::new('x', 'Create')", ("/p/x",)),
    ("new-object-streamwriter", "New-Object IO.StreamWriter 'x'", ("/p/x",)),
    (
        "new-object-named",
        "New-Object -TypeName System.IO.StreamWriter -ArgumentList 'x'",
        ("/p/x",),
    ),
    ("new-object-two-arguments", "New-Object IO.StreamWriter -ArgumentList 'x', $true", ("/p/x",)),
    ("new-object-grouped", "New-Object IO.FileStream('x', [IO.FileMode]::Create)", (None,)),
    ("new-object-type-variable", "New-Object $t 'x'", ("/p/x",)),
    ("zip-extract", "[IO.Compression.ZipFile]::ExtractToDirectory('a.zip', 'd')", ("/p/d",)),
    (
        "zip-create",
        "[System.IO.Compression.ZipFile]::CreateFromDirectory('d', 'x.zip')",
        ("/p/x.zip",),
    ),
    ("assigned-static", "$w = [IO.File]::CreateText('x')", ("/p/x",)),
]


@pytest.mark.parametrize(
    ("command", "named"), [s[1:] for s in STREAMS], ids=[s[0] for s in STREAMS]
)
def test_a_stream_opened_on_a_path_writes_it(command: str, named: tuple[str | None, ...]) -> None:
    """Each was opaque with no effect, which the default bash.opaque = "allow" lets through."""
    result = analyze(command, cwd="/p", home="/h", shell="powershell")
    assert tuple(e.resolved for e in result.effects) == named, result


@pytest.mark.parametrize(
    "command",
    [
        "New-Object System.Text.StringBuilder",
        "$t = [IO.File]::ReadAllText('f')",
        "$n = [Math]::Round(1.5)",
    ],
)
def test_other_objects_and_reading_calls_write_nothing(command: str) -> None:
    assert not analyze(command, cwd="/p", home="/h", shell="powershell").effects
