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


def _package_with_member(name: str, method: int, paragraphs: int) -> bytes:
    """A package with a folder entry and a part ``name`` (a name ending in "/" holds data all the same)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", b"<Types/>")
        archive.mkdir("word")
        archive.writestr(zipfile.ZipInfo(name), HEAD + BODY * paragraphs + TAIL, compress_type=method)
    return buffer.getvalue()


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_a_part_named_like_a_folder_is_checked_for_its_method_too(method: int) -> None:
    data = _package_with_member("word/document.xml/", method, 3)
    assert zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml/").startswith(HEAD)  # its data is readable
    _, refused = _peak_while_refused(data, CorruptDocumentError)
    assert "word/document.xml/" in str(refused)


def test_a_part_named_like_a_folder_counts_against_the_inflate_limits() -> None:
    data = _package_with_member("word/document.xml/", zipfile.ZIP_DEFLATED, 40 * MiB // len(BODY))
    peak, refused = _peak_while_refused(data, ArchiveExpansionError)
    assert peak < 8 * MiB and "word/document.xml/" in str(refused)


def test_a_real_folder_entry_passes() -> None:
    check_package(_package_with_member("word/document.xml", zipfile.ZIP_DEFLATED, 3), filename="x.docx",
                  label="DOCX", limits=ParseLimits())


def _with_bytes_at(data: bytes, member: str, offset: int, replacement: bytes) -> bytes:
    """``data`` with ``replacement`` written ``offset`` bytes into ``member``'s compressed data."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(member)
    local_header = data[info.header_offset:info.header_offset + 30]
    start = (info.header_offset + 30 + int.from_bytes(local_header[26:28], "little")
             + int.from_bytes(local_header[28:30], "little") + offset)
    return data[:start] + replacement + data[start + len(replacement):]


def _method_lie(data: bytes) -> bytes:
    """``data`` whose central directory says its last member is deflated while that member's bytes are bzip2."""
    entry = data.rindex(b"PK\x01\x02")  # the last member's central directory entry; its method is at +10
    assert data[entry + 10:entry + 12] == zipfile.ZIP_BZIP2.to_bytes(2, "little")
    return data[:entry + 10] + zipfile.ZIP_DEFLATED.to_bytes(2, "little") + data[entry + 12:]


@pytest.mark.parametrize("damage", ["overwritten", "method-lie"])
def test_a_part_that_does_not_inflate_is_a_corrupt_file_naming_it(damage: str) -> None:
    if damage == "overwritten":
        data = _with_bytes_at(_package(zipfile.ZIP_DEFLATED, 500), "word/document.xml", 20, b"\xff" * 8)
    else:
        data = _method_lie(_package(zipfile.ZIP_BZIP2, 500))
    _, refused = _peak_while_refused(data, CorruptDocumentError)
    assert "word/document.xml" in str(refused) and "damaged" in str(refused)
