"""A Gateway version says when its dense leg is complete: ``densePending`` passages still without a vector,
``denseComplete`` once hybrid search covers all of them (null without a dense leg or before READY).

Embedded backend, through the Gateway's own detail route; the embedder is the deterministic hashing
one, held back on this document's passages so the pending state can be seen before it is released.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

import pytest

from ragspine import bootstrap
from ragspine.settings import Settings
from tests.fakes.hashing_embedder import HashingEmbedder
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


def test_without_a_dense_leg_the_fields_are_null(gateway: Gateway) -> None:
    version = _active(gateway, upload(gateway, NOTES, "zebras.md"))
    assert version["status"] == "READY"
    assert (version["densePending"], version["denseComplete"]) == (None, None)
