"""The unseen-question path's shortcuts read exactly what the full readers read.

The number and date regexes start with a lookahead on their possible first characters, the
glossary remembers its last few scans, and a text without numbered passages skips the passage
reference scan: each must give the same matches as the reading without the shortcut.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from decimal import Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine.citation import Source, source_dicts
from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind
from ragspine.facts.matching import slot_regex
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.numbers import reader
from ragspine.qa import arithmetic_cues, dated_periods
from ragspine.qa.answer_structure import passage_references, strip_structure
from ragspine.qa.structured import outcome_sources
from tests.support.glossary import default_glossary
from tests.unit.facts.test_fact_model import make_fact

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
    assert dated_periods.DATE.pattern.startswith(guard)
    unguarded = re.compile(dated_periods.DATE.pattern.removeprefix(guard), dated_periods.DATE.flags)
    assert _spans(dated_periods.DATE.compiled, text) == _spans(unguarded, text)


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


@settings(max_examples=200, deadline=None)
@given(st.lists(_TEXTS, min_size=1, max_size=20))
def test_the_normalised_question_is_what_nfkc_and_lower_case_give_however_often_it_is_asked(texts: list[str]) -> None:
    import unicodedata

    from ragspine.facts.glossary import normalize_text

    for text in [*texts, *reversed(texts)]:  # repeated and evicted texts alike
        assert normalize_text(text) == unicodedata.normalize("NFKC", text).lower()


def test_the_derived_words_of_the_last_question_are_read_again_for_another_question_or_glossary() -> None:
    from ragspine.qa import derived_asks

    glossary = default_glossary()
    other = dataclasses.replace(glossary, aliases={**glossary.aliases, "operating income margin": (
        SlotKind.METRIC, "OPERATING_INCOME")})
    questions = ["operating income margin in FY2024", "operating income % margin in FY2024", "日本的毛利率"]
    for question in [*questions, *questions]:
        for words_of in (glossary, other, glossary):
            found = derived_asks.derived_words(question, words_of)
            assert found == derived_asks._derived_words(question, words_of)
            assert derived_asks.derived_words(question, words_of) == found  # read again: the same words
            assert derived_asks._last_read is not None and derived_asks._last_read[1] is words_of


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_a_question_naming_no_month_has_its_dates_read_as_the_date_reader_reads_them(text: str) -> None:
    from ragspine.qa.slots import _with_dates_read

    glossary = default_glossary()
    question = unicodedata.normalize("NFKC", text)  # the slot reader reads dates after NFKC
    assert _with_dates_read(question, glossary) == dated_periods.rewrite_dates(question, glossary)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 8)), max_size=6), st.sampled_from(
    ["What was Hong Kong revenue in Q3 2024?", "2024年日本的毛利率是多少", "ＡＣＭＥ group 2023 営業利益"]))
def test_a_blanked_question_is_the_union_of_its_spans_blanked_however_often_it_is_asked(
        spans: list[tuple[int, int]], question: str) -> None:
    glossary = default_glossary()
    norm = unicodedata.normalize("NFKC", question).lower()
    spans = [(start, width) for start, width in spans if start + width <= len(norm)]  # mentions lie in the text
    mentions = [Mention(SlotKind.METRIC, None, "x", start, start + width) for start, width in spans]
    covered = {i for start, width in spans for i in range(start, start + width)}
    expected = "".join(" " if i in covered else ch for i, ch in enumerate(norm))
    for _ in range(2):  # the second read comes from the memo
        assert glossary.leftover(question, mentions) == expected
        assert glossary.leftover(question, list(reversed(mentions))) == expected


_STATEMENT_PIECES = st.sampled_from([
    "cash flow statement", "Statement of Cash Flows", "ſtatements of income", "BALANCE SHEET", "balance ſheets",
    "P&L", "p&l statement", "income statement", "ＩＮＣＯＭＥ　ＳＴＡＴＥＭＥＮＴ", "consolidated ", "of ", "cash ",
    "revenue", "2024", " ", "上半年", "下期", "H1 2024", "h2 fy2023", "first half of 2024", "Second Half 2023",
    "ｈ１ ２０２４", "2024财年上半年", "half", "sheet", "statement", "FIRST HALF OF FY2024", "ſecond half 2023", "2023年度下半期",
    "２０２４年上期", "H2", "fy", "x2024",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(_STATEMENT_PIECES, max_size=8).map("".join))
def test_statement_names_and_half_years_are_read_as_their_full_readers_read_them(text: str) -> None:
    from ragspine.facts.glossary import normalize_text
    from ragspine.qa import period_words, slots, statement_names

    assert statement_names.without_statement_names(text) == statement_names._STATEMENTS.sub(
        lambda m: " " * len(m.group()), text)
    guarded = period_words.half_year(text) if slots._HALF_START.search(normalize_text(text)) else None
    assert guarded == period_words.half_year(text)
    unguarded = re.compile(period_words._HALF.pattern.removeprefix(period_words._HALF_GUARD), re.IGNORECASE)
    for form in (text, unicodedata.normalize("NFKC", text)):
        assert _spans(period_words._HALF.compiled, form) == _spans(unguarded, form)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([
    "2025年3月期", "第3四半期", "の", "year ended ", "Fiscal Year Ending ", "twelve months ended ", "June 30, 2024",
    "December 31 2023", "ＥＮＤＥＤ", "revenue", " ", "2024", "期", "end", "ｙｅａｒ ｅｎｄｅｄ ", "３月期",
    "2018/2019", "2017/18", "／", "/", "2019", "年度", "4～6月", "年4-6月期", "April", "-June ", "quarter ended ",
    "three months ended ", "Oct. to Dec. ",
]), max_size=8).map("".join))
def test_period_words_are_rewritten_as_their_full_reader_rewrites_them(text: str) -> None:
    from ragspine.qa.period_words import read_period_words
    from ragspine.qa.slots import _with_period_words_read

    glossary = default_glossary()
    assert _with_period_words_read(text, glossary) == read_period_words(text, glossary.fiscal_calendar)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([
    "rounded to ", "two ", "2 ", "decimal places", "decimals", "decimal", "to the ", "保留", "位小数", "精确到小数点后",
    "第", "小数点以下", "位を四捨五入", "位まで", "nearest whole number", "取整", "revenue", " ", "2024", "三",
    "nearest integer", "whole number", "整数で", "保留整数", "integer", "whole", "整", "near", "保留", "で",
]), max_size=8).map("".join))
def test_rounding_places_are_read_as_the_full_reader_reads_them(text: str) -> None:
    from ragspine.qa import arithmetic_cues as cues

    norm = unicodedata.normalize("NFKC", text).lower()
    full: int | None = 0 if cues._WHOLE.search(norm) else None
    if full is None:
        for pattern, shift in cues._PLACES:
            match = pattern.search(norm)
            value = cues._number(match.group(1)) if match else None
            if value is not None:
                full = max(value + shift, 0)
                break
    assert cues._places(norm) == full


def test_every_whole_number_wording_holds_a_word_its_search_is_guarded_by() -> None:
    from ragspine.qa import arithmetic_cues as cues

    assert all("whole" in word or "integer" in word or "整" in word for word in cues._WORDS_OF[cues._WHOLE])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([
    "top ", "top", "stop ", "laptop ", "前", "名", "上位", "上", "位", "3", "10", "三", "五", " ", "revenue", "各地区",
    "Top 5", "ＴＯＰ３", "前五名", "上位3社", "x", "1",
]), max_size=8).map("".join))
def test_the_top_n_pattern_finds_what_its_templates_find_without_the_guard(text: str) -> None:
    from ragspine.qa.analytics.cues import _top_pattern

    templates = ["top {n}", "前{n}名", "上位{n}"]
    guarded = _top_pattern(templates)
    assert guarded is not None and guarded.pattern.startswith("(?=[")
    unguarded = re.compile(guarded.pattern.split("]", 1)[1].removeprefix(")"))
    norm = unicodedata.normalize("NFKC", text).lower()
    assert _spans(guarded, norm) == _spans(unguarded, norm)
    assert [m.groups() for m in guarded.finditer(norm)] == [m.groups() for m in unguarded.finditer(norm)]


def test_a_top_template_with_nothing_before_its_number_leaves_the_pattern_unguarded() -> None:
    from ragspine.qa.analytics.cues import _top_pattern

    pattern = _top_pattern(["{n} best", "top {n}"])
    assert pattern is not None and not pattern.pattern.startswith("(?=")
    assert pattern.search("the 3 best regions") is not None


# Cue words of every kind, names they may hide in ("unless", "gross margin"), look-alikes and other scripts.
_ARITHMETIC_PIECES = st.sampled_from([
    "average ", "mean", "ratio of ", "divided by ", "as a percentage of ", "minus ", "less ", "unless ", "sum of ",
    "total ", "altogether", "combined ", "difference", "higher than ", "change in ", "equals ", "percent of ", "cagr",
    "3-year ", "%", "+", "/", "×", "rounded to two decimal places", "revenue", "gross margin", "stores", "Hong Kong ",
    "ＲＥＶＥＮＵＥ", "营业收入", "毛利率", "平均", "之比", "合计", "合計", "相差", "差", "変化", "年均复合增长率", "的",
    "に占める", "売上高", "営業利益", "2024", "FY2023 ", " ", "?", "。",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_ARITHMETIC_PIECES, max_size=10).map("".join))
def test_a_question_without_cue_words_asks_the_arithmetic_every_cue_search_finds(text: str) -> None:
    glossary = default_glossary()
    full = arithmetic_cues._read_cues(*arithmetic_cues._cue_texts(text, glossary), glossary)
    assert arithmetic_cues.read_arithmetic(text, glossary) == full


@settings(max_examples=500, deadline=None)
@given(st.from_regex(r"\A[0-9]{1,34}(?:\.[0-9]{0,8})?\Z") | st.from_regex(r"\A\d{1,4}(?:\.\d{1,3})?\Z"))
@example("1234567890123456789012345678901234")  # past the decimal context's 28 digits, which round
@example("000.000")
def test_a_plain_number_is_spelled_as_the_decimal_reading_spells_it(literal: str) -> None:
    assert reader.plain_canonical(literal) == reader.canonical(Decimal(literal))


_SOURCE_PARTS = st.tuples(st.sampled_from(["a.pdf", "b.xlsx", "年报.pptx"]), st.sampled_from(["page=1", "page=2", "cell=C3"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.tuples(_SOURCE_PARTS, st.lists(_SOURCE_PARTS, max_size=3))), max_size=5))
def test_a_structured_answer_cites_each_document_and_locator_once_in_order_of_first_appearance(
        found: list[tuple[tuple[str, str], list[tuple[str, str]]] | None]) -> None:
    # GIVEN lookups that found a fact (perhaps with figures other sources state differently) or none
    key = MetricQuery("REVENUE", "ACME_CN", Period.fiscal_year(2024), "TOTAL")
    results = tuple(
        QueryResult(QueryStatus.NOT_FOUND, key) if item is None else QueryResult(
            QueryStatus.FOUND, key, make_fact(source_doc_id=item[0][0], source_locator=item[0][1]),
            conflicts=tuple(make_fact(value=1, source_doc_id=doc, source_locator=locator) for doc, locator in item[1]))
        for item in found)
    # WHEN the answer's sources are listed
    sources = outcome_sources(results)
    # THEN they are the sources of every cited figure, each once, where it is first cited
    expected = source_dicts(Source(fact.source_doc_id, fact.source_locator) for result in results
                            if result.fact is not None for fact in (result.fact, *result.conflicts))
    assert sources == expected
    assert list(sources) == [{"doc": doc, "locator": locator} for doc, locator in dict.fromkeys(
        part for item in found if item is not None for part in (item[0], *item[1]))]


# Every kind of whitespace re's ``\s`` matches, zero-width characters, look-alikes, punctuation, CJK and ASCII.
_SCREENED_PIECES = st.sampled_from([
    " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u200a",
    "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\u200d", "\u2060", "\ufeff", "’", "“", "«", "і",
    "о", "α", "ο", "Ignore", "ＲＥＶＥＮＵＥ", "revenue", "2024", "年", "日本", "の", "売上高", "？", "?", ",", "_",
    "'s", "-", "Ⅻ", "ﬁ", "é", "E\u0301",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(_SCREENED_PIECES, max_size=10).map("".join))
def test_the_screening_form_is_the_full_normalisation_of_any_text(text: str) -> None:
    from ragspine.qa import screening

    full = unicodedata.normalize("NFKC", text)
    full = screening._SPACES.sub(" ", screening._ZERO_WIDTH.sub("", full).lower().translate(screening._FOLD)).strip()
    assert screening.screening_text(text) == full


@settings(max_examples=600, deadline=None)
@given(st.lists(_SCREENED_PIECES, max_size=10).map("".join))
def test_a_faq_key_is_the_text_without_its_whitespace_and_punctuation(text: str) -> None:
    from ragspine.qa.faq import faq_key

    assert faq_key(text) == re.sub(r"[\s\W_]+", "", unicodedata.normalize("NFKC", text).lower())


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_an_ascii_faq_key_is_the_text_without_its_whitespace_and_punctuation(text: str) -> None:
    from ragspine.qa.faq import faq_key

    # English questions take a translation instead of the regex pass: the key must be the same
    assert faq_key(text) == re.sub(r"[\s\W_]+", "", unicodedata.normalize("NFKC", text).lower())


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(["ratio", " of", "of", "x", "毛", "divided", " by", "by", "more", " than", "sum", "less",
                                 "avg", " ", "率", "a", "in", " %", "net", "之比", "合计"]), max_size=8).map("".join),
       st.lists(st.tuples(st.integers(0, 30), st.integers(1, 3)), max_size=3))
@example("ratio毛of", [(5, 1)])  # the name between the words blanked: "ratio of"
def test_a_blanked_question_holds_a_cue_word_the_question_lacks_only_when_the_word_holds_a_space(
        text: str, spans: list[tuple[int, int]]) -> None:
    from ragspine.facts.glossary import _blanked

    blanked = _blanked(text, sorted((min(start, len(text)), min(start + size, len(text))) for start, size in spans))
    assert len(blanked) == len(text)
    if arithmetic_cues._ANY_CUE.search(blanked) and not arithmetic_cues._ANY_CUE.search(text):
        assert arithmetic_cues._ANY_SPACED_CUE.search(blanked)
