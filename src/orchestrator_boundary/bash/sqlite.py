"""sqlite3: a query is read-only; a statement, a dot command or a function that writes is a
write of the files it names; one that runs a shell or loads code is opaque (ADR 0021, 0049).
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    opaque,
    read_only,
    runs_code,
    writes,
)
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SQL_READS = ("select", "explain", "with")
_SQL_DOT_READS = (".tables", ".schema", ".indexes", ".headers", ".mode", ".help", ".databases")
_SQL_WRITING = re.compile(
    r"\b(insert|update|delete|replace|create|drop|alter|attach|vacuum|reindex|pragma)\b"
    # any mention of a function that writes or runs: SQL calls a quoted name too
    # (`"writefile"(..)`, `[writefile](..)`) and allows a comment before the parenthesis
    r"|\b(writefile|edit|load_extension|fts3_tokenizer)\b",
    re.IGNORECASE,
)
_SQLITE_FLAGS = _words(
    """header noheader column csv json line list box table markdown html readonly batch bail
    quote ascii tabs echo safe nofollow"""
)
_SQLITE_VALUED = frozenset({"nullvalue", "separator", "newline", "cmd"})


_SQL_WRITEFILE = re.compile(r"\bwritefile\s*\(\s*'([^']*)'", re.IGNORECASE)
_SQL_WRITEFILE_NAME = re.compile(r"\bwritefile\b", re.IGNORECASE)
# `VACUUM INTO 'f'` writes a copy of the database to f, also from a -readonly one; `ATTACH
# 'f' AS s` creates f (observed, sqlite 3.40): a literal name, else a file the text does not fix
_SQL_FILE_STATEMENT = re.compile(r"\b(?:vacuum\b[^;]*?\binto|attach(?:\s+database)?)\b", re.I)
_SQL_FILE_NAMED = re.compile(
    r"""\b(?:vacuum(?:\s+\w+)?\s+into|attach(?:\s+database)?)\s*(['"])([^'"]*)\1\s*(?:;|as\b|$)""",
    re.IGNORECASE,
)
# every dot command of sqlite3 3.40-3.47; the shell takes any prefix of a name (`.sh` is
# `.shell`, `.o` is `.output`), the first match in its own order winning, so a prefix counts
# as every command it may stand for (observed: `.sh touch y`, `.o y`, `.tr y`, `.cl y`)
_SQL_DOTS = _words(
    """archive auth backup bail binary cd changes check clone connection crnl databases
    dbconfig dbinfo dbtotxt dump echo edit eqp excel exit expert explain filectrl fullschema
    headers help import imposter indexes indices intck iotrace limit lint load log mode nonce
    nullvalue once open output parameter print progress prompt quit read recover restore save
    scanstats schema selftest separator session sha3sum shell show stats system tables
    testcase testctrl timeout timer trace unmodule vfsinfo vfslist vfsname width www"""
)
# the file a command writes is its last word (`.output FILE`, `.save FILE`, `.clone NEWDB`)
_SQL_DOT_WRITES = _words("backup clone dump iotrace log once output save trace")
# commands that run a program, load or read code, write files the text does not name, or
# change the folder later names are read from
_SQL_DOT_RUNS = _words(
    """archive cd connection dbconfig edit excel filectrl import imposter load open read
    restore session shell system testcase testctrl www"""
)


def _dot_meanings(word: str) -> frozenset[str]:
    """The dot commands ``word`` (`.sh`) may stand for; an unknown one stands for any."""
    name = word[1:].lower()
    found = frozenset(c for c in _SQL_DOTS if name and c.startswith(name))
    return found or _SQL_DOT_RUNS


_SQL_SHELLS = frozenset({"shell", "system"})


def _run_text(meanings: frozenset[str], rest: str) -> str | None:
    """The shell command line a dot command runs (`.shell CMD`, `.output |CMD`), else None."""
    if meanings & _SQL_SHELLS:  # `.sh` may also be `.show`: read as the shell, to be safe
        return rest
    text = rest.strip()
    if text[:1] in ("'", '"') and text.find(text[0], 1) > 0:  # `.import "|cmd" t`
        text = text[1 : text.find(text[0], 1)]
    return text[1:] if text.startswith("|") else None


def _sql_targets(texts: list[str]) -> tuple[list[Word], list[str | None]]:
    """Files the statements name as written (writefile('f', ..), .save f, .output f), and the
    command lines dot commands run (`.shell CMD`, `.output |CMD`; None for one that runs or
    loads what the text does not show: .load, .read, `.once -x`, an unknown command)."""
    found: list[Word] = []
    runs: list[str | None] = []
    for text in texts:
        found += [lit(name) for name in _SQL_WRITEFILE.findall(text)]
        for line in text.splitlines():
            words = line.split()
            if not words or not words[0].startswith("."):
                continue
            meanings = _dot_meanings(words[0])
            rest = line.strip()[len(words[0]) :].strip()
            named = [w.strip("'\"") for w in words[1:] if not w.startswith("-")]
            options = [w for w in words[1:] if w.startswith("-")]
            piped = rest.lstrip("'\"").startswith("|")
            if meanings & _SQL_DOT_RUNS or piped:
                runs.append(_run_text(meanings, rest))
            if meanings & _SQL_DOT_WRITES and not piped:
                if any(o.lstrip("-") in ("x", "e") for o in options):
                    runs.append(None)  # opens a viewer
                if named and named[-1] not in ("stdout", "stderr", "off"):
                    found.append(lit(named[-1]))
    return found, runs


def _sql_reads_only(texts: list[str]) -> bool:
    """Every statement of ``texts`` is a query or a dot command that only shows."""
    statements: list[str] = []
    for text in texts:
        lines = text.splitlines()
        if any(line.strip().startswith(".") for line in lines):
            dots = [line.strip() for line in lines if line.strip().startswith(".")]
            if not all(d.split()[0].lower() in _SQL_DOT_READS for d in dots):
                return False
            text = "\n".join(line for line in lines if not line.strip().startswith("."))
        statements += [s.strip() for s in text.split(";") if s.strip()]
    return all(s.lower().startswith(_SQL_READS) and not _SQL_WRITING.search(s) for s in statements)


def sqlite3(prog: str, args: list[Word], env: Env) -> Outcome:
    operands: list[Word] = []
    sql: list[str | None] = []
    flags: set[str] = set()
    i = 0
    while i < len(args):
        value = args[i].value
        name = (value or "").lstrip("-")
        if value is None or not value.startswith("-"):
            operands.append(args[i])
        elif name in _SQLITE_FLAGS:
            flags.add(name)
        elif name in ("version", "help"):
            return read_only(prog, f"sqlite3 -{name}")
        elif name in _SQLITE_VALUED:
            i += 1
            if name == "cmd":
                sql.append(args[i].value if i < len(args) else None)
        else:
            db = env.fx_many(W, operands[:1], "sqlite3 database")
            return opaque(prog, f"sqlite3 option {value} is not known", db)
        i += 1
    db = env.fx_many(W, operands[:1], "sqlite3 database")
    sql += [a.value for a in operands[1:]]
    if len(operands) < 2:
        sql.append(env.stdin)  # statements from a literal here-document, or unknown
    if any(s is None for s in sql):
        return opaque(prog, "sqlite3 reads statements it cannot see", db)
    texts = [s for s in sql if s is not None]
    if _sql_reads_only(texts):
        database = operands[0].value if operands else ":memory:"
        if database in ("", ":memory:") or "readonly" in flags or "mode=ro" in (database or ""):
            return read_only(prog, "sqlite3 queries only")
        # the database file is created (empty) when it does not exist (observed, ADR 0049)
        return opaque(prog, "sqlite3 creates the database file when it is missing")
    named, runs = _sql_targets(texts)
    fx = db + env.fx_many(W, named, "sqlite3 writes a file") + _file_statements(texts, env)
    mentions = sum(len(_SQL_WRITEFILE_NAME.findall(t)) for t in texts)
    if mentions > sum(len(_SQL_WRITEFILE.findall(t)) for t in texts):
        # `"writefile"('f', ..)`, `writefile/**/('f', ..)`: a file this reading cannot name
        fx.append(Fx(W, "", None, "sqlite3 writefile()"))
    if runs:
        code = "\n".join(c for c in runs if c is not None) if None not in runs else None
        return runs_code(prog, code, env, "sqlite3 runs a shell command or loads a file", fx)
    return writes(prog, fx or [Fx(W, "", None, "sqlite3 statement that writes")])


def _file_statements(texts: list[str], env: Env) -> list[Fx]:
    """The files `VACUUM INTO 'f'` and `ATTACH 'f' AS s` write; a write the text does not
    locate for one whose file is not a plain literal (an expression, a `file:` URI)."""
    fx: list[Fx] = []
    for text in texts:
        named = [m.group(2) for m in _SQL_FILE_NAMED.finditer(text)]
        files = [n for n in named if n not in ("", ":memory:")]  # the two that are no file
        plain = [n for n in files if not n.startswith("file:")]
        fx += env.fx_many(W, [lit(n) for n in plain], "sqlite3 VACUUM INTO / ATTACH file")
        if len(_SQL_FILE_STATEMENT.findall(text)) > len(named) or len(plain) < len(files):
            fx.append(Fx(W, "", None, "sqlite3 VACUUM INTO / ATTACH"))
    return fx
