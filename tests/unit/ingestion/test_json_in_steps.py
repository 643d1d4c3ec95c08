"""A JSON object decoded in steps is exactly what ``json.loads`` gives, and fails where it fails."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.json_in_steps import loads_in_steps

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
                                  '{"a": [{"b": [1]}], "c": null, "d": "x"}'])
def test_edge_forms_match_json_loads(text: str) -> None:
    assert loads_in_steps(text) == json.loads(text)


@pytest.mark.parametrize("text", ['{"a": [1, 2}', '{"a": [1] x', '{"a" [1]}', '{1: [1]}', '{"a": [1,]}', ''])
def test_malformed_objects_raise_json_loads_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        loads_in_steps(text)
