"""``CachedEmbedder``: the stored vector is the model's, per model, prefix and dimension, and survives a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.llm.vector_cache import CachedEmbedder
from tests.fakes.hashing_embedder import HashingEmbedder


def _close(got: list[list[float]], expected: list[list[float]]) -> bool:
    """Same vectors, in order, up to float32 storage."""
    return len(got) == len(expected) and all(np.allclose(g, e, atol=1e-6) for g, e in zip(got, expected, strict=True))


def test_vectors_equal_the_models_and_survive_a_new_instance(tmp_path: Path) -> None:
    model = HashingEmbedder(16)
    texts = ["営業利益は増加した", "Revenue grew 12%", "営業利益は増加した"]
    first = CachedEmbedder(model, tmp_path / "v.db").embed(texts)
    again = CachedEmbedder(model, tmp_path / "v.db")
    assert again.embed(texts) == first
    assert (again.hits, again.misses) == (3, 0)
    assert _close(first, model.embed(texts))


def test_another_model_or_dimension_does_not_share_vectors(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    CachedEmbedder(HashingEmbedder(16), path).embed(["stripes"])
    other_name = CachedEmbedder(HashingEmbedder(16, name="other"), path)
    other_size = CachedEmbedder(HashingEmbedder(32), path)
    other_name.embed(["stripes"])
    assert other_name.misses == 1
    assert len(other_size.embed(["stripes"])[0]) == 32 and other_size.misses == 1


def test_a_damaged_row_is_embedded_again(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    CachedEmbedder(HashingEmbedder(16), path).embed(["stripes"])
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE vectors SET vector = substr(vector, 1, 8)")
    cached = CachedEmbedder(HashingEmbedder(16), path)
    assert _close(cached.embed(["stripes"]), HashingEmbedder(16).embed(["stripes"]))
    assert cached.misses == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=12))
def test_any_batch_comes_back_in_order(texts: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        model = HashingEmbedder(8)
        cached = CachedEmbedder(model, Path(folder) / "v.db")
        cached.embed(texts[: len(texts) // 2])
        assert _close(cached.embed(texts), model.embed(texts))
