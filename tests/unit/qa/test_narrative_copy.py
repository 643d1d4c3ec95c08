"""A reply copying a passage sentence written in another language than the question's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.language import Lang
from ragspine.qa.narrative_copy import Copied, copied_sentence, language_of
from tests.fakes.narrative import evidence

ONLINE = evidence("2025财年，中国内地线上收入占其营业收入的比重达到46%。线上已成为该地区最重要的增长来源。")
STORES = evidence("中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。")
PRICE = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。")


def test_a_chinese_sentence_copied_for_a_japanese_question_is_found_with_its_language() -> None:
    reply = "中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。[2]"

    assert copied_sentence(reply, [ONLINE, STORES], Lang.JA) == Copied(1, STORES.text, Lang.ZH)


def test_a_reply_in_its_own_words_is_no_copy() -> None:
    assert copied_sentence("中国内地的会员复购获得了更多资源，低效门店被关掉。[2]", [ONLINE, STORES], Lang.JA) is None


def test_a_copy_in_the_questions_own_language_is_not_one_in_another() -> None:
    assert copied_sentence(STORES.text, [ONLINE, STORES], Lang.ZH) is None


def test_the_language_a_sentence_is_written_in() -> None:
    assert [language_of(t) for t in (STORES.text, PRICE.text, "Mainland China kept investing online.")] == [
        Lang.ZH, Lang.JA, Lang.EN]


@given(st.integers(min_value=0, max_value=8))
def test_a_copy_missing_a_few_characters_or_with_a_marker_is_still_a_copy(cut: int) -> None:
    reply = f"{STORES.text[cut:]}[2]"

    found = copied_sentence(reply, [ONLINE, STORES], Lang.EN)
    assert found is not None and found.passage == 1
