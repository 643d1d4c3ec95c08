"""The name rule in code and the contract's pattern agree, and the pattern stays linear to match."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.knowledge.contract import load_contract
from ragspine.knowledge.names import FILE_NAME_PATTERN, NAME_PATTERN, name_problem

# JSON Schema patterns follow ECMA-262, where "$" matches only at the very end; Python's "$" also
# matches before a final line break, so the end is spelled \Z here.
_PATTERN = re.compile(NAME_PATTERN.removesuffix("$") + r"\Z")
_SPECIAL = st.sampled_from(["\x00", "\t", "\n", "\x7f", "\x85", "\u2028", "\u200b", "\u200d", "\u200f", "\u202e",
                            "\u2066", "\ufeff", "\u3164", "\u3000", " ", "a", "政", "é", "👩"])
_TEXT = st.lists(st.one_of(_SPECIAL, st.characters(exclude_categories=["Cs"])), max_size=12).map("".join)


@settings(max_examples=400)
@given(text=_TEXT)
def test_the_contract_pattern_and_the_code_rule_agree(text: str) -> None:
    assert (_PATTERN.search(text) is not None) == (name_problem(text) is None), repr(text)


def test_the_contract_states_the_rule_on_every_name_field() -> None:
    schemas = load_contract()["components"]["schemas"]
    for schema, field in (("SpaceCreateRequest", "name"), ("SpaceUpdateRequest", "name"),
                          ("DocumentUploadRequest", "documentName"), ("DocumentUpdateRequest", "documentName")):
        prop = schemas[schema]["properties"][field]
        assert prop["pattern"] == NAME_PATTERN and "bidirectional" in prop["description"]
    assert schemas["FileResourceCreateRequest"]["properties"]["fileName"]["pattern"] == FILE_NAME_PATTERN
    assert schemas["DocumentMetadataInput"]["properties"]["tags"]["items"]["pattern"] == NAME_PATTERN


def test_matching_a_long_hostile_value_stays_linear() -> None:
    hostile = "a" * 200_000 + "\x00"
    started = time.perf_counter()
    assert _PATTERN.search(hostile) is None
    assert re.search(FILE_NAME_PATTERN, hostile + ".md") is None
    assert time.perf_counter() - started < 5  # quadratic would be minutes; this is a guard, not a speed target
