"""``json.dumps`` for the flat objects the deny path builds on every call, at less cost.

The general encoder walks any object with Python-level machinery; a flat mapping of strings,
booleans and None needs only the C string encoder ``json.dumps`` itself uses. The text is the
same as ``json.dumps(fields)`` (a property test compares them); anything else falls back to it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from json.encoder import encode_basestring_ascii as _string

_CONSTANTS = {True: "true", False: "false", None: "null"}


def flat_object(fields: Mapping[str, object]) -> str:
    parts = []
    for key, value in fields.items():
        if isinstance(value, str):
            text = _string(value)
        elif value is None or isinstance(value, bool):
            text = _CONSTANTS[value]
        else:
            return json.dumps(fields)
        parts.append(_string(key) + ": " + text)
    return "{" + ", ".join(parts) + "}"
