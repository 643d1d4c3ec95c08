"""The line ``ragspine ingest`` prints every few seconds while dense vectors are computed: rate and time left."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.cli_ingest import dense_progress_line


def test_rate_and_time_left_are_said() -> None:
    assert dense_progress_line(120, 300, 30.0) == \
        "dense vectors: 120 embedded, 300 to go (4.0 passages/s, about 1 min 15 s left)"
    assert dense_progress_line(40, 20, 10.0) == "dense vectors: 40 embedded, 20 to go (4.0 passages/s, about 5 s left)"


def test_no_rate_before_the_first_batch() -> None:
    assert dense_progress_line(0, 300, 0.0) == "dense vectors: 0 embedded, 300 to go"


@given(st.integers(1, 10**6), st.integers(0, 10**6), st.floats(0.01, 10**5))
def test_time_left_is_pending_over_rate(embedded: int, pending: int, seconds: float) -> None:
    line = dense_progress_line(embedded, pending, seconds)
    left = line.rsplit("about ", 1)[1].removesuffix(" left)")
    minutes, _, rest = left.partition(" min ") if " min " in left else ("0", "", left)
    total = int(minutes) * 60 + int(rest.removesuffix(" s"))
    assert total == round(pending / (embedded / seconds))
