"""Office packages are stored or deflated: any other zip compression is refused before a byte is inflated.

zipfile inflates a deflated member in bounded reads, but a bzip2 or LZMA member inflates all the
input it is given in one call: a 4 KB .docx whose bzip2 ``document.xml`` inflated to 150 MiB was held
whole before the size limit was checked. Office writes only stored or deflated members, so any
other method is a damaged or hand-made package (``INGEST_CORRUPT_FILE``), whatever its size.
"""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import pytest

from ragspine.ingestion.errors import ArchiveExpansionError, CorruptDocumentError
from ragspine.ingestion.parsers.guard import ParseLimits, check_package

HEAD = b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
BODY = b"<w:p><w:r><w:t>" + b"A" * 200 + b"</w:t></w:r></w:p>"
TAIL = b"</w:body></w:document>"
MiB = 1024 * 1024


def _package(method: int, paragraphs: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", b"<Types/>")
        archive.writestr("word/document.xml", HEAD + BODY * paragraphs + TAIL, compress_type=method)
    return buffer.getvalue()


def _peak_while_refused(data: bytes, error: type[Exception]) -> tuple[int, Exception]:
    tracemalloc.start()
    try:
        with pytest.raises(error) as refused:
            check_package(data, filename="x.docx", label="DOCX", limits=ParseLimits())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, refused.value


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_a_bzip2_or_lzma_bomb_is_refused_as_corrupt_before_it_is_inflated(method: int) -> None:
    data = _package(method, 40 * MiB // len(BODY))
    peak, refused = _peak_while_refused(data, CorruptDocumentError)
    assert peak < 2 * MiB, f"the guard held {peak:,} bytes while refusing a {len(data):,}-byte package"
    assert "word/document.xml" in str(refused) and "stored or deflated" in str(refused)


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_a_small_package_with_another_method_is_refused_too(method: int) -> None:
    _peak_while_refused(_package(method, 3), CorruptDocumentError)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED], ids=["stored", "deflated"])
def test_stored_and_deflated_packages_pass(method: int) -> None:
    check_package(_package(method, 3), filename="x.docx", label="DOCX", limits=ParseLimits())


def test_the_same_bomb_deflated_is_still_refused_within_a_few_chunks() -> None:
    peak, _ = _peak_while_refused(_package(zipfile.ZIP_DEFLATED, 40 * MiB // len(BODY)), ArchiveExpansionError)
    assert peak < 8 * MiB
