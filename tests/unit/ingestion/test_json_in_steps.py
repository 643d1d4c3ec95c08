"""A JSON object decoded in steps is exactly what ``json.loads`` gives, and fails where it fails."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.json_in_steps import SteppedArrays, loads_in_steps
from tests.support.lock_pauses import longest_pause

_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30)
_objects = st.dictionaries(st.text(max_size=6), _values | st.lists(_values, max_size=6), max_size=6)


@settings(max_examples=300, deadline=None)
@given(value=_objects, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans())
def test_an_object_decodes_to_what_json_loads_gives(value: object, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert loads_in_steps(text) == json.loads(text)
    assert loads_in_steps(text.encode("utf-8")) == json.loads(text.encode("utf-8"))


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet='{}[]",: \n0123456789abtrunefl\\', max_size=40))
def test_any_text_gives_json_loads_value_or_its_error(text: str) -> None:
    try:
        expected = json.loads(text)
    except json.JSONDecodeError:
        with pytest.raises(json.JSONDecodeError):
            loads_in_steps(text)
        return
    assert loads_in_steps(text) == expected


@pytest.mark.parametrize("text", ['{"a": [1, 2], "a": [3]}', ' \n{"k":[]} ', '{}', '[1, 2]', '3', '"s"',
                                  '{"a": [{"b": [1]}], "c": null, "d": "x"}', '{"p": {"x": 1, "x": 2}, "q": {}}',
                                  '{"p": { "a" : [1] , "b":{"c":2} } }'])
def test_edge_forms_match_json_loads(text: str) -> None:
    assert loads_in_steps(text) == json.loads(text)


@pytest.mark.parametrize("text", ['{"a": [1, 2}', '{"a": [1] x', '{"a" [1]}', '{1: [1]}', '{"a": [1,]}', '',
                                  '{"p": {"a": 1,}}', '{"p": {1: 2}}', '{"p": {"a" 1}}', '{"p": {"a": 1}'])
def test_malformed_objects_raise_json_loads_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        loads_in_steps(text)


def test_other_threads_run_while_a_large_object_member_is_decoded() -> None:
    """A 2,000-page document's version text indexes its passages in one object of 100,000s of members:
    decoded in one call, it held the interpreter lock for all of them (about 130 ms seen during an ingest)."""

    passages = {f"c-{i:07d}": [i, i + 40, 1, 2, ["Heading", "Sub"], True] for i in range(300_000)}
    text = json.dumps({"format": 1, "versionId": "v", "docId": "d", "passages": passages})
    paused = longest_pause(lambda: loads_in_steps(text))
    assert paused.value["passages"] == passages
    assert paused.longest_s < paused.call_s / 4, paused.message("decode")


@settings(max_examples=300, deadline=None)
@given(value=_objects, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans(),
       slice_size=st.integers(1, 4))
def test_arrays_read_in_slices_are_what_json_loads_gives(value: dict[str, object], indent: int | None,
                                                         ascii_only: bool, slice_size: int) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    expected = json.loads(text)
    for data in (text, text.encode("utf-8")):
        stepped = SteppedArrays(data)
        assert all(name in stepped for name in expected)
        assert {name: stepped.length(name) for name in expected} == {
            name: len(v) if isinstance(v, list) else 0 for name, v in expected.items()}
        read = {name: ([item for start in range(0, stepped.length(name), slice_size)
                        for item in stepped.items(name, start, start + slice_size)]
                       if isinstance(expected[name], list) else stepped.value(name)) for name in expected}
        assert read == expected


@pytest.mark.parametrize("text", ['{"a": [1, 2}', '{"a": [1] x', '{"a" [1]}', '{1: [1]}', '{"a": [1,]}', '',
                                  '{"a": [1], }', '{"a": [1]} [2]', '{"a": [1, {"b": }]}'])
def test_malformed_text_raises_json_loads_error_when_read_in_slices(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(json.JSONDecodeError):
        SteppedArrays(text)


@pytest.mark.parametrize("text", ["[1, 2]", "3", '"s"', "null"])
def test_json_that_is_not_an_object_is_refused_when_read_in_slices(text: str) -> None:
    with pytest.raises(ValueError, match="not an object"):
        SteppedArrays(text)


def test_a_repeated_array_member_reads_as_its_last_value() -> None:
    stepped = SteppedArrays('{"a": [1, 2], "b": null, "a": [3], "b": [4, 5]}')
    assert (stepped.items("a", 0, 9), stepped.length("b"), stepped.items("b", 1, 2)) == ([3], 2, [5])
