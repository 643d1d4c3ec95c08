"""Term blobs of a large document: the right bytes, made without holding the interpreter lock for the whole batch."""

from __future__ import annotations

import struct
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.retrieval.embedded_rows import TERM_BATCH_PAIRS, term_blobs
from tests.support.lock_pauses import longest_pause


def _decoded(blob: bytes) -> dict[int, int]:
    pairs = struct.unpack(f"<{len(blob) // 4}I", blob)
    return dict(zip(pairs[::2], pairs[1::2], strict=True))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(1, 2**32 - 1), max_size=40),
                max_size=30))
def test_each_chunk_gets_its_own_pairs(chunks: list[dict[str, int]]) -> None:
    counts = [Counter(chunk) for chunk in chunks]
    term_ids = {token: i + 1 for i, token in enumerate(sorted({t for c in counts for t in c}))}
    blobs = term_blobs(counts, term_ids)
    assert [_decoded(blob) for blob in blobs] == [{term_ids[t]: n for t, n in c.items()} for c in counts]


def test_chunks_larger_than_a_batch_and_empty_ones_keep_their_places() -> None:
    counts = [Counter({f"t{i}": 1 for i in range(TERM_BATCH_PAIRS + 5)}), Counter(), Counter({"t1": 7})]
    term_ids = {f"t{i}": i for i in range(TERM_BATCH_PAIRS + 5)}
    blobs = term_blobs(counts, term_ids)
    assert [len(b) for b in blobs] == [8 * (TERM_BATCH_PAIRS + 5), 0, 8] and _decoded(blobs[2]) == {1: 7}


def test_other_threads_run_while_a_large_documents_blobs_are_made() -> None:
    """A 2,000-page document has millions of (term, count) pairs. Converted in one C-level pass, they held the
    interpreter lock for its whole length (107 ms measured during an ingest), and an ask waited that long.
    The longest pause a ticking thread sees must be a small part of the call, not most of it."""
    counts = [Counter({f"w{(c * 37 + i) % 50_000}": 1 + i % 3 for i in range(400)}) for c in range(3_000)]
    term_ids = {f"w{i}": i for i in range(50_000)}
    term_blobs(counts[:1], term_ids)  # numpy imported, as it is in the service, outside the measured call
    paused = longest_pause(lambda: term_blobs(counts, term_ids))
    assert paused.longest_s < paused.call_s / 4, paused.message("call")
