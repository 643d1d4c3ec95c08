"""The trace's question digest is the SHA-256 prefix of the question's UTF-8 bytes, whichever implementation runs."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.trace import TraceRecorder, question_digest


@given(question=st.text(max_size=200))
def test_the_digest_is_the_sha256_prefix_of_the_question(question: str) -> None:
    expected = hashlib.sha256(question.encode("utf-8")).hexdigest()[:16]
    assert question_digest(question) == expected
    assert TraceRecorder.start(question).question_sha256 == expected


def test_a_known_question_keeps_its_digest() -> None:
    assert question_digest("2024年日本的毛利率是多少") == hashlib.sha256("2024年日本的毛利率是多少".encode()).hexdigest()[:16]
    assert question_digest("") == "e3b0c44298fc1c14"
