"""One VersionTextStore suite on the data folder and on S3 (moto)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.retrieval.version_text import LocalVersionTextStore, Passage, VersionText, VersionTextStore

BUCKET = "ragspine-staging-test"
TEXT = "第一章\n👩\u200d👧 e\u0301 Returns within 30 days.\n"


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VersionTextStore]:
    if request.param == "local":
        yield LocalVersionTextStore(tmp_path / "texts")
        return
    aws: Any = request.getfixturevalue("aws")
    assert aws is not None
    import boto3

    from ragspine.aws.s3_version_text import S3VersionTextStore

    client = boto3.client("s3", region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield S3VersionTextStore(BUCKET, client=client)


def _record(version_id: str = "ver-1") -> VersionText:
    start = TEXT.index("Returns")
    return VersionText(version_id, "doc-1", TEXT, {"c1": Passage(start, len(TEXT) - 1, None, None, ("第一章",), True),
                                                   "c2": Passage(0, 3, 2, 3, (), False)})


def test_a_record_reads_back_whole(store: VersionTextStore) -> None:
    store.put(_record())
    found = store.get("ver-1")
    assert found == _record()
    assert found is not None and found.text[found.passages["c1"].start:found.passages["c1"].end] == \
        "Returns within 30 days."


def test_missing_unsafe_and_deleted_versions_read_as_none(store: VersionTextStore) -> None:
    assert store.get("ver-none") is None
    assert store.get("../ver-1") is None and store.get("a/b") is None
    with pytest.raises(ValueError, match="cannot name"):
        store.put(_record("../escape"))
    store.put(_record("ver-2"))
    store.delete("ver-2")
    store.delete("ver-2")  # idempotent
    assert store.get("ver-2") is None


def test_a_rewrite_replaces_the_record(store: VersionTextStore) -> None:
    store.put(_record())
    changed = VersionText("ver-1", "doc-1", "new text", {"c9": Passage(0, 3, None, None, (), True)})
    store.put(changed)
    assert store.get("ver-1") == changed


def test_the_parsed_document_is_kept_beside_the_text_and_deleted_with_it(store: VersionTextStore) -> None:
    body = '{"doc_id":"doc-1","blocks":[{"rows":[["Metric","FY2024"],["売上高","655"]]}]}'.encode()
    assert store.get_document("ver-1") is None
    store.put(_record())
    store.put_document("ver-1", body)
    assert store.get_document("ver-1") == body
    assert store.get_document("../ver-1") is None
    with pytest.raises(ValueError, match="cannot name"):
        store.put_document("a/b", body)
    store.delete("ver-1")
    assert store.get_document("ver-1") is None and store.get("ver-1") is None
