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
