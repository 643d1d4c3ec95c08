"""``MemoEmbedder``: a question embedded by the FAQ is not embedded again by the retriever."""

from __future__ import annotations

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.memo_embedder import MemoEmbedder
from tests.fakes.llm import RecordingEmbedder


def test_a_remembered_text_is_not_embedded_again_and_gets_the_same_vector() -> None:
    inner = RecordingEmbedder()
    memo = MemoEmbedder(inner)
    first = memo.embed(["香港营收为什么下降"])
    assert memo.embed(["香港营收为什么下降", "new one"]) == [first[0], inner._vector("new one")]
    assert inner.texts == ["香港营收为什么下降", "new one"]


def test_the_oldest_text_is_forgotten_beyond_the_size() -> None:
    inner = RecordingEmbedder()
    memo = MemoEmbedder(inner, size=2)
    memo.embed(["a"])
    memo.embed(["b"])
    memo.embed(["c"])
    memo.embed(["a"])
    assert inner.texts == ["a", "b", "c", "a"]


def test_a_failure_is_raised_and_nothing_is_remembered() -> None:
    inner = RecordingEmbedder(fail=True)
    memo = MemoEmbedder(inner)
    with pytest.raises(ProviderUnavailableError):
        memo.embed(["x"])
    inner.fail = False
    assert memo.embed(["x"]) == [inner._vector("x")]
