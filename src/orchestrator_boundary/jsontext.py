"""The JSON text of one string, as ``json.dumps`` writes it, for the deny path's fixed-key
objects (the reason line and the suggested Agent call). ADR 20.

Kept on measurement: on Python 3.11 ``json.dumps`` of a small dict costs ~24,000 instructions
(it builds a new encoder and a cycle table per call) against ~8,000 for the same text written
out with this function; a denied Write writes two such objects, ~20 % of its decision. The
property tests in tests/test_jsontext.py compare each written-out object with ``json.dumps``.
"""

from __future__ import annotations

from collections.abc import Callable
from json import encoder

string: Callable[[str], str] = encoder.encode_basestring_ascii
