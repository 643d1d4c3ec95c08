"""Each version's normalised text and where every child chunk sits in it (for citation reads).

Ingestion stores, per version, the document text the chunker rendered and, for every child
chunk, its start and end offsets (Unicode code points), page range and heading trail. A
passage is ``exact`` when its chunk text is precisely ``text[start:end]``: the Gateway then
reads a citation back by offsets (``EXACT_OFFSET``); otherwise only approximately.

``VersionTextStore`` is the port: ``LocalVersionTextStore`` under the data folder here,
``aws.s3_version_text.S3VersionTextStore`` (``texts/<version>/`` in the staging bucket) on AWS.
Each version is two objects: ``text.txt`` (UTF-8) and ``passages.json``; a version ingested
for facts also keeps ``document.json``, its parsed blocks and tables, so its facts can be
extracted again after the extractor or the glossary changes, without the original file.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ragspine.ingestion.chunking import ChunkedDocument

TEXT_NAME = "text.txt"
PASSAGES_NAME = "passages.json"
DOCUMENT_NAME = "document.json"  # the parsed document (blocks, tables with their cells): facts re-extract from it
FORMAT = 1
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$")  # a version id as a path or key segment
_PAGE = re.compile(r"(?:^|,)page=(\d+)(?:-(\d+))?(?:,|$)")


@dataclass(frozen=True, slots=True)
class Passage:
    """Where one child chunk sits in its version's text."""

    start: int
    end: int
    page_start: int | None
    page_end: int | None
    heading_path: tuple[str, ...]
    exact: bool


@dataclass(frozen=True, slots=True)
class VersionText:
    """A version's normalised text and its passages by chunk id."""

    version_id: str
    doc_id: str
    text: str
    passages: Mapping[str, Passage]


def page_range(locator: str) -> tuple[int | None, int | None]:
    """The pages a locator names (``page=3,para=2`` → 3, 3; ``page=3-4`` → 3, 4), else (None, None)."""
    match = _PAGE.search(locator)
    if match is None:
        return None, None
    first = int(match.group(1))
    return first, int(match.group(2) or first)


def version_text(doc_id: str, version_id: str, chunked: ChunkedDocument) -> VersionText:
    """The text record of one chunked version (children only: they are what search cites)."""
    passages: dict[str, Passage] = {}
    for chunk, (start, end) in zip(chunked.children, chunked.spans, strict=True):
        first, last = page_range(chunk.source_locator)
        passages[chunk.chunk_id] = Passage(start, end, first, last, chunk.heading_path,
                                           chunked.text[start:end] == chunk.text)
    return VersionText(version_id, doc_id, chunked.text, passages)


def safe_version_id(version_id: str) -> bool:
    """Whether a version id can name a folder or key prefix (no separators, no dot segments)."""
    return bool(_SAFE_ID.match(version_id)) and ".." not in version_id


def encode(record: VersionText) -> tuple[bytes, bytes]:
    """The two stored objects: the text and the passages."""
    passages = {cid: [p.start, p.end, p.page_start, p.page_end, list(p.heading_path), p.exact]
                for cid, p in record.passages.items()}
    index = {"format": FORMAT, "versionId": record.version_id, "docId": record.doc_id, "passages": passages}
    return (record.text.encode("utf-8", "surrogatepass"),
            json.dumps(index, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def decode(text: bytes, passages: bytes) -> VersionText:
    """A record from its two stored objects."""
    index: dict[str, Any] = json.loads(passages.decode("utf-8", "surrogatepass"))
    found = {cid: Passage(int(v[0]), int(v[1]), v[2], v[3], tuple(v[4]), bool(v[5]))
             for cid, v in index["passages"].items()}
    return VersionText(index["versionId"], index["docId"], text.decode("utf-8", "surrogatepass"), found)


class VersionTextStore(Protocol):
    """Where versions' texts live."""

    def put(self, record: VersionText) -> None:
        """Store (or replace) a version's text and passages."""
        ...

    def get(self, version_id: str) -> VersionText | None:
        """The version's record, or None when none is stored."""
        ...

    def delete(self, version_id: str) -> None:
        """Remove the version's record and parsed document (idempotent)."""
        ...

    def put_document(self, version_id: str, data: bytes) -> None:
        """Store (or replace) the version's parsed document (``ingestion.staged.dump_document``)."""
        ...

    def get_document(self, version_id: str) -> bytes | None:
        """The version's parsed document, or None when none is stored."""
        ...


class LocalVersionTextStore:
    """``<data>/texts/<version>/text.txt`` and ``passages.json``."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def _folder(self, version_id: str) -> Path | None:
        return self._root / version_id if safe_version_id(version_id) else None

    def put(self, record: VersionText) -> None:
        """Write both files atomically (temporary files renamed into place), the passages last."""
        folder = self._folder(record.version_id)
        if folder is None:
            raise ValueError(f"version id {record.version_id!r} cannot name a folder")
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in zip((TEXT_NAME, PASSAGES_NAME), encode(record), strict=True):
            partial = folder / f".{name}.{secrets.token_hex(4)}"
            partial.write_bytes(data)
            partial.replace(folder / name)

    def put_document(self, version_id: str, data: bytes) -> None:
        """Write the parsed document atomically beside the text."""
        folder = self._folder(version_id)
        if folder is None:
            raise ValueError(f"version id {version_id!r} cannot name a folder")
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{DOCUMENT_NAME}.{secrets.token_hex(4)}"
        partial.write_bytes(data)
        partial.replace(folder / DOCUMENT_NAME)

    def get_document(self, version_id: str) -> bytes | None:
        """The stored parsed document, or None."""
        folder = self._folder(version_id)
        try:
            return (folder / DOCUMENT_NAME).read_bytes() if folder is not None else None
        except FileNotFoundError:
            return None

    def get(self, version_id: str) -> VersionText | None:
        """The stored record, or None."""
        folder = self._folder(version_id)
        if folder is None or not (folder / PASSAGES_NAME).is_file():
            return None
        try:
            return decode((folder / TEXT_NAME).read_bytes(), (folder / PASSAGES_NAME).read_bytes())
        except FileNotFoundError:  # deleted between the check and the read
            return None

    def delete(self, version_id: str) -> None:
        """Remove the version's folder."""
        folder = self._folder(version_id)
        if folder is None or not folder.is_dir():
            return
        for path in folder.iterdir():
            path.unlink(missing_ok=True)
        folder.rmdir()
