from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from orchestrator_boundary.jsontext import flat_object

VALUES = st.one_of(st.text(), st.booleans(), st.none(), st.integers(), st.floats())


@given(st.dictionaries(st.text(), VALUES, max_size=8))
def test_flat_object_is_json_dumps(fields: dict[str, object]) -> None:
    assert flat_object(fields) == json.dumps(fields)


def test_surrogates_and_controls_are_escaped_like_json_dumps() -> None:
    fields = {"a": '\ud800 \x00 \u2028 "q" \\ é 🙂', "b\n": None, "c": False}
    assert flat_object(fields) == json.dumps(fields)
    assert json.loads(flat_object(fields)) == fields
