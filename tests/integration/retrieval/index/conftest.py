"""Fixtures for the embedded index tests: a fresh index file and the indexed ACME corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from tests.unit.retrieval.index.acme_corpus import acme_chunked


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    """Where the test's index file lives."""
    return tmp_path / "data" / "chunks.db"


@pytest.fixture
def index(index_path: Path) -> EmbeddedChunkIndex:
    """An empty index."""
    return EmbeddedChunkIndex(index_path)


@pytest.fixture
def acme_index(index: EmbeddedChunkIndex) -> EmbeddedChunkIndex:
    """The narrative ACME documents (children and parents), indexed without vectors."""
    for chunked in acme_chunked():
        index.add(chunked.all())
    return index
