"""A reader skipped for a question without its words reads nothing there when it is run.

The quarter reader, the derived-word reader and the change reader of "one year with the year
before" each run only when the normalised question holds one of their words somewhere; the
change and derived words are looked for in the question with the glossary's names blanked, so
the guard must also hold where blanking a name leaves spaces next to a word. Each property
generates questions from the readers' own words, names of the glossary and other scripts.
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Period, SlotKind, normalize_text
from ragspine.qa import derived_asks, slots, stated_years
from ragspine.qa.period_words import quarters_named, with_quarters
from tests.support.glossary import default_glossary

_GLOSSARY = default_glossary()

# Names the glossary blanks, beside the readers' words and their look-alikes in other widths and cases.
_NAMES = ["revenue", "gross margin", "Hong Kong", "Japan", "stores", "operating profit", "营业收入", "毛利率", "日本",
          "売上高", "営業利益", "香港", "FY2024", "2023年", "Q3 2024", "2024年第三季度", "第4四半期", "fiscal year 2024"]
_OTHER = [" ", "", "x", "the ", "of ", "in ", "what was ", "?", "。", "的", "の", "2024", "ſ", "\n", "-"]

_QUARTER_WORDS = ["Q", "q", "ｑ", "Ｑ3", "q 4", "quarter", "QUARTERS", "ｑｕａｒｔｅｒ", "first ", "second", "3rd", "4th ",
                  "季度", "季", "第二", "四半期", "四半", "一", "3", "and ", "to ", "至"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_QUARTER_WORDS + _NAMES + _OTHER), max_size=10).map("".join),
       st.lists(st.sampled_from([Period.fiscal_year(2024), Period.fiscal_year(2023), Period("Q", "2024Q3")]),
                max_size=2))
def test_a_question_naming_no_quarter_has_its_quarters_read_as_the_quarter_reader_reads_them(
        text: str, named: list[Period]) -> None:
    periods = dict.fromkeys(named)
    question = unicodedata.normalize("NFKC", text)  # the slot reader reads quarters after NFKC
    assert slots._with_quarters_read(question, normalize_text(question), periods) == with_quarters(question, periods)
    if slots._QUARTER_START.search(normalize_text(question)) is None:
        assert quarters_named(question) == ((), "")


_CHANGE_WORDS = ["change", "Changes", "exchange", "increase", "INCREASED", "decrease", "difference", "differ",
                 "变化", "变动", "増減", "変化", "变", "増", "chan", "ge", "ｃｈａｎｇｅ"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_CHANGE_WORDS + _NAMES + _OTHER), max_size=10).map("".join))
def test_a_question_without_a_change_word_has_none_left_once_its_names_are_blanked(text: str) -> None:
    left = _GLOSSARY.leftover(text, _GLOSSARY.scan(text)).lower()
    if stated_years._CHANGE_WORD.search(normalize_text(text)) is None:
        assert stated_years._CHANGE.search(left) is None


_DERIVED_WORDS = ["margin", "Margins", "ratio", "turnover", "growth", "return on", "returns on", "returnson", "yield",
                  "coverage", "conversion cycle", "per share", "days sales outstanding", "days payables",
                  "days inventory", "days", "per", "return", "率", "利润率", "利益率", "周转", "回転日数", "倍率",
                  "增长", "增速", "成長率", "伸び率", "％", "%", "'s "]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_DERIVED_WORDS + _NAMES + _OTHER), max_size=10).map("".join))
def test_a_question_without_a_derived_word_has_none_left_once_its_names_are_blanked(text: str) -> None:
    mentions = [m for m in _GLOSSARY.scan(text) if m.kind is not SlotKind.CHANNEL]
    left = _GLOSSARY.leftover(text, mentions)
    found = [m.group() for m in derived_asks._DERIVED.finditer(left)]
    if derived_asks._DERIVED_CORE.search(normalize_text(text)) is None:
        assert found == []
        assert derived_asks._derived_words(text, _GLOSSARY) == []
    elif len(left) == len(normalize_text(text)):
        assert [w.word for w in derived_asks._derived_words(text, _GLOSSARY)] == found
