"""The fetch step reads a source with a scheme through the reader registered for it, a path from disk."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.errors import DocumentTooLargeError, SourceNotFoundError
from ragspine.ingestion.operations import Operation, OperationKey
from ragspine.ingestion.sources import read_path, scheme_of
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.steps import StepContext, fetch
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary


class Bucket:
    """A source reader over objects held in memory, keyed by URI; records what it was asked."""

    def __init__(self, objects: dict[str, tuple[bytes, dict[str, str]]]) -> None:
        self.objects, self.asked = objects, []

    def __call__(self, uri: str, *, max_bytes: int) -> tuple[bytes, dict[str, str]]:
        self.asked.append((uri, max_bytes))
        if uri not in self.objects:
            raise SourceNotFoundError(f"{uri}: no such object")
        return self.objects[uri]


@pytest.fixture
def context(tmp_path: Path) -> Iterator[StepContext]:
    store = SqliteOperationStore(tmp_path / "operations.db")
    yield StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(), index=None,
                      embedder=None, glossary=default_glossary(), max_bytes=1000)
    store.close()


def _operation(context: StepContext, source: str) -> Operation:
    draft = Operation(id="op-1", doc_id="report.md", version_id="v1", file_hash="", source=source)
    return context.operations.create_or_get(OperationKey("report.md", "v1"), draft)[0]


def test_a_source_with_a_scheme_is_read_by_its_reader_and_its_metadata_applies(context: StepContext) -> None:
    # GIVEN an s3:// operation and a reader registered for s3 holding the object with its metadata
    bucket = Bucket({"s3://docs/uploads/report.md": (b"# Revenue\n", {"sensitivity": "PUBLIC", "library": "ir"})})
    context = replace(context, sources={"s3": bucket})
    operation = _operation(context, "s3://docs/uploads/report.md")
    # WHEN the fetch step runs
    fetch(operation, context)
    # THEN the reader was asked within the size limit, the bytes are staged and the metadata applied
    assert bucket.asked == [("s3://docs/uploads/report.md", 1000)]
    assert context.staging.get(operation.id, "source") == b"# Revenue\n"
    stored = context.operations.get(operation.id)
    assert stored is not None
    assert (stored.sensitivity.name, stored.library) == ("PUBLIC", "ir")
    assert stored.file_hash == "sha256:" + hashlib.sha256(b"# Revenue\n").hexdigest()


def test_a_scheme_nobody_reads_here_is_a_permanent_error_naming_it(context: StepContext) -> None:
    operation = _operation(context, "s3://docs/uploads/report.md")
    with pytest.raises(SourceNotFoundError, match=r"reads no 's3://' sources"):
        fetch(operation, context)


def test_a_local_path_is_read_from_disk_within_the_limit(context: StepContext, tmp_path: Path) -> None:
    small, large = tmp_path / "small.md", tmp_path / "large.md"
    small.write_bytes(b"x" * 10)
    large.write_bytes(b"x" * 2000)
    assert read_path(str(small), max_bytes=1000) == b"x" * 10
    with pytest.raises(DocumentTooLargeError, match="2,000 bytes"):
        read_path(str(large), max_bytes=1000)
    with pytest.raises(SourceNotFoundError):
        read_path(str(tmp_path), max_bytes=1000)  # a folder is not a document


@given(st.sampled_from(["s3", "S3", "gs", "https"]), st.text(st.characters(codec="ascii", categories=["L", "N"]),
                                                              min_size=1, max_size=20))
def test_a_uri_names_its_scheme_in_lower_case(scheme: str, rest: str) -> None:
    assert scheme_of(f"{scheme}://{rest}") == scheme.lower()


@pytest.mark.parametrize("path", ["reports/q3.pdf", "/data/q3.pdf", r"C:\data\q3.pdf", "C://data/q3.pdf", "q3.pdf"])
def test_a_path_has_no_scheme(path: str) -> None:
    assert scheme_of(path) is None
