"""A Gateway version says when its dense leg is complete: ``densePending`` passages still without a vector,
``denseComplete`` once hybrid search covers all of them (null without a dense leg or before READY).

Embedded backend, through the Gateway's own detail route; the embedder is the deterministic hashing
one, held back on this document's passages so the pending state can be seen before it is released.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from ragspine import bootstrap
from ragspine.settings import Settings
from tests.fakes.hashing_embedder import HashingEmbedder
from tests.integration.ingestion.pipeline.test_dense_progress import FIELD_GUIDE
from tests.integration.ingestion.pipeline.test_dense_progress import HeldEmbedder as HeldAfterFirstBatch
from tests.integration.knowledge.api.test_leaks import upload
from tests.support.knowledge_api import Gateway
from tests.support.process_caches import close_services

NOTES = b"# Zebra notes\n\nZebras have stripes.\n\nThey live in herds on the savanna.\n"


class HeldEmbedder(HashingEmbedder):
    """Embeds passages about zebras only once ``release`` is set (other texts at once)."""

    def __init__(self) -> None:
        super().__init__(32)
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if any("zebra" in text.lower() for text in texts):
            assert self.release.wait(timeout=60), "the test never released the embedder"
        return super().embed(texts)


@pytest.fixture
def held(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldEmbedder]:
    """The services with the held embedder as the document embedder (vectors in the background)."""
    embedder = HeldEmbedder()
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (HashingEmbedder(32), embedder))
    close_services()
    yield embedder
    embedder.release.set()


def _active(gateway: Gateway, document_id: str) -> dict[str, object]:
    version = gateway.document(document_id)["activeVersion"]
    assert isinstance(version, dict)
    return version


def test_a_version_is_searchable_first_then_says_its_dense_leg_is_complete(
        held: HeldEmbedder, gateway: Gateway) -> None:
    document_id = upload(gateway, NOTES, "zebras.md")  # READY and searchable (BM25) before any vector
    version = _active(gateway, document_id)
    assert version["status"] == "READY"
    assert isinstance(version["densePending"], int) and version["densePending"] > 0
    assert version["denseComplete"] is False
    held.release.set()
    deadline = time.monotonic() + 30
    while _active(gateway, document_id)["denseComplete"] is not True:
        assert time.monotonic() < deadline, _active(gateway, document_id)
        time.sleep(0.05)
    assert _active(gateway, document_id)["densePending"] == 0


@pytest.fixture
def held_after_first_batch(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldAfterFirstBatch]:
    """The document embedder embeds the first passage and the first batch, then waits for ``release``."""
    embedder = HeldAfterFirstBatch(free=2)
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (HashingEmbedder(32), embedder))
    close_services()
    yield embedder
    embedder.release.set()


def _dense_progress(gateway: Gateway, operation_id: str, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 60  # a bound on a hang, not a speed check
    while not ((dense := gateway.operation(operation_id)["denseProgress"]) is not None and until(dense)):
        assert time.monotonic() < deadline, dense
        time.sleep(0.05)
    return dense  # type: ignore[no-any-return]


def test_the_operation_detail_shows_the_dense_rate_and_time_left_until_complete(
        held_after_first_batch: HeldAfterFirstBatch, gateway: Gateway) -> None:
    document_id = upload(gateway, FIELD_GUIDE.encode(), "field-guide.md")
    operation_id = str(_active(gateway, document_id)["operationId"])
    # WHILE the embedder waits after its first batch: done of total, a positive rate and a time left
    dense = _dense_progress(gateway, operation_id, lambda _: True)
    assert 0 < dense["done"] < dense["total"]
    assert dense["passagesPerSecond"] > 0 and dense["secondsLeft"] >= 0
    assert _active(gateway, document_id)["densePending"] == dense["total"] - dense["done"]
    # ONCE every passage has its vector: all done, no rate, no time left
    held_after_first_batch.release.set()
    dense = _dense_progress(gateway, operation_id, lambda d: d["done"] == d["total"])
    assert (dense["passagesPerSecond"], dense["secondsLeft"]) == (None, None)
    assert _active(gateway, document_id)["denseComplete"] is True


def test_without_a_dense_leg_the_fields_are_null(gateway: Gateway) -> None:
    version = _active(gateway, upload(gateway, NOTES, "zebras.md"))
    assert version["status"] == "READY"
    assert (version["densePending"], version["denseComplete"]) == (None, None)
    assert gateway.operation(str(version["operationId"]))["denseProgress"] is None
