"""Strict request JSON: the depth limit is exact, surrogates and non-numbers are refused with the field named."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.json_input import MAX_DEPTH, MalformedJsonError, loads


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_nesting_up_to_the_limit_is_accepted_and_one_more_is_refused() -> None:
    assert loads(_nested(MAX_DEPTH)) is not None
    with pytest.raises(MalformedJsonError, match="deeper than 32"):
        loads(_nested(MAX_DEPTH + 1))
    with pytest.raises(MalformedJsonError, match="deeper than 32"):
        loads(_nested(100_000))  # past the interpreter's recursion limit: still the caller's error


@pytest.mark.parametrize(("text", "field"), [('{"a": {"b": ["x", "\\udfff"]}}', "a.b[1]"),
                                             ('{"a": "\\ud800\\u0041"}', "a"), ('["\\udc00"]', "[0]")])
def test_a_lone_surrogate_is_refused_where_it_is(text: str, field: str) -> None:
    with pytest.raises(MalformedJsonError) as refused:
        loads(text)
    assert refused.value.field == field


def test_a_surrogate_pair_is_text_and_accepted() -> None:
    assert loads('{"emoji": "\\ud83d\\ude00"}') == {"emoji": "😀"}


@pytest.mark.parametrize("text", ["NaN", '{"a": Infinity}', "[-Infinity]", "9" * 4301, b"\xff\xfe{", "{"])
def test_what_is_not_json_is_refused(text: str | bytes) -> None:
    with pytest.raises(MalformedJsonError):
        loads(text)


@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                          max_leaves=20))
def test_any_json_of_ordinary_text_round_trips(value: object) -> None:
    text = json.dumps(value)
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in json.dumps(value, ensure_ascii=False)):
        with pytest.raises(MalformedJsonError):
            loads(text)
    else:
        assert loads(text) == value


def test_an_error_message_quoting_long_input_stays_within_the_contract() -> None:
    from ragspine.api.envelope import MAX_FIELD_ERRORS, MAX_MESSAGE_CHARS, error_body
    from ragspine.errors import FieldError

    body = error_body(code="KNOWLEDGE_INVALID_INPUT", message="x" * 5000, retryable=False, request_id="r",
                      trace_id="t", field_errors=tuple(FieldError(f"f{i}", "bad") for i in range(300)))
    error = body["meta"]["error"]
    assert len(error["message"]) == MAX_MESSAGE_CHARS and error["message"].endswith("…")
    assert len(error["fieldErrors"]) == MAX_FIELD_ERRORS


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(st.characters(codec="utf-8")),
                            lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(st.characters(codec="utf-8")), inner, max_size=3),
                            max_leaves=10)
_WIDE_ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]


@given(value=_JSON_VALUES, encoding=st.sampled_from(_WIDE_ENCODINGS), ascii_only=st.booleans())
def test_a_body_in_utf16_or_utf32_is_refused_as_not_utf8(value: object, encoding: str, ascii_only: bool) -> None:
    # json.loads on bytes would detect these encodings itself and parse them
    raw = json.dumps(value, ensure_ascii=ascii_only).encode(encoding)
    with pytest.raises(MalformedJsonError, match="not UTF-8 text") as refused:
        loads(raw)
    assert refused.value.field == "body"


@given(value=_JSON_VALUES)
def test_the_same_body_in_utf8_is_accepted_with_or_without_a_byte_order_mark(value: object) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert loads(text.encode("utf-8")) == value
    assert loads(b"\xef\xbb\xbf" + text.encode("utf-8")) == value
    assert loads("\ufeff" + text) == value


@pytest.mark.parametrize("raw", [b'"\xed\xa0\x80"', b'{"a": "\xc0\xaf"}', b'["\xff"]', b"\xef\xbb\xbf\xef\xbb\xbf[]"])
def test_bytes_that_are_not_utf8_are_refused(raw: bytes) -> None:
    # an encoded surrogate, an overlong form, a stray byte; a second byte order mark is a stray U+FEFF, not JSON
    with pytest.raises(MalformedJsonError):
        loads(raw)


@pytest.mark.parametrize("element", [b"0", b"{}", b'""', b'{"k":[1]}'], ids=["zeros", "objects", "strings", "nested"])
def test_checking_a_wide_body_costs_about_what_parsing_it_costs(element: bytes) -> None:
    """The checks walk with one iterator per open container: a wide array is not queued element by element."""
    body = b'{"src":"R=1","a":[' + b",".join([element] * 50_000) + b"]}"
    tracemalloc.start()
    try:
        json.loads(body)
        _, plain_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        loads(body)
        _, strict_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert strict_peak < 2 * plain_peak + 2 * len(body), (strict_peak, plain_peak, len(body))
