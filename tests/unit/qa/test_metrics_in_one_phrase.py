"""Two metrics a question lists are each asked; two named in one phrase are one figure, read both ways."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()
PAIRS = st.sampled_from([("revenue", "REVENUE"), ("gross profit", "GROSS_PROFIT"), ("net profit", "NET_PROFIT")])
LISTING = st.sampled_from([" and ", " AND ", ", ", " or ", " & ", " vs ", " versus ", " as well as ", " plus ", "/"])
QUALIFYING = st.sampled_from([" ", " from ", " of ", " for the ", " in "])


@given(first=PAIRS, second=PAIRS, joiner=LISTING)
def test_metrics_joined_by_a_list_word_are_each_asked(first: tuple[str, str], second: tuple[str, str],
                                                      joiner: str) -> None:
    parsed = parse_slots(f"What were {first[0]}{joiner}{second[0]} in 2024?", glossary=GLOSSARY)
    assert parsed.one_phrase is None
    assert set(parsed.metrics) == {first[1], second[1]}


@given(first=PAIRS, second=PAIRS, joiner=QUALIFYING)
def test_metrics_in_one_phrase_are_read_both_ways(first: tuple[str, str], second: tuple[str, str],
                                                  joiner: str) -> None:
    parsed = parse_slots(f"What was the {first[0]}{joiner}{second[0]} in 2024?", glossary=GLOSSARY)
    if first[1] == second[1]:
        assert parsed.one_phrase is None
        return
    assert parsed.one_phrase is not None
    assert [r.code for r in parsed.one_phrase.readings] == [first[1], second[1]]
    assert [r.question for r in parsed.one_phrase.readings] == [f"what was the {first[0]} in 2024?",
                                                                f"what was the {second[0]} in 2024?"]


def test_chinese_metrics_listed_or_in_one_phrase() -> None:
    assert parse_slots("2024年营业收入和毛利", glossary=GLOSSARY).one_phrase is None
    assert parse_slots("2024年营业收入、毛利", glossary=GLOSSARY).one_phrase is None
    assert parse_slots("2024年营业收入毛利", glossary=GLOSSARY).one_phrase is not None
