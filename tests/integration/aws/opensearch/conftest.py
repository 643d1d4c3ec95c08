"""osmem-server fixtures: one in-memory OpenSearch-compatible server per module, an index per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("opensearchpy", reason="opensearch-py is needed for the OpenSearch adapter tests")
pytest.importorskip("osmem_server", reason="osmem-server (PyPI) is the in-memory OpenSearch these tests run against")

from osmem_server import OsmemServer  # noqa: E402

from ragspine.aws.opensearch_index import OpenSearchChunkIndex  # noqa: E402
from tests.integration.aws.opensearch.corpus import CORPUS, DIMENSION, VECTORS  # noqa: E402

MakeIndex = Callable[..., OpenSearchChunkIndex]


@pytest.fixture(scope="module")
def osmem() -> Iterator[OsmemServer]:
    """An osmem-server process on a free loopback port, for the tests of one module."""
    server = OsmemServer.start(addr="127.0.0.1:0")
    yield server
    server.close()


@pytest.fixture
def make_index(osmem: OsmemServer, random_id: Callable[[str], str]) -> MakeIndex:
    """Build adapters on fresh index names over HTTP (no signing); the server drops them at module end."""

    def make(**options: Any) -> OpenSearchChunkIndex:
        options = {"auth": "none", "dimension": DIMENSION, **options}
        if options.get("service", "es") == "es":
            options.setdefault("refresh", "wait_for")
        return OpenSearchChunkIndex(osmem.url, random_id("chunks"), **options)

    return make


@pytest.fixture(params=["es", "aoss"])
def empty_index(request: pytest.FixtureRequest, make_index: MakeIndex) -> OpenSearchChunkIndex:
    """An existing, empty index in each id mode: caller-chosen ``_id`` (es) or server-assigned (aoss)."""
    index = make_index(service=request.param)
    index.ensure_index()
    return index


@pytest.fixture
def loaded_index(make_index: MakeIndex) -> OpenSearchChunkIndex:
    """An index holding the five-chunk corpus with its vectors."""
    index = make_index()
    index.ensure_index()
    index.add(CORPUS, VECTORS)
    return index
