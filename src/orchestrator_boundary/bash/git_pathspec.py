"""The files a git pathspec names (ADR 0074): not always the file its text spells.

- A pathspec with a glob character matches across folders (``*`` and ``?`` match ``/``):
  ``git checkout -- '*.json'`` restores ``.claude/settings.json``. It is a guess (a target
  the text does not fix), read with every glob as "anything".
- Magic: ``:/REST`` and ``:(top)REST`` start at the repository's top, wherever the command
  runs; ``:!X``, ``:^X`` and ``:(exclude)X`` take X away from what the others name, and
  alone name the whole repository; ``:(icase)`` ignores case; ``:(literal)`` takes the text
  as it is; ``:(glob)`` reads ``*`` within one folder and ``**`` across (still a guess).
- A word without either is the path it spells, as ``Env.fx`` reads it; unless the text sets
  ``GIT_ICASE_PATHSPECS`` (or passes ``--icase-pathspecs``): then every pathspec is read as
  ``:(icase)`` (ADR 0082).

Each of these was restored or deleted for real by git 2.39 in a throwaway repository
(tests/test_git_pathspecs.py).
"""

from __future__ import annotations

import re

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx
from orchestrator_boundary.bash.words import Word

_SHORT = re.compile(r":([/!^]*):?")  # `:/`, `:!`, `:^`, `:/!`, with an optional closing `:`
_LONG = re.compile(r":\(([^)]*)\)")
_GLOB = re.compile(r"\*+|\?|\[[^\]]*\]?")
_ANYWHERE = "$_/"  # a folder the text does not fix: any folder (protect_guess reads `$_` so)


def pathspecs(env: Env, kind: EffectKind, words: list[Word], source: str) -> list[Fx]:
    """The effects of ``git SUB -- WORDS``: each word as the files git takes it to name. An
    exclusion only takes files away, but exclusions alone name the whole repository from its
    top (git 2.39 restored .claude/settings.json for ``cd src && git checkout -- ':!a.py'``)."""
    found = [f for w in words for f in _pathspec(env, kind, w, source)]
    if words and not found:  # exclusions only
        return [Fx(kind, _ANYWHERE, None, f"{source} (pathspec {words[0].text[:80]})")]
    return found


def _pathspec(env: Env, kind: EffectKind, word: Word, source: str) -> list[Fx]:
    value = word.literal
    if value is None or not (value.startswith(":") or _GLOB.search(value) or env.icase):
        return env.fx_many(kind, [word], source)
    magic, rest = _magic(value)
    if env.icase:  # GIT_ICASE_PATHSPECS, --icase-pathspecs: every pathspec (ADR 0082)
        magic.add("icase")
    if "exclude" in magic:  # takes files away from what the others name
        return []
    text = rest if "literal" in magic else _GLOB.sub("**", rest)
    if "icase" in magic:  # any case: each letter may be any letter
        text = re.sub(r"[A-Za-z]", "?", text)
    if "top" in magic:
        text = _ANYWHERE + text
    if text == rest and text and not text.startswith(":"):  # nothing unfixed after all
        return env.fx_many(kind, [Word(text, text)], source)
    return [Fx(kind, text or _ANYWHERE, None, f"{source} (pathspec {value[:80]})")]


def _magic(value: str) -> tuple[set[str], str]:
    """The magic words of a pathspec and the text they apply to."""
    if not value.startswith(":"):
        return set(), value
    long = _LONG.match(value)
    if long is not None:
        words = {w.strip().split(":")[0] for w in long.group(1).split(",")}
        return words, value[long.end() :]
    short = _SHORT.match(value)
    assert short is not None  # `:` followed by zero or more of the symbols always matches
    signs = short.group(1)
    words = ({"top"} if "/" in signs else set()) | (
        {"exclude"} if "!" in signs or "^" in signs else set()
    )
    return words, value[short.end() :]
