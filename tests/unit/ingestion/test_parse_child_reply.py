"""The parse child's answer is data only: a child that a malicious document took over can make its own parse fail,
never run code in the service or hand it anything but checked values."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.ingestion.errors import ParserReplyInvalidError
from ragspine.ingestion.operations import FactRead
from ragspine.ingestion.parsers import child_reply
from ragspine.ingestion.parsers.child_reply import InvalidReply, Reply, receive
from ragspine.ingestion.parsers.guard import ParseLimits
from ragspine.ingestion.parsers.isolated import parse_in_child
from ragspine.ingestion.prepare import PreparedDocument
from ragspine.retrieval.version_text import Passage, VersionText
from tests.support.parse_children import RunsOnUnpickling, hostile_parse_child

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "ragspine" / "samples" / "acme"
MAX = 20 * 1024 * 1024


def _header(body: object) -> bytes:
    return json.dumps(body).encode("ascii")


STARTED = _header({"kind": "started"})
PREPARED = {"extract_warnings": [], "facts": 0, "facts_read": 0, "facts_sample": [], "children": 0,
            "text": False, "index_terms": False}


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "the-exploit-ran"
    yield path


def _parse_with_hostile_child(frames: list[bytes], raw: bytes = b"") -> ParserReplyInvalidError:
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    with hostile_parse_child(frames, raw=raw), pytest.raises(ParserReplyInvalidError) as refused:
        parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits())
    return refused.value


@pytest.mark.parametrize("after_started", [False, True], ids=["first", "after-started"])
def test_a_reply_made_to_run_code_when_unpickled_fails_the_parse_and_runs_nothing(
        marker: Path, after_started: bool) -> None:
    exploit = pickle.dumps(("parsed", RunsOnUnpickling(str(marker))))
    refused = _parse_with_hostile_child([STARTED, exploit] if after_started else [exploit])
    assert not marker.exists()  # nothing of the reply ran
    assert refused.code == "INGEST_PARSER_REPLY_INVALID" and not refused.retryable
    assert refused.message.startswith("mda.docx: the process parsing it answered with something that is not a "
                                      "parse result (its header is not ASCII JSON")
    # The next document gets a real child and parses.
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    assert parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits()).pages == 1


@pytest.mark.parametrize(("frames", "why"), [
    ([_header({"kind": "shell", "cmd": "id"})], "names no known kind"),
    ([_header(["started"])], "names no known kind"),
    ([STARTED, _header({"kind": "parsed", "pages": "1", "prepared": None}), b"{}"], "'pages' is not a whole"),
    ([STARTED, _header({"kind": "parsed", "pages": True, "prepared": None}), b"{}"], "'pages' is not a whole"),
    ([STARTED, _header({"kind": "parsed", "pages": 1, "prepared": None, "extra": 1}), b"{}"], "has the fields"),
    ([STARTED, _header({"kind": "refused", "error": ["CorruptDocumentError"], "message": "x"})], "'error' is not"),
    ([STARTED, _header({"kind": "parsed", "pages": 1, "prepared": {**PREPARED, "facts_sample": [["m", "e", "p",
                                                                                                 "1", "u", "l"]]}}),
      b"{}", b"{}", b"{}"], "'facts_sample' has a value of the wrong type"),
    ([STARTED, _header({"kind": "parsed", "pages": 1, "prepared": {**PREPARED, "text": True}}),
      b"{}", b"{}", b"{}", b"text", _header({"format": 1, "versionId": "v", "docId": "d",
                                              "passages": {"c": [0, 4, None, None, "heading", True]}})],
     "a passage of its version text has a value of the wrong type"),
    ([STARTED, _header({"kind": "parsed", "pages": 1, "prepared": {**PREPARED, "text": True}}),
      b"{}", b"{}", b"{}", b"text", _header({"format": 1, "versionId": "another-version", "docId": "d",
                                              "passages": {}})],
     "its version text names another document or version"),
    ([STARTED, b"\xff\xfe{"], "its header is not ASCII JSON"),
])
def test_a_reply_that_is_not_a_parse_childs_message_fails_the_parse(frames: list[bytes], why: str) -> None:
    refused = _hostile_prepared_parse(frames)
    assert refused.code == "INGEST_PARSER_REPLY_INVALID" and why in refused.message


def _hostile_prepared_parse(frames: list[bytes]) -> ParserReplyInvalidError:
    """A parse asked to go on past parsing (so a version text is expected), answered by a hostile child."""
    from ragspine.ingestion.operations import Operation
    from ragspine.ingestion.prepare import PrepareRequest
    from tests.support.glossary import default_glossary

    operation = Operation(id="op", doc_id="d", version_id="v", file_hash="", source="mda.docx")
    request = PrepareRequest(operation, default_glossary(), index_terms=False)
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    with hostile_parse_child(frames), pytest.raises(ParserReplyInvalidError) as refused:
        parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits(), prepare=request)
    return refused.value


def test_a_part_longer_than_the_child_could_hold_is_refused_unread() -> None:
    limits = ParseLimits(max_memory_bytes=64 * 1024 * 1024)
    header = _header({"kind": "parsed", "pages": 1, "prepared": None})
    declared = struct.pack("!i", 2**31 - 1)  # a length the service would otherwise allocate
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    with hostile_parse_child([STARTED, header], raw=declared), pytest.raises(ParserReplyInvalidError) as refused:
        parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=limits)
    assert "its document is longer than 134,217,728 bytes" in refused.value.message


def test_an_answer_begun_and_never_finished_kills_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.ingestion.parsers import isolated

    monkeypatch.setattr(isolated, "_REPLY_S", 0.5)
    header = _header({"kind": "parsed", "pages": 1, "prepared": None})
    refused = _parse_with_hostile_child([STARTED, header])  # the document's frame never comes
    assert "did not finish it within 0.5 s" in refused.message
    with isolated.process_lock:
        left = [c for c in multiprocessing.active_children() if c.name.startswith("ragspine-parse")
                and c.is_alive() and c.exitcode is None and c.pid and _is_hostile(c.pid)]
    assert not left


def _is_hostile(pid: int) -> bool:
    try:
        return "_answer_with" in Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return False


def test_a_prepared_document_crosses_as_the_same_values() -> None:
    prepared = PreparedDocument(
        extraction=b'{"doc_id":"d"}', extract_warnings=("a lone \udfff surrogate", "ü"), facts=2, facts_read=3,
        facts_sample=(_fact(1320), _fact(36.5)), chunks=b'{"children":[]}', children=4,
        text=VersionText("v", "d", "text \udfff ü", {"c1": Passage(0, 4, 1, 2, ("A", "B"), True),
                                                       "c2": Passage(5, 9, None, None, (), False)}),
        index_terms=b'{"ids":[]}')
    ours, theirs = multiprocessing.Pipe(duplex=True)
    child_reply.send_frames(theirs, child_reply.parsed_frames(b'{"blocks":[]}', 7, prepared))
    got = receive(ours, max_frame_bytes=1 << 20)
    assert got == Reply("parsed", document=b'{"blocks":[]}', pages=7, prepared=prepared)
    assert type(got.prepared.facts_sample[0].value) is int  # type: ignore[union-attr]  # numbers keep their form


def _fact(value: float) -> FactRead:
    return FactRead("REVENUE", "ACME", "FY2024", value, "USD_M", "page=1,table=1,row=2,col=3")


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                   max_size=4), max_leaves=20)
_kinds = st.sampled_from(["started", "preparing", "retired", "memory", "refused", "parsed", "other"])
_headers = st.one_of(
    st.binary(max_size=64),
    _json.map(lambda v: json.dumps(v).encode("ascii")),
    st.builds(lambda kind, rest: json.dumps({**rest, "kind": kind}).encode("ascii"), _kinds,
              st.dictionaries(st.sampled_from(["pages", "prepared", "error", "message", "x"]), _json, max_size=3)),
    st.builds(lambda shape: json.dumps({"kind": "parsed", "pages": 1, "prepared": shape}).encode("ascii"),
              st.fixed_dictionaries({k: _json for k in PREPARED})),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(header=_headers, parts=st.lists(st.binary(max_size=32), min_size=6, max_size=6))
def test_any_reply_is_a_checked_message_or_refused(header: bytes, parts: list[bytes]) -> None:
    ours, theirs = multiprocessing.Pipe(duplex=True)
    try:
        for frame in (header, *parts):
            theirs.send_bytes(frame)
        try:
            reply = receive(ours, max_frame_bytes=1 << 20)
        except InvalidReply:
            return
        assert reply.kind in {"started", "preparing", "retired", "memory", "refused", "parsed"}
        assert isinstance(reply.pages, int) and isinstance(reply.document, bytes)
        if reply.prepared is not None:
            assert all(isinstance(w, str) for w in reply.prepared.extract_warnings)
            assert all(isinstance(f.value, int | float) for f in reply.prepared.facts_sample)
    finally:
        ours.close()
        theirs.close()
