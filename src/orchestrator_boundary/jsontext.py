"""``json.dumps`` for the flat objects the deny path builds on every call, at less cost.

``json.dumps`` builds a new C encoder (and a cycle-detection table) on every call; the deny
path's objects are flat mappings of strings, booleans and None, so one encoder is built once and
used without the table. The text is the same as ``json.dumps(fields)`` (a property test
compares them); without the C encoder (another Python implementation) it is ``json.dumps``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json import encoder as _encoder

_C_ENCODER = getattr(_encoder, "c_make_encoder", None)
# the arguments json.JSONEncoder().iterencode passes, minus the cycle table (flat values only)
_ENCODE = (
    _C_ENCODER(
        None,
        json.JSONEncoder().default,
        _encoder.encode_basestring_ascii,
        None,
        ": ",
        ", ",
        False,
        False,
        True,
    )
    if _C_ENCODER is not None
    else None
)


# The JSON text of one string, as json.dumps writes it (its own C function when there is one).
# The deny path writes its fixed-key objects with it, keys spelled out: ~1/3 fewer instructions
# than flat_object, which also encodes each key and builds a list of items per call (the tests
# compare both forms with json.dumps).
string: Callable[[str], str] = _encoder.encode_basestring_ascii


def flat_object(fields: Mapping[str, object]) -> str:
    """``json.dumps(fields)`` for a mapping whose values hold no containers."""
    if _ENCODE is None or type(fields) is not dict:
        return json.dumps(fields)
    return "".join(_ENCODE(fields, 0))
