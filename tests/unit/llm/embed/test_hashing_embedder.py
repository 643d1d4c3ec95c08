"""The hashing embedder: deterministic, unit-length, similar for shared tokens."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from ragspine.errors import ConfigurationError
from ragspine.llm.ports import Embedder
from tests.fakes.hashing_embedder import HashingEmbedder, hashing_tokens


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class TestHashingEmbedder:
    def test_vectors_have_the_dimension_and_unit_length(self) -> None:
        embedder: Embedder = HashingEmbedder(32)
        vectors = embedder.embed(["cold start", "冷启动时间", "コールドスタート"])
        assert [len(v) for v in vectors] == [32, 32, 32]
        assert all(math.isclose(math.sqrt(_cosine(v, v)), 1.0) for v in vectors)

    def test_shared_tokens_score_higher_than_none(self) -> None:
        a, b, c = HashingEmbedder(256).embed(["如何降低冷启动时间", "冷启动时间太长", "今天晚饭吃饺子"])
        assert _cosine(a, b) > _cosine(a, c)

    def test_the_same_text_gives_the_same_vector_in_another_process(self) -> None:
        # GIVEN a vector computed here
        here = HashingEmbedder(16).embed(["Lambda 冷启动"])[0]
        # WHEN a fresh interpreter (another hash seed) computes it
        code = "from tests.fakes.hashing_embedder import HashingEmbedder; print(HashingEmbedder(16).embed(['Lambda 冷启动'])[0])"
        there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        # THEN both agree
        assert there.strip() == str(here)

    def test_a_text_without_tokens_gives_a_zero_vector(self) -> None:
        assert HashingEmbedder(8).embed(["  !? "]) == [[0.0] * 8]

    def test_tokens_are_latin_words_and_cjk_unigrams_and_bigrams(self) -> None:
        assert hashing_tokens("AWS 冷启动") == ["aws", "冷", "启", "动", "冷启", "启动"]

    def test_a_dimension_below_two_is_refused(self) -> None:
        with pytest.raises(ConfigurationError):
            HashingEmbedder(1)
