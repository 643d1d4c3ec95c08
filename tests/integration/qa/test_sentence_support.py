"""``POST /v1/ask``: each sentence of the model's answer says what the passage it cites says.

Loopback chat servers reply the way a 1.5B model did on the held-out questions: a cause taken
from the paragraph next to the one cited, a sentence cited to the passage before the one it
copies, a cause no passage states, and Japan's cause listed under a Hong Kong question.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import pytest

from ragspine.qa.evidence import Evidence
from ragspine.settings import Settings
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, ask_through_api
from tests.support.chat_server import cited_sources as sources
from tests.support.chat_server import narrative_detail as detail

Messages = list[dict[str, str]]

CN_ONLINE_TEXT = "2025财年，中国内地线上收入占其营业收入的比重达到46%，线上已成为该地区最重要的增长来源。"
CN_LAYOUT_TEXT = "中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。"
# As the index gives it: the paragraph, with its section around it as the context the model reads.
CN_ONLINE = replace(evidence(CN_ONLINE_TEXT, doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=1"),
                    context=f"{CN_ONLINE_TEXT} {CN_LAYOUT_TEXT}")
GROUP = evidence("集团整体经营在本财年趋于稳健：中国内地线上业务继续扩大，香港企稳，日本的价格调整开始见效。",
                 doc="ACME_FY2025_MDA.docx", locator="heading=集团（ACME_GROUP）,para=1")
PRICE_JA = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。",
                    doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")
CN_STORES = evidence("线下方面，中国内地全年净新增门店34家，新店主要分布在二线城市。", locator="heading=中国内地（ACME_CN）,para=2")
LOTUS_ZH = evidence("始于2024年第四季度的成本优化项目“Project Lotus”在本财年继续推进。", doc="ACME_FY2025_MDA.docx",
                    locator="heading=日本（ACME_JP）,para=2")
LOTUS_JA = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
LOTUS_EN = evidence("Project Lotus, started in Q4 2024, continued through 2025.", doc="ACME_FY2025_Review.pptx",
                    locator="slide=9")
HK_ZH = evidence("2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。")
JP_ZH = evidence("2024财年日本营业收入增长5.1%，主要因为访日游客增加，新开两家门店。", locator="heading=日本（ACME_JP）,para=1")


@pytest.fixture
def ask_with(settings: Settings) -> Iterator[Callable[..., dict[str, object]]]:
    servers: list[ChatServer] = []

    def run(reply: str, question: str, passages: Sequence[Evidence]) -> dict[str, object]:
        server = ChatServer(lambda messages: reply)
        server.serve()
        servers.append(server)
        return ask_through_api(settings, server, question, retriever=StaticRetriever(list(passages)), timeout_s=10.0)

    yield run
    for server in servers:
        server.close()




class TestACauseFromAnotherParagraph:
    def test_a_cause_from_the_cited_paragraphs_neighbour_is_cited_to_their_section(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "2025财年中国内地的线上业务成为最重要的增长来源，因为中国内地在保持线上投入的同时继续优化门店布局。[1]"

        body = ask_with(reply, "2025财年中国内地的线上业务为什么成为最重要的增长来源？", [CN_ONLINE, GROUP, CN_STORES])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert str(body["answer"]).endswith("（来源：ACME_FY2025_MDA.docx heading=中国内地（ACME_CN））")
        assert "para=1" not in str(body["answer"])
        assert sources(body) == [("ACME_FY2025_MDA.docx", "heading=中国内地（ACME_CN）")]

    def test_a_sentence_cited_to_the_passage_before_the_one_it_copies_is_cited_to_that_one(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        reply = "中国内地の新店主要分布在二线城市。[1]"

        body = ask_with(reply, "中国内地の新店はどこに出店しましたか？", [PRICE_JA, CN_STORES])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert sources(body) == [(CN_STORES.doc, CN_STORES.locator)]
        assert "価格改定" not in str(body["answer"])


class TestACauseNoPassageStates:
    @pytest.mark.parametrize(("question", "reply", "notice"), [
        ("日本为什么启动Project Lotus？", "为应对成本压力，日本启动了成本优化项目Project Lotus[1]。",
         "资料中没有说明：回答的第1句"),
        ("Why did Japan start Project Lotus?",
         "Project Lotus started in Q4 2024 because the yen appreciated against every supplier currency [3].",
         "The documents do not say: sentence 1 of the generated answer"),
        ("日本はなぜProject Lotusを始めたのですか？", "Project Lotusは、2025年も継続しています。人件費の高騰に対応するため、"
         "全店舗の営業時間を短縮しました[2]。", "資料には記載がありません。生成された回答の第2文"),
    ])
    def test_the_answer_is_declined_naming_the_sentence(self, ask_with, question: str, reply: str,  # type: ignore[no-untyped-def]
                                                        notice: str, caplog: pytest.LogCaptureFixture) -> None:
        with caplog.at_level(logging.WARNING):
            body = ask_with(reply, question, [LOTUS_ZH, LOTUS_JA, LOTUS_EN])

        assert (body["narrative_status"], detail(body)["kind"]) == ("unsupported", "unsupported_sentence")
        named = detail(body)["unsupported"]
        assert isinstance(named, list) and len(named) == 1
        said = str(named[0])
        assert said.startswith("2: " if "第2" in notice else "1: ")  # which sentence, numbered from 1
        answer = str(body["answer"])
        assert answer.startswith(notice) and LOTUS_ZH.text in answer
        assert said.split(": ", 1)[1] not in answer  # the sentence is named in the detail, not shown as the answer
        logged = [r.getMessage() for r in caplog.records if "sentence_unsupported" in r.getMessage()]
        assert logged and not any(said.split(": ", 1)[1][:6] in m for m in logged)


class TestAnotherEntitysCauseUnderTheOneAsked:
    @pytest.mark.parametrize("japan", ["日本访日游客增加，新开两家门店[2]。", "新开两家门店，访客明显增加[2]。"])
    def test_the_sentence_about_japan_is_dropped_from_a_hong_kong_answer(self, ask_with, japan: str) -> None:  # type: ignore[no-untyped-def]
        reply = f"香港的游客减少，主要因为入境游客消费疲软[1]。{japan}"

        body = ask_with(reply, "香港的游客为什么减少？", [HK_ZH, JP_ZH])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert str(body["answer"]) == f"香港的游客减少，主要因为入境游客消费疲软（来源：{HK_ZH.doc} {HK_ZH.locator}）。"
        assert sources(body) == [(HK_ZH.doc, HK_ZH.locator)]


HK_TEAM = evidence("面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合，并加强了面向会员的沟通与活动。",
                   locator="heading=香港（ACME_HK）,para=2")


class TestAJapaneseAnswerToAChinesePassage:
    """The 1.5B model's Japanese answer: the Chinese passage's clauses joined by particles and katakana words."""

    REPLY = "香港チームは客層の変化に、重心を本地常客に向けた商品组合とメンバーや会員サービスの強化に取り組みました。[2]"
    QUESTION = "2024年度、香港チームは客層の変化にどう対応しましたか？"

    def test_its_answer_is_the_models_answer_cited_to_that_passage(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body = ask_with(self.REPLY, self.QUESTION, [HK_ZH, HK_TEAM, PRICE_JA])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert sources(body) == [(HK_TEAM.doc, HK_TEAM.locator)]
        assert str(body["answer"]).startswith(self.REPLY.removesuffix("[2]"))
