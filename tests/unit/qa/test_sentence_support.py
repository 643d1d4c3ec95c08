"""Each sentence of an answer is supported by the passage it cites, or moved to the one it comes from.

The passages are the sample documents' paragraphs (zh, ja, en and a Japanese one quoting Chinese);
the sentences are copied from them the way a 1.5B model copied, wrapped in the layout it wrote.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.llm.extractive import split_sentences
from ragspine.qa.citing import cite
from ragspine.qa.evidence import Evidence
from ragspine.qa.provenance import claims_text
from ragspine.qa.support import MIN_SUPPORT, content_words, script_of, section_locator, share, support
from tests.fakes.narrative import evidence

CN_ONLINE = evidence("2025财年，中国内地线上收入占其营业收入的比重达到46%，线上已成为该地区最重要的增长来源。",
                     doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=1")
CN_LAYOUT = evidence("中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。",
                     doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=2")
CN_STORES = evidence("线下方面，中国内地全年净新增门店34家，新店主要分布在二线城市。",
                     doc="ACME_FY2024_MDA.docx", locator="heading=中国内地（ACME_CN）,para=2")
HK_TEAM = evidence("面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合，并加强了面向会员的沟通与活动。",
                   locator="heading=香港（ACME_HK）,para=2")
JP_LOCAL = evidence("日本团队正在评估哪些品类可以转为本地采购，以减轻汇率波动的影响。",
                    locator="heading=日本（ACME_JP）,para=3")
PRICE_JA = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。",
                    doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")
LOTUS_JA = evidence("調達条件の見直し、物流拠点の統合、店舗オペレーションの効率化が主な取り組みです。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
SLIDE = evidence("Gross margin improved in every operating entity. Group revenue, operating profit and net profit all "
                 "rose year on year.", doc="ACME_FY2025_Review.pptx", locator="slide=7")
MEMBERS = evidence("Gold members receive free delivery on every order and early access to seasonal promotions.",
                   doc="ACME_Membership_Guide.md", locator="heading=Gold,para=1")
MIXED_JA = evidence("中国内地のオンライン売上は、微信小程序商城の開設と直播带货合作によって伸びました。",
                    doc="ACME_JP_2025_Report.md", locator="heading=中国,para=1")
POOL = [CN_ONLINE, CN_LAYOUT, CN_STORES, HK_TEAM, JP_LOCAL, PRICE_JA, LOTUS_JA, SLIDE, MEMBERS, MIXED_JA]
QUESTIONS = ["为什么2025财年中国内地线上业务成为最重要的增长来源？", "Why did Japan's gross margin recover in 2025?",
             "香港团队如何应对客流变化？", "2025年度、中国内地は店舗網をどのように見直しましたか？", "What changed?"]
# What a model wraps a sentence in: headings, list enumerators, passage markers, a written citation.
HEADINGS = st.sampled_from(["", "## 原因\n", "**Answer**\n", "回答：\n"])
ENUMERATORS = st.sampled_from(["", "1. ", "1) ", "一、", "① ", "- ", "**1.** ", "(1) "])
MARKERS = st.sampled_from(["[{n}]", "【{n}】", "({n})", " [{n}]", "[{n}][{n}]", "（来源：{doc} {locator}）"])
COPIES = [(item, sentence) for item in POOL for sentence in split_sentences(item.text)]


def checked(reply: str, passages: list[Evidence], question: str):  # type: ignore[no-untyped-def]
    """Each sentence of ``reply`` as the narrative flow reads it: its passages, then the support check."""
    cited = cite(reply, passages)
    return [(used, support(claims_text(sentence, passages=len(passages)), used, passages, question))
            for sentence, used in cited.sentences]


def test_the_pools_paragraphs_are_distinct() -> None:
    """The precondition of the property below: no sentence holds enough words of another paragraph."""
    for item, sentence in COPIES:
        words = content_words(sentence)
        assert all(share(words, other.text) < MIN_SUPPORT for other in POOL if other is not item), sentence


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COPIES), st.sampled_from(QUESTIONS), HEADINGS, ENUMERATORS, MARKERS, st.permutations(POOL))
def test_a_sentence_copied_from_its_cited_passage_is_never_declined(  # type: ignore[no-untyped-def]
        copy, question: str, heading: str, enumerator: str, marker: str, order: list[Evidence]) -> None:
    item, sentence = copy
    n = order.index(item) + 1
    reply = heading + enumerator + sentence + marker.format(n=n, doc=item.doc, locator=item.locator)

    found = [(used, verdict) for used, verdict in checked(reply, order, question) if order.index(item) in used]

    assert found and all(verdict.kept for _, verdict in found)


# "(1) " opening a line and "(2)" after a sentence's end mark may be a list's numbers as well as
# passage references; the citation step reads them as references, so they are left out here.
UNAMBIGUOUS_ENUMERATORS = st.sampled_from(["", "1. ", "一、", "① ", "- ", "**1.** "])
ATTACHED_MARKERS = st.sampled_from(["[{n}]", "【{n}】", " [{n}]", "[{n}][{n}]", "（来源：{doc} {locator}）"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COPIES), st.sampled_from(POOL), st.sampled_from(QUESTIONS), UNAMBIGUOUS_ENUMERATORS,
       ATTACHED_MARKERS, st.permutations(POOL), st.booleans())
def test_a_sentence_drawn_from_another_passage_is_never_kept_under_the_cited_one(  # type: ignore[no-untyped-def]
        copy, wrong: Evidence, question: str, enumerator: str, marker: str, order: list[Evidence],
        twice: bool) -> None:
    item, sentence = copy
    if wrong is item or script_of(wrong.text) != script_of(sentence):
        return  # a passage in another script may be the sentence's translation: words cannot judge it
    # The passage it comes from may be retrieved twice (two documents stating it): then no single one is its source.
    passages = [*order, replace(item, doc="ACME_Copy.docx")] if twice else order
    n = passages.index(wrong) + 1
    reply = enumerator + sentence + marker.format(n=n, doc=wrong.doc, locator=wrong.locator)

    [(_, verdict)] = [(u, v) for u, v in checked(reply, passages, question) if u]

    assert not verdict.kept
    assert verdict.recited == (None if twice else passages.index(item))


class TestWhereTheSentenceComesFrom:
    def test_a_cause_from_the_neighbouring_paragraph_is_recited_to_that_paragraph(self) -> None:
        reply = "2025财年中国内地线上业务成为最重要的增长来源，因为中国内地在保持线上投入的同时继续优化门店布局。[1]"

        [(_, verdict)] = checked(reply, [CN_ONLINE, CN_LAYOUT, CN_STORES], QUESTIONS[0])

        assert (verdict.kept, verdict.recited) == (False, 1)

    def test_a_cause_only_the_cited_passages_section_states_is_recited_to_the_section(self) -> None:
        online = replace(CN_ONLINE, context=f"{CN_ONLINE.text} {CN_LAYOUT.text}")
        reply = "2025财年中国内地线上业务成为最重要的增长来源，因为中国内地在保持线上投入的同时继续优化门店布局。[1]"

        [(_, verdict)] = checked(reply, [online, CN_STORES], QUESTIONS[0])

        assert (verdict.kept, verdict.section) == (False, 0)
        assert section_locator(online.locator) == "heading=中国内地（ACME_CN）"

    def test_a_cause_no_passage_states_is_unsupported(self) -> None:
        reply = "中国内地线上业务增长，是因为物流成本大幅下降并且竞争对手退出了市场。[1]"

        [(_, verdict)] = checked(reply, [CN_ONLINE, CN_LAYOUT, CN_STORES], QUESTIONS[0])

        assert (verdict.kept, verdict.recited, verdict.section) == (False, None, None)

    def test_a_translation_of_the_cited_passage_is_kept(self) -> None:
        reply = "The Hong Kong team shifted its focus to local regular customers and adjusted its product mix [1]."

        [(_, verdict)] = checked(reply, [HK_TEAM, SLIDE], "How did the Hong Kong team respond?")

        assert verdict.kept

    def test_a_japanese_sentence_quoting_its_chinese_passage_is_kept(self) -> None:
        reply = "中国内地のオンライン売上が伸びたのは，微信小程序商城于2024年3月上线，公司同时与多家直播平台建立了带货合作。[1]"
        passage = evidence("2024财年，中国内地营业收入同比增长11.9%，增长主要来自线上渠道：微信小程序商城于2024年3月上线，"
                           "公司同时与多家直播平台建立了带货合作。", locator="heading=中国内地（ACME_CN）,para=1")

        [(_, verdict)] = checked(reply, [passage, CN_ONLINE], "2024年度、中国内地のオンライン売上はなぜ伸びましたか？")

        assert verdict.kept

    # The 1.5B model's reply: the Chinese passage's clauses between Japanese words and katakana loanwords.
    HK_TEAM_JA = "香港チームは客層の変化に、重心を本地常客に向けた商品组合とメンバーや会員サービスの強化に取り組みました。"
    HK_REVENUE = evidence("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，以及位于广东道的三家门店关闭。",
                          locator="heading=香港（ACME_HK）,para=1")

    def test_a_japanese_sentence_in_its_own_words_around_the_chinese_passages_clauses_is_kept(self) -> None:
        [(_, verdict)] = checked(f"{self.HK_TEAM_JA}[2]", [self.HK_REVENUE, HK_TEAM, PRICE_JA],
                                 "2024年度、香港チームは客層の変化にどう対応しましたか？")

        assert verdict.kept

    def test_the_same_sentence_citing_another_chinese_paragraph_is_moved_to_the_one_it_comes_from(self) -> None:
        [(_, verdict)] = checked(f"{self.HK_TEAM_JA}[1]", [self.HK_REVENUE, HK_TEAM, PRICE_JA],
                                 "2024年度、香港チームは客層の変化にどう対応しましたか？")

        assert (verdict.kept, verdict.recited) == (False, 1)

    def test_a_japanese_sentence_no_chinese_paragraph_states_is_still_unsupported(self) -> None:
        reply = "香港チームは家賃の交渉に専念し、新しい倉庫を開設しました。[1]"

        [(_, verdict)] = checked(reply, [self.HK_REVENUE, HK_TEAM, PRICE_JA],
                                 "2024年度、香港チームは客層の変化にどう対応しましたか？")

        assert (verdict.kept, verdict.recited, verdict.section) == (False, None, None)

    def test_a_japanese_sentence_restating_an_english_passage_is_judged_by_all_its_words(self) -> None:
        # only a passage written in Han characters narrows the comparison to the sentence's Han words
        english = evidence("FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened; "
                           "visitors fell by 12,000 a month.", locator="slide=4")
        reply = ("資料によると、FY2024 ACME_HK revenue fell 百分之七点四 because inbound tourist spending weakened; "
                 "visitors fell by １２，０００ a month.[1]")

        [(_, verdict)] = checked(reply, [english], "香港のFY2024の売上高はなぜ減少したのですか？")

        assert verdict.kept

    @pytest.mark.parametrize("reply", ["原因如下：[1]", "2025年度、中国内地は店舗網を調整しました。[1]"])
    def test_a_lead_in_or_the_question_said_back_is_no_claim_to_check(self, reply: str) -> None:
        [(_, verdict), *_] = checked(reply, [PRICE_JA, CN_ONLINE], QUESTIONS[3])

        assert verdict.kept


@pytest.mark.parametrize("spelt", ["2.1", "百分之二点一", "二点一", "two point one"])
def test_a_figure_spelt_in_another_form_is_not_a_word_its_passage_lacks(spelt: str) -> None:
    passage = evidence("Revenue fell by 2.1 points.", doc="ACME_FY2025_MDA.docx")
    sentence = f"Revenue fell by {spelt} points."

    assert support(sentence, [0], [passage], "为什么收入下降？").kept
