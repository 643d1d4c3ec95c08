"""What a parse child sends back, in a data-only form the service validates before it uses any of it.

The child reads hostile documents, so the service treats it as hostile too: a child that a
malformed file took over could send anything. Its messages are therefore never unpickled (an
unpickled message can run any code in the service's process). Each message is a JSON header of
plain values, and a parsed document's encoded parts (the staged JSON the service writes as it
is) follow it as raw byte frames whose number the header fixes. The service checks every field
of the header against the type it must have, bounds every frame's length before reading it,
and builds the existing dataclasses (``PreparedDocument``, ``FactRead``, ``VersionText``) from
the checked values only. Anything else is ``InvalidReply``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.ingestion.json_in_steps import loads_in_steps
from ragspine.ingestion.operations import FactRead
from ragspine.ingestion.prepare import PreparedDocument
from ragspine.lazy import LazyModule
from ragspine.retrieval.version_text import FORMAT, Passage, VersionText

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ragspine.ingestion.operations import FactRead
    from ragspine.ingestion.prepare import PreparedDocument
    from ragspine.retrieval import version_text
    from ragspine.retrieval.version_text import VersionText
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    version_text = LazyModule("ragspine.retrieval.version_text")

# Messages that carry nothing but their kind.
STARTED, PREPARING, RETIRED, MEMORY = "started", "preparing", "retired", "memory"
REFUSED, PARSED = "refused", "parsed"
_BARE = frozenset({STARTED, PREPARING, RETIRED, MEMORY})
# A header holds counts, names, warnings and a sample of 20 facts: far below this.
HEADER_BYTES = 16 * 1024 * 1024
_FACT_FIELDS = ("metric", "entity", "period", "value", "unit", "locator")


class InvalidReply(Exception):  # noqa: N818 - what it is, as ValueError is
    """The child sent something that is not one of its messages; the text says what was wrong."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One checked message of a parse child.

    ``kind`` is one of the module's kinds; a refusal has ``error`` (the error class's name) and
    ``message``; a parsed document has ``document`` (its staged JSON), ``pages`` and ``prepared``.
    """

    kind: str
    error: str = ""
    message: str = ""
    document: bytes = b""
    pages: int = 0
    prepared: PreparedDocument | None = None


# The child's side. A message is built whole (``*_frames``) before any of it is written
# (``send_frames``), so running out of memory while building it leaves nothing half sent.

def bare_frames(kind: str) -> list[bytes]:
    """A message that is only its kind (``started``, ``preparing``, ``retired``, ``memory``)."""
    return [_header({"kind": kind})]


def refused_frames(error: str, message: str) -> list[bytes]:
    """A refusal of the file: the ingestion error's class name and its message."""
    return [_header({"kind": REFUSED, "error": error, "message": message})]


def parsed_frames(document: bytes, pages: int, prepared: PreparedDocument | None) -> list[bytes]:
    """A parsed document: a header, then the document's staged JSON, then what ``prepared`` holds encoded."""
    frames = [document]
    body: dict[str, Any] = {"kind": PARSED, "pages": pages, "prepared": None}
    if prepared is not None:
        frames += [prepared.extraction, prepared.chunks]
        if prepared.text is not None:
            frames += list(version_text.encode(prepared.text))
        if prepared.index_terms is not None:
            frames.append(prepared.index_terms)
        body["prepared"] = {
            "extract_warnings": list(prepared.extract_warnings), "facts": prepared.facts,
            "facts_read": prepared.facts_read,
            "facts_sample": [[getattr(f, name) for name in _FACT_FIELDS] for f in prepared.facts_sample],
            "children": prepared.children, "text": prepared.text is not None,
            "index_terms": prepared.index_terms is not None}
    return [_header(body), *frames]


def send_frames(connection: Connection, frames: list[bytes]) -> None:
    """Write a message's frames, in order."""
    for frame in frames:
        connection.send_bytes(frame)


def _header(body: dict[str, Any]) -> bytes:
    # ASCII escapes keep any string (a lone surrogate in a warning too) a valid JSON string.
    return json.dumps(body, separators=(",", ":")).encode("ascii")


# The service's side.

def receive(connection: Connection, *, max_frame_bytes: int) -> Reply:
    """The child's next message, checked; frames past ``max_frame_bytes`` are refused unread.

    Raises:
        InvalidReply: the message is not one a parse child sends.
        EOFError, OSError: the connection closed (the child ended) before a whole message arrived.
    """
    body = read_header(_frame(connection, HEADER_BYTES, "header"))
    kind = body["kind"]
    if kind in _BARE:
        _only(body, {"kind"})
        return Reply(kind)
    if kind == REFUSED:
        _only(body, {"kind", "error", "message"})
        return Reply(kind, error=_text(body, "error"), message=_text(body, "message"))
    _only(body, {"kind", "pages", "prepared"})
    pages = _count(body, "pages")
    document = _frame(connection, max_frame_bytes, "document")
    shape = body["prepared"]
    if shape is None:
        return Reply(kind, document=document, pages=pages)
    return Reply(kind, document=document, pages=pages, prepared=_prepared(shape, connection, max_frame_bytes))


def read_header(frame: bytes) -> dict[str, Any]:
    """A message's header: a JSON object with a known ``kind``.

    Raises:
        InvalidReply: anything else.
    """
    try:
        body = json.loads(frame.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _invalid(f"its header is not ASCII JSON ({type(exc).__name__})") from None
    if not isinstance(body, dict) or body.get("kind") not in (_BARE | {REFUSED, PARSED}):
        raise _invalid("its header names no known kind of message")
    return body


def _prepared(shape: Any, connection: Connection, max_frame_bytes: int) -> PreparedDocument:
    if not isinstance(shape, dict):
        raise _invalid("'prepared' is not an object")
    _only(shape, {"extract_warnings", "facts", "facts_read", "facts_sample", "children", "text", "index_terms"})
    warnings = _texts(shape, "extract_warnings")
    facts, facts_read, children = _count(shape, "facts"), _count(shape, "facts_read"), _count(shape, "children")
    sample = _facts_sample(shape)
    has_text, has_terms = _flag(shape, "text"), _flag(shape, "index_terms")
    extraction = _frame(connection, max_frame_bytes, "extraction")
    chunks = _frame(connection, max_frame_bytes, "chunks")
    text = None
    if has_text:
        text = _version_text(_frame(connection, max_frame_bytes, "version text"),
                             _frame(connection, max_frame_bytes, "passages"))
    terms = _frame(connection, max_frame_bytes, "index terms") if has_terms else None
    return PreparedDocument(extraction=extraction, extract_warnings=warnings, facts=facts, facts_read=facts_read,
                            facts_sample=sample, chunks=chunks, children=children, text=text, index_terms=terms)


def _facts_sample(shape: dict[str, Any]) -> tuple[FactRead, ...]:
    rows = shape["facts_sample"]
    if not isinstance(rows, list):
        raise _invalid("'facts_sample' is not a list")
    sample = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == len(_FACT_FIELDS)):
            raise _invalid(f"a row of 'facts_sample' is not a list of {len(_FACT_FIELDS)} values")
        metric, entity, period, value, unit, locator = row
        if not all(isinstance(v, str) for v in (metric, entity, period, unit, locator)) or not _number(value):
            raise _invalid("a row of 'facts_sample' has a value of the wrong type")
        sample.append(FactRead(metric, entity, period, value, unit, locator))
    return tuple(sample)


def _version_text(text: bytes, passages: bytes) -> VersionText:
    """The version's record from its two encoded parts, every passage field checked."""
    try:
        # Member by member: a large document's passage index decoded in one call held the interpreter lock.
        index = loads_in_steps(passages.decode("utf-8", "surrogatepass"))
        content = text.decode("utf-8", "surrogatepass")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _invalid("its version text is not UTF-8 JSON") from None
    if not (isinstance(index, dict) and index.get("format") == FORMAT and isinstance(index.get("versionId"), str)
            and isinstance(index.get("docId"), str) and isinstance(index.get("passages"), dict)):
        raise _invalid("its version text has no version id, document id or passages")
    found: dict[str, Passage] = {}
    for chunk_id, value in index["passages"].items():
        if not (isinstance(value, list) and len(value) == 6):
            raise _invalid("a passage of its version text is not a list of 6 values")
        start, end, first, last, headings, exact = value
        if not (_whole(start) and _whole(end) and all(p is None or _whole(p) for p in (first, last))
                and isinstance(headings, list) and all(isinstance(h, str) for h in headings)
                and isinstance(exact, bool)):
            raise _invalid("a passage of its version text has a value of the wrong type")
        found[chunk_id] = Passage(start, end, first, last, tuple(headings), exact)
    return VersionText(index["versionId"], index["docId"], content, found)


def _frame(connection: Connection, max_bytes: int, what: str) -> bytes:
    try:
        return connection.recv_bytes(max_bytes)
    except OSError as exc:
        if connection.closed or "bad message length" not in str(exc):
            raise
        raise _invalid(f"its {what} is longer than {max_bytes:,} bytes") from None


def _only(body: dict[str, Any], fields: set[str]) -> None:
    if set(body) != fields:
        raise _invalid(f"a '{body.get('kind')}' message has the fields {sorted(body)}, not {sorted(fields)}")


def _text(body: dict[str, Any], field: str) -> str:
    value = body[field]
    if not isinstance(value, str):
        raise _invalid(f"'{field}' is not a string")
    return value


def _texts(body: dict[str, Any], field: str) -> tuple[str, ...]:
    value = body[field]
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise _invalid(f"'{field}' is not a list of strings")
    return tuple(value)


def _count(body: dict[str, Any], field: str) -> int:
    value = body[field]
    if not _whole(value):
        raise _invalid(f"'{field}' is not a whole number of at least 0")
    return int(value)


def _flag(body: dict[str, Any], field: str) -> bool:
    value = body[field]
    if not isinstance(value, bool):
        raise _invalid(f"'{field}' is not true or false")
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _invalid(why: str) -> InvalidReply:
    return InvalidReply(why)
