"""One ``Source`` value serves an answer's ``sources`` and its parts' versioned sources."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.citation import Source, merged_sources, source_dicts
from ragspine.qa import parts


def test_an_answer_source_is_doc_and_locator_only() -> None:
    assert Source("FY2024.xlsx", "sheet=2024,cell=C3").as_dict() == {"doc": "FY2024.xlsx",
                                                                      "locator": "sheet=2024,cell=C3"}


def test_a_known_version_travels_with_the_source() -> None:
    source = Source("FY2024.xlsx", "sheet=2024,cell=C3", "sha256:" + "a" * 64)
    assert source.as_dict() == {"doc": "FY2024.xlsx", "locator": "sheet=2024,cell=C3", "version": "sha256:" + "a" * 64}
    assert source.cited() == "（来源：FY2024.xlsx · sheet=2024,cell=C3）"


def test_the_answer_parts_use_the_same_type() -> None:
    assert not hasattr(parts, "SourceRef")
    assert parts.AnswerPart.__annotations__["sources"] == "tuple[Source, ...]"


_NAME = st.text(alphabet="abcFY2024.xlsx=,", min_size=1, max_size=6)


@given(st.lists(st.tuples(_NAME, _NAME), max_size=8))
def test_each_source_once_in_order_of_first_appearance(pairs: list[tuple[str, str]]) -> None:
    expected = [{"doc": d, "locator": loc} for d, loc in dict.fromkeys(pairs)]
    assert list(source_dicts(Source(d, loc) for d, loc in pairs)) == expected
    assert list(merged_sources(expected, expected)) == expected
