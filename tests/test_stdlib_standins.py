"""What the hook path uses in place of standard modules it no longer imports (ADR 0042) gives
the same answers as those modules: the audit timestamp (``datetime``), the digests
(``hashlib``), the end of a ``match`` (``typing.assert_never``)."""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from orchestrator_boundary import audit, digests
from orchestrator_boundary.errors import assert_never

EDGES = [0.0, 1.0, 0.5e-6, 1.5e-6, 2.5e-6, 0.9999995, 0.99999949, 1763958000.9999996]


@given(st.floats(min_value=0, max_value=4_102_444_800, allow_nan=False))
def test_the_audit_timestamp_is_datetime_s(ts: float) -> None:
    assert audit.iso(ts) == datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")


@pytest.mark.parametrize("ts", EDGES)
def test_the_audit_timestamp_rounds_as_datetime_does(ts: float) -> None:
    assert audit.iso(ts) == datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")
    assert math.isfinite(ts)


@given(st.binary(max_size=4096))
def test_the_digests_are_hashlib_s(data: bytes) -> None:
    assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    ours = digests.blake2b(data, digest_size=16).hexdigest()
    assert ours == hashlib.blake2b(data, digest_size=16).hexdigest()


def test_assert_never_raises_with_the_value() -> None:
    with pytest.raises(AssertionError, match="'surprise'"):
        assert_never("surprise")  # type: ignore[arg-type]
