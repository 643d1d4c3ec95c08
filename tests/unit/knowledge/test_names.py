"""The name rule in code and the contract's pattern agree, and the pattern stays linear to match."""

from __future__ import annotations

import re
import time

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.knowledge.contract import load_contract
from ragspine.names import (
    BLANKS,
    DEFAULT_IGNORABLE,
    FILE_NAME_PATTERN,
    FORBIDDEN,
    FORMAT,
    MARKS,
    NAME_PATTERN,
    PRIVATE_USE,
    name_problem,
)

# JSON Schema patterns follow ECMA-262, where "$" matches only at the very end; Python's "$" also
# matches before a final line break, so the end is spelled \Z here.
_PATTERN = re.compile(NAME_PATTERN.removesuffix("$") + r"\Z")
_SPECIAL = st.sampled_from(["\x00", "\t", "\n", "\x7f", "\x85", "\u2028", "\u200b", "\u200d", "\u200f", "\u202e",
                            "\u2066", "\ufeff", "\u3164", "\u3000", " ", "a", "政", "é", "👩", "\U000e0001",
                            "\U000e0041", "\U000e007f", "\U000e0080", "\U000e0100", "\U000e0fff", "\U0001d173",
                            "\U0001bca3", "\U00010000", "\ufff9", "\ufffb", "\U00013430", "\U0001343f", "\u0600",
                            "\u0661", "\ue000", "\U000f0000", "\U0010fffd", "\U000110bd"])
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
        assert prop["pattern"] == NAME_PATTERN
        assert "bidirectional" in prop["description"] and "tag characters" in prop["description"]
    assert schemas["FileResourceCreateRequest"]["properties"]["fileName"]["pattern"] == FILE_NAME_PATTERN
    assert schemas["DocumentMetadataInput"]["properties"]["tags"]["items"]["pattern"] == NAME_PATTERN


def test_matching_a_long_hostile_value_stays_linear() -> None:
    hostile = "a" * 200_000 + "\x00"
    started = time.perf_counter()
    assert _PATTERN.search(hostile) is None
    assert re.search(FILE_NAME_PATTERN, hostile + ".md") is None
    assert time.perf_counter() - started < 5  # quadratic would be minutes; this is a guard, not a speed target


def test_the_default_ignorable_table_is_unicodes_whole_property() -> None:
    # The regex module carries Unicode's property tables; a code point it calls default-ignorable and the
    # table misses would let a name of only that character through.
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    listed = {c for first, last in DEFAULT_IGNORABLE for c in range(first, last + 1)}
    derived = {c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and ignorable.match(chr(c))}
    assert listed == derived


@pytest.mark.parametrize("name", ["\U000e0041\U000e0042", "\U000e0001", "\U000e0020\U000e007f", "\U000e0100",
                                  "\U000e01ef", "\U000e0fff", "\U0001d173\U0001d17a", "\U0001bca0", " \U0001bca3"])
def test_a_name_of_only_supplementary_invisible_characters_is_refused(name: str) -> None:
    assert name_problem(name) is not None
    assert _PATTERN.search(name) is None


_TAGGED = st.builds(lambda visible, hidden: visible + "".join(chr(0xE0000 + ord(c)) for c in hidden),
                    st.text(alphabet="ACEGINOPRTabcdeft 政", min_size=1, max_size=8),
                    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=8))


@given(name=_TAGGED)
def test_visible_text_followed_by_hidden_tag_characters_is_refused(name: str) -> None:
    # "Report" + tags spelling IGNORE shows as "Report" but carries a hidden instruction.
    problem = name_problem(name)
    assert problem is not None and "tag characters" in problem
    assert _PATTERN.search(name) is None and re.search(FILE_NAME_PATTERN, name + ".md") is None


@pytest.mark.parametrize("name", ["葛\U000e0100城", "a\U0001d173b", "x\U000e0080"])
def test_other_default_ignorable_characters_stay_allowed_inside_a_visible_name(name: str) -> None:
    # Ideographic variation sequences put a selector from U+E0100–U+E01EF after a CJK character.
    assert name_problem(name) is None
    assert _PATTERN.search(name) is not None


def _points(ranges: tuple[tuple[int, int], ...]) -> set[int]:
    return {c for first, last in ranges for c in range(first, last + 1)}


def _category(name: str) -> set[int]:
    found = regex.compile(rf"\p{{gc={name}}}")
    return {c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and found.match(chr(c))}


def test_the_format_and_private_use_tables_are_unicodes_whole_categories() -> None:
    # A format character missing from FORMAT would let a name of only that character through.
    assert _points(FORMAT) == _category("Cf")
    assert _points(PRIVATE_USE) == _category("Co")
    assert _category("Zs") <= _points(BLANKS)


def test_the_marks_table_is_unicodes_whole_nonspacing_and_enclosing_mark_categories() -> None:
    # A combining mark missing from MARKS would let a name of only that mark through.
    assert _points(MARKS) == _category("Mn") | _category("Me")


@pytest.mark.parametrize("name", ["\u0301\u0301", "\u20dd", "\u0e31", "\u0902\u0901", "\u05b4 \u0591",
                                  "\U0001e8d0", "\u200b\u0301"])
def test_a_name_of_only_combining_marks_is_refused(name: str) -> None:
    # They draw on the character before them: alone they show nothing a reader can tell apart.
    problem = name_problem(name)
    assert problem is not None and "combining marks" in problem
    assert _PATTERN.search(name) is None and re.search(FILE_NAME_PATTERN, name + ".md") is None


@pytest.mark.parametrize("name", ["e\u0301te\u0301", "\u0301a", "हिंदी", "שָׁלוֹם", "ไทย"])
def test_combining_marks_inside_a_visible_name_stay_allowed(name: str) -> None:
    assert name_problem(name) is None
    assert _PATTERN.search(name) is not None


_NO_SHOW = sorted((_points(FORMAT) | _points(PRIVATE_USE) | _points(BLANKS) | _points(DEFAULT_IGNORABLE)
                   | _points(MARKS)) - _points(FORBIDDEN))
_NO_SHOW_TEXT = st.lists(st.one_of(st.sampled_from(_NO_SHOW).map(chr),
                                   st.characters(categories=["Cf", "Co", "Zs"],
                                                 exclude_characters="".join(map(chr, _points(FORBIDDEN))))),
                         min_size=1, max_size=10).map("".join)


@given(name=_NO_SHOW_TEXT)
def test_a_name_of_only_spaces_format_private_use_or_ignorable_characters_is_refused(name: str) -> None:
    # U+FFF9–U+FFFB and U+13430–U+1343F are format characters but not default-ignorable: they counted as visible
    problem = name_problem(name)
    assert problem is not None and "visible character" in problem, repr(name)
    assert _PATTERN.search(name) is None and re.search(FILE_NAME_PATTERN, name + ".md") is None


_NOT_SHOWN_ALONE = _points(DEFAULT_IGNORABLE) | _points(MARKS)
_SHOWN = st.characters(categories=["L", "Mc", "N", "P", "S"]).filter(
    lambda ch: ord(ch) not in _NOT_SHOWN_ALONE and ch != "\u2800")


@given(before=_NO_SHOW_TEXT, shown=_SHOWN, after=_NO_SHOW_TEXT)
def test_one_visible_character_among_them_makes_a_name(before: str, shown: str, after: str) -> None:
    name = before + shown + after
    assert name_problem(name) is None, repr(name)
    assert _PATTERN.search(name) is not None


@pytest.mark.parametrize("name", ["\ufff9", "\ufffa\ufffb", "".join(chr(c) for c in range(0x13430, 0x13440)), "\u0600",
                                  "\ue000", "\U000f0000 \U0010fffd", "\u2062\ufff9 \u3000"])
def test_a_name_of_only_invisible_format_or_private_use_characters_is_refused(name: str) -> None:
    assert name_problem(name) is not None
    assert _PATTERN.search(name) is None


@pytest.mark.parametrize("name", ["\u0600\u0661", "\U0001F469\u200d\U0001F4BB team", "\ue000 Logo", "\u0645\u0631\u062d"])
def test_visible_names_with_format_or_private_use_characters_stay_accepted(name: str) -> None:
    assert name_problem(name) is None
    assert _PATTERN.search(name) is not None
