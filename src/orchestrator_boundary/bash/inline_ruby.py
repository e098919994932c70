"""Ruby inline code (`ruby -e`): what the call scan does not name is not read-only (ADR 0062).

The scan of ``inline_scripts`` finds the writers and runners it knows (`File.write`,
`system`, ...). Ruby reaches the rest by other names (observed: `IO.copy_stream("f", "x")`,
`$stdout.reopen("x")`, `Pathname("x").write`, `CSV.open("x", "w")`, `Logger.new("x")`,
`File.send(:write, ...)`, `Kernel.public_send("sys" + "tem", ...)` wrote or ran, rated
read-only). So, as for Python, the code is read-only only when every constant it uses is on
an allow-list (with, for `File`, `Dir`, `IO`, the standard streams and `JSON`, the methods
that only read), and no method that calls by name, reopens a stream or redefines a method
appears anywhere; anything else is ``opaque``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.inline_data import (
    RUBY_CALLS,
    RUBY_LOADS,
    RUBY_MOVES,
    RUBY_OPAQUE,
    RUBY_OPEN,
)
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.scan import Tok

# method names that reach another method, constant or stream by a computed name, reopen or
# copy into a file, load code, or redefine what a known name does
_DANGEROUS = names(
    """send public_send __send__ method public_method instance_method singleton_method
    const_get const_set const_source_location class_variable_set instance_variable_set
    define_method define_singleton_method instance_exec module_eval module_exec class_exec
    reopen sysopen syswrite copy_stream for_fd mkfifo lchmod lchown binding autoload alias
    alias_method undef undef_method remove_method prepend include extend refine using class
    module set_trace_func ObjectSpace TracePoint chdir"""
)
_OUT = names("puts print write printf putc flush sync fileno tty? isatty")
_IN = names("read gets readline readlines each_line each lines getc each_char eof eof? binmode")
# constants (and globals) the code may use: None = any method; else the methods allowed
_CONSTANTS: dict[str, frozenset[str] | None] = {
    "File": names(
        """read readlines exist? exists? file? directory? basename dirname extname join
        expand_path absolute_path absolute_path? realpath size size? zero? empty? mtime
        atime ctime stat lstat readable? executable? writable? symlink? ftype split fnmatch
        fnmatch? identical? foreach SEPARATOR"""
    ),
    "Dir": names("glob [] children entries exist? pwd getwd home each_child empty?"),
    "JSON": names("parse generate pretty_generate dump ParserError"),
    "ENV": None,
    "ARGV": None,
    "ARGF": _IN,
    "STDIN": _IN,
    "$stdin": _IN,
    "$<": _IN,
    "STDOUT": _OUT,
    "STDERR": _OUT,
    "$stdout": _OUT,
    "$stderr": _OUT,
    **dict.fromkeys(
        names(
            """Time Integer Float String Array Hash Math Set Regexp Comparable Rational Symbol
        Range Struct NilClass TrueClass FalseClass RUBY_VERSION RUBY_PLATFORM
        RUBY_ENGINE StandardError RuntimeError ArgumentError KeyError"""
        ),
        None,
    ),
}
_KNOWN = frozenset(RUBY_CALLS) | RUBY_MOVES | RUBY_OPAQUE | RUBY_OPEN | RUBY_LOADS


def unknown_use(toks: list[Tok]) -> str:
    """Why ``toks`` (the scan found no writer it knows) may still write or run, or ""."""
    for tok in toks:
        if tok.kind != "id":
            continue
        name = tok.text.removeprefix("CORE::").removeprefix("Kernel.").removeprefix("::")
        if name in _KNOWN:
            continue  # the scan judges these
        parts = name.split(".")
        bad = next((p for p in parts if p in _DANGEROUS), None)
        if bad is not None:
            return f"ruby {bad}: may write or run code the text does not name"
        head = parts[0]
        if not (head[:1].isupper() or head in _CONSTANTS):
            continue  # a local value or a plain method call (the scan knows the runners)
        if head not in _CONSTANTS:
            return f"ruby uses {head}: not known to be harmless"
        allowed = _CONSTANTS[head]
        if allowed is not None and len(parts) == 1:  # `f = File; f.write(...)`
            return f"ruby hands {head} on: its methods are then called by another name"
        if allowed is not None and parts[1] not in allowed:
            return f"ruby {head}.{parts[1]}: not known to be harmless"
    return ""
