"""The passages the model is first shown, and those a question is asked again from after it was said back."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.focus import MAX_FOCUS, answering_sentence, first_shown, focus
from tests.fakes.narrative import evidence

SECTION = ("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱。"
           "面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合。")
REVENUE = replace(evidence("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱。"), context=SECTION)
TEAM = replace(evidence("面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合。",
                        locator="heading=香港（ACME_HK）,para=2"), context=SECTION)
PRICE = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。", doc="ACME_JP_2025_Report.md",
                 locator="heading=価格改定,para=1")
STORES = evidence("线下方面，中国内地全年净新增门店34家，新店主要分布在二线城市。", locator="heading=中国内地（ACME_CN）,para=2")
LOTUS = evidence("为应对成本压力，日本启动了成本优化项目“Project Lotus”。", locator="heading=日本（ACME_JP）,para=2")


def test_the_paragraph_holding_the_questions_topic_comes_first_then_the_one_cited() -> None:
    assert focus("香港团队如何应对客流结构的变化？", [2], [PRICE, STORES, LOTUS, TEAM]) == (3, 2)


def test_a_section_shown_under_two_numbers_is_shown_once() -> None:
    # Both paragraphs reach the model as their section's text: the second copy adds nothing.
    assert focus("香港团队如何应对客流结构的变化？", [0], [REVENUE, PRICE, TEAM]) == (2,)


def test_with_no_word_in_common_the_passages_the_reply_cited() -> None:
    assert focus("2024年度、香港チームは客層の変化にどう対応しましたか？", [3, 1], [PRICE, STORES, LOTUS, TEAM]) == (3, 1)


def test_nothing_cited_and_nothing_in_common_keeps_every_passage() -> None:
    assert focus("How did the team respond?", [], [PRICE, STORES]) == ()


@given(st.lists(st.sampled_from([REVENUE, TEAM, PRICE, STORES, LOTUS]), min_size=1, max_size=6),
       st.lists(st.integers(min_value=0, max_value=5), max_size=3),
       st.sampled_from(["香港团队如何应对客流结构的变化？", "日本为什么启动Project Lotus？", "Why did prices rise?"]))
def test_at_most_a_few_passages_each_text_once_the_cited_ones_and_one_more(passages, cited, question) -> None:  # type: ignore[no-untyped-def]
    cited = [i for i in cited if i < len(passages)]
    chosen = focus(question, cited, passages)

    assert len(chosen) <= MAX_FOCUS and all(0 <= i < len(passages) for i in chosen)
    shown = [passages[i].context or passages[i].text for i in chosen]
    assert len(set(shown)) == len(shown)
    assert len(set(chosen) - set(cited)) <= 1  # the paragraph on the question's topic, else only those cited


def test_the_first_prompt_leads_with_the_paragraph_on_the_questions_topic() -> None:
    assert first_shown("香港团队如何应对客流结构的变化？", [PRICE, STORES, LOTUS, TEAM], 3) == (3, 2, 0)  # Lotus shares 应对


def test_the_first_prompt_shows_a_section_once() -> None:
    assert first_shown("香港团队如何应对客流结构的变化？", [REVENUE, PRICE, TEAM, STORES], 3) == (2, 1, 3)


def test_no_limit_keeps_every_passage_as_retrieved() -> None:
    assert first_shown("香港团队如何应对客流结构的变化？", [PRICE, TEAM], 0) == ()


@given(st.lists(st.sampled_from([REVENUE, TEAM, PRICE, STORES, LOTUS]), min_size=1, max_size=6),
       st.integers(min_value=1, max_value=6),
       st.sampled_from(["香港团队如何应对客流结构的变化？", "日本为什么启动Project Lotus？", "Why did prices rise?"]))
def test_the_first_prompt_shows_at_most_the_limit_each_text_once(passages, limit, question) -> None:  # type: ignore[no-untyped-def]
    chosen = first_shown(question, passages, limit)

    assert 1 <= len(chosen) <= limit and all(0 <= i < len(passages) for i in chosen)
    shown = [passages[i].context or passages[i].text for i in chosen]
    assert len(set(shown)) == len(shown)


REGULARS = evidence("新規出店は立地を厳選しながら続けています。価格改定後も来店客の反応はおおむね安定しており、"
                    "会員向けの施策を通じて常連客の維持に努めています。", doc="ACME_JP_2025_Report.md",
                    locator="heading=店舗と顧客,para=1")


def test_the_sentence_to_answer_from_is_the_one_on_the_questions_topic() -> None:
    assert answering_sentence("価格改定の後、ACME_JPは常連客をどのように維持していますか？", [PRICE, REGULARS], [1, 0]) == (
        1, "価格改定後も来店客の反応はおおむね安定しており、会員向けの施策を通じて常連客の維持に努めています。")


def test_with_no_word_in_common_the_sentence_sharing_most_han_characters_is_named() -> None:
    # 変化 is 变化, 客層 is 客流 in the Chinese passage: no word in common, two characters; the revenue
    # sentence shares one (客 of 旅客).
    assert answering_sentence("チームは客層の変化にどう対応しましたか？", [PRICE, REVENUE, TEAM], [0, 1, 2]) == (
        2, TEAM.text)


def test_with_no_word_and_no_character_in_common_no_sentence_is_named() -> None:
    # The first sentence of the passage the reply cited was the fall in revenue, for how the team responded.
    assert answering_sentence("How did the team respond to the change?", [REVENUE, TEAM], [0, 1]) is None


def test_the_passage_of_the_named_sentence_leads_the_passages_asked_from() -> None:
    assert focus("チームは客層の変化にどう対応しましたか？", [2], [REVENUE, PRICE, STORES, LOTUS, TEAM], named=4) == (4, 2)


@given(st.lists(st.sampled_from([REVENUE, TEAM, PRICE, STORES, LOTUS, REGULARS]), min_size=1, max_size=6),
       st.sampled_from(["香港团队如何应对客流结构的变化？", "価格改定の後、常連客をどう維持していますか？", "Why did prices rise?"]))
def test_the_sentence_named_is_always_one_of_the_passages_asked_from(passages, question) -> None:  # type: ignore[no-untyped-def]
    order = list(range(len(passages)))[::-1]
    found = answering_sentence(question, passages, order)

    assert found is None or (found[0] in order and found[1] and found[1] in passages[found[0]].text)
