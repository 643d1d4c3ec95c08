"""A ZIP64 package whose offsets point past any file is a damaged file, not a parser crash.

A ZIP64 end record (or a member's ZIP64 extra field) may give an offset up to 2**64-1; zipfile seeks
there and ``BytesIO.seek`` raises ``OverflowError`` past 2**63-1. The package check refuses it as
``INGEST_CORRUPT_FILE``, before and inside ``parse_document``; a well-formed ZIP64 package is read.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

import docx
import pytest

from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.parsers.guard import ParseLimits, check_package
from ragspine.ingestion.parsers.registry import parse_document

MEMBER = "word/document.xml"


def _as_zip64(*, directory_offset: int | None = None, member_offset: int | None = None) -> bytes:
    """A real .docx rebuilt with ZIP64 records; an offset given replaces the true one."""
    made = docx.Document()
    made.add_paragraph("Returns are accepted within 30 days.")
    saved = io.BytesIO()
    made.save(saved)
    source = zipfile.ZipFile(saved)
    body, directory = bytearray(), bytearray()
    for info in source.infolist():
        data = source.read(info)
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = packer.compress(data) + packer.flush()
        name, crc, offset = info.filename.encode(), zlib.crc32(data), len(body)
        local_extra = struct.pack("<HHQQ", 1, 16, len(data), len(packed))
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name),
                            len(local_extra)) + name + local_extra + packed
        if member_offset is not None and info.filename == MEMBER:
            offset = member_offset
        extra = struct.pack("<HHQQQ", 1, 24, len(data), len(packed), offset)
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                                 len(name), len(extra), 0, 0, 0, 0, 0xFFFFFFFF) + name + extra
    start, count = len(body), len(source.infolist())
    end64 = start + len(directory)
    body += directory
    body += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, len(directory),
                        start if directory_offset is None else directory_offset)
    body += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
    body += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return bytes(body)


def test_a_well_formed_zip64_package_is_read() -> None:
    parsed = parse_document(_as_zip64(), doc_id="d", filename="z.docx", max_bytes=50 * 2**20)
    assert "within 30 days" in " ".join(block.text for block in parsed.blocks)


@pytest.mark.parametrize("data", [
    pytest.param(_as_zip64(directory_offset=2**64 - 1), id="directory-at-2**64-1"),
    pytest.param(_as_zip64(directory_offset=2**63), id="directory-at-2**63"),
    pytest.param(_as_zip64(member_offset=2**64 - 1), id="member-at-2**64-1"),
    pytest.param(_as_zip64(member_offset=2**63), id="member-at-2**63"),
])
def test_an_offset_past_any_file_is_a_damaged_file(data: bytes) -> None:
    with pytest.raises(CorruptDocumentError, match="damaged"):
        check_package(data, filename="z.docx", label="DOCX", limits=ParseLimits())
    with pytest.raises(CorruptDocumentError):
        parse_document(data, doc_id="d", filename="z.docx", max_bytes=50 * 2**20)
