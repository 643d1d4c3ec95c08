"""The unseen-question path's shortcuts read exactly what the full readers read.

The number and date regexes start with a lookahead on their possible first characters, the
glossary remembers its last few scans, and a text without numbered passages skips the passage
reference scan: each must give the same matches as the reading without the shortcut.
"""

from __future__ import annotations

import dataclasses
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary, Mention, SlotKind
from ragspine.facts.matching import slot_regex
from ragspine.numbers import reader
from ragspine.qa import dated_periods
from ragspine.qa.answer_structure import passage_references, strip_structure
from tests.support.glossary import default_glossary

# Pieces numbers and dates are made of, glued with look-alikes and other scripts.
_PIECES = st.sampled_from([
    "1", "2024", "1,320.5", "3.5", "万", "亿", "十", "一", "两", "第", "点", "二〇二四", "三家", "年", "月",
    "one", "One", "ONE", "seventeen", "thirty-two", "hundred", "and", "million", "bn", "USD_M", " USD_M",
    "ſeven", "ſixty", "Kelvin", "fiscal ", "year ended ", "years-ending ", "December", "dec.", "Sept", "31st",
    "30 June ", ", ", " ", "-", ".", "_", "FY", "Q3", "%", "‰", "x", "é", "日本", "の", "売上高", "\n",
])
_TEXTS = st.lists(_PIECES, max_size=12).map("".join)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_number_regex_finds_what_it_found_without_its_first_character_guard(text: str) -> None:
    unguarded = re.compile(reader._NUMBER_SOURCE)
    assert _spans(reader._NUMBER, text) == _spans(unguarded, text)
    assert _spans(reader._NUMBER, reader.normalise(text)) == _spans(unguarded, reader.normalise(text))


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_date_regex_finds_what_it_found_without_its_first_character_guard(text: str) -> None:
    guard = r"(?=[\dfyjmasond])"
    assert dated_periods._DATE.pattern.startswith(guard)
    unguarded = re.compile(dated_periods._DATE.pattern.removeprefix(guard), dated_periods._DATE.flags)
    assert _spans(dated_periods._DATE, text) == _spans(unguarded, text)


def test_number_words_typed_with_the_long_s_are_still_read() -> None:
    # "ſ" case-folds to "s": the guard class folds it the same way the word alternation does.
    assert [m.text for m in reader.read_numbers("ſeventeen stores")] == ["seventeen"]  # NFKC first
    assert reader._NUMBER.search("ſeventeen") is not None


def test_a_repeated_scan_returns_a_fresh_list_with_the_same_mentions() -> None:
    glossary = default_glossary()
    first = glossary.scan("What was Hong Kong revenue in Q3 2024?")
    first.append(Mention(SlotKind.METRIC, "X", "x", 0, 1))
    again = glossary.scan("What was Hong Kong revenue in Q3 2024?")
    assert again == first[:-1]
    assert [m.code for m in again] == ["ACME_HK", "REVENUE", "2024Q3"]


def test_a_copy_with_other_aliases_does_not_read_the_originals_scans() -> None:
    glossary = default_glossary()
    question = "What was the widget count of Hong Kong in 2024?"
    assert all(m.code != "WIDGETS" for m in glossary.scan(question))
    aliases = {**glossary.aliases, "widget count": (SlotKind.METRIC, "WIDGETS")}
    patterns = [p.regex.pattern for p in glossary.period_patterns]
    copy: Glossary = dataclasses.replace(glossary, aliases=aliases,
                                         _slot_regex=slot_regex(patterns, glossary.period_first_chars, aliases),
                                         _period_cache={})
    assert "WIDGETS" in [m.code for m in copy.scan(question)]
    assert all(m.code != "WIDGETS" for m in glossary.scan(question))


def test_without_passages_no_reference_is_read_and_the_brackets_stay_claims() -> None:
    text = "收入为1320 [1]，见资料2"
    assert passage_references(text, passages=0) == []
    assert strip_structure(text, passages=0) == text
    assert [r.passages for r in passage_references(text, passages=2)] == [(1,), (2,)]


def test_the_questions_numbers_are_read_only_for_a_number_the_figures_do_not_account_for() -> None:
    from ragspine.qa.provenance import check_numbers

    reads: list[str] = []

    def asked() -> frozenset[str]:
        reads.append("asked")
        return frozenset({"2025"})

    assert check_numbers("营业收入 1320", allowed=frozenset({"1320"}), also_allowed=asked).ok
    assert reads == []
    assert check_numbers("2025年营业收入 1320", allowed=frozenset({"1320"}), also_allowed=asked).ok
    assert reads == ["asked"]
    report = check_numbers("2026年营业收入 1320", allowed=frozenset({"1320"}), also_allowed=asked)
    assert report.unsupported == ("2026",)


def test_near_miss_targets_are_built_once_per_alias_table_and_kinds() -> None:
    from ragspine.qa.near_miss import _fuzzy_names_of, near_misses

    glossary = default_glossary()
    kinds = frozenset({SlotKind.METRIC})
    assert _fuzzy_names_of(glossary, kinds) is _fuzzy_names_of(glossary, kinds)
    misses = near_misses("gross margn of japan", "gross margn of      ", glossary, [SlotKind.METRIC])
    assert [(m.raw, [r.code for r in m.readings]) for m in misses] == [("gross margn", ["GROSS_MARGIN"])]
