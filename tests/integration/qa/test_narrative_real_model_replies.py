"""``POST /v1/ask`` against loopback chat servers replying the way a real small model did.

A 1.5B instruction model behind ``RAGSPINE_LLM_PROVIDER=openai`` cited the numbered passages
([1], 根据[3]和[4]), laid causes out as numbered lists, answered English and Japanese questions
in Chinese, said "无法回答。", attributed a FY2024 figure to FY2025, and replied slowly. Each
server below replies that way; the engine must keep what is right and say what happened.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import pytest

from ragspine.bootstrap import build_services
from ragspine.llm.extractive import parse_user_message
from ragspine.qa.evidence import Evidence
from ragspine.qa.prompt import (
    ANSWER_COPIED_AGAIN,
    ANSWER_FROM_SENTENCE,
    ANSWER_LANGUAGE_AGAIN,
    ANSWER_RESTATED_AGAIN,
    LANGUAGE_NAMES,
    MISSING_CONTENT,
    MISSING_REASON,
)
from ragspine.settings import LLMProviderName, Settings
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, ask_through_api
from tests.support.chat_server import cited_sources as sources
from tests.support.chat_server import narrative_detail as detail

Messages = list[dict[str, str]]
Asker = Callable[..., tuple[dict[str, object], "ChatServer"]]

HK_ZH = evidence("2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。")
HK_EN = evidence("FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened; visitors fell by "
                 "12,000 a month.", doc="ACME_FY2024_Review.pptx", locator="slide=3")
JP_ZH = evidence("2024财年日本营业收入增长5.1%，主要因为访日游客增加，新开两家门店。", doc="ACME_FY2024_MDA.docx",
                 locator="heading=日本（ACME_JP）,para=1")
HK_2025 = evidence("2025财年香港营业收入增长2.0%，租金重新谈判后经营稳定。", doc="ACME_FY2025_MDA.docx",
                   locator="heading=香港（ACME_HK）,para=1")
PASSAGES = [HK_ZH, HK_EN, JP_ZH, HK_2025]
ZH = "广东道的门店为什么关闭？"
EN = "Why did the Canton Road stores close?"
JA = "広東道の店舗はなぜ閉鎖されたのですか？"


def cite(item: object) -> str:
    return f"（来源：{item.doc} {item.locator}）"  # type: ignore[attr-defined]


@pytest.fixture
def ask_with(settings: Settings) -> Iterator[Callable[..., tuple[dict[str, object], ChatServer]]]:
    servers: list[ChatServer] = []
    def run(model: Callable[[Messages], str], question: str, *, timeout_s: float = 10.0,
            passages: Sequence[Evidence] = PASSAGES, **settings_update: object) -> tuple[dict[str, object], ChatServer]:
        server = ChatServer(model)
        server.serve()
        servers.append(server)
        body = ask_through_api(settings, server, question, retriever=StaticRetriever(list(passages)),
                               timeout_s=timeout_s, **settings_update)
        return body, server

    yield run
    for server in servers:
        server.close()


def replying(text: str) -> Callable[[Messages], str]:
    return lambda messages: text




class TestStructureIsNotAClaim:
    def test_passage_markers_are_rendered_as_the_passages_citations(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "香港营业收入下降7.4%，主要因为入境游客消费疲软[1]，以及广东道三家门店关闭【1】。访客每月减少12,000人(2)。"

        body, _ = ask_with(replying(reply), ZH)

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert body["answer"] == (f"香港营业收入下降7.4%，主要因为入境游客消费疲软{cite(HK_ZH)}，以及广东道三家门店关闭"
                                  f"{cite(HK_ZH)}。访客每月减少12,000人{cite(HK_EN)}。")
        assert sources(body) == [(HK_ZH.doc, HK_ZH.locator), (HK_EN.doc, HK_EN.locator)]

    def test_a_numbered_list_citing_passages_is_the_models_answer(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "根据[1]和[2]的资料，原因如下：\n1. 入境游客消费疲软 [1][2]\n2. 广东道三家门店关闭 [1]"

        body, _ = ask_with(replying(reply), ZH)

        assert body["narrative_status"] == "answered"
        answer = str(body["answer"])
        assert answer.startswith(f"根据{cite(HK_ZH)}和{cite(HK_EN)}的资料，原因如下：\n")
        assert f"\n1. 入境游客消费疲软{cite(HK_ZH)}{cite(HK_EN)}\n" in answer
        assert answer.endswith(f"\n2. 广东道三家门店关闭{cite(HK_ZH)}")
        assert sources(body) == [(HK_ZH.doc, HK_ZH.locator), (HK_EN.doc, HK_EN.locator)]

    def test_an_invented_number_in_a_numbered_list_is_still_rejected_and_named(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "1. 入境游客消费疲软 [1]\n2. 广东道关闭了5家门店 [1]"

        body, _ = ask_with(replying(reply), ZH)

        assert (body["narrative_status"], detail(body)["unsupported"]) == ("provenance_rejected", ["5"])
        assert "关闭了5家" not in str(body["answer"]) and HK_ZH.text in str(body["answer"])


class TestCitationsPointWhereTheSentenceCameFrom:
    def test_an_uncited_sentence_gets_the_passage_it_overlaps_not_a_documents_first(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "香港2025财年租金重新谈判后经营稳定。"

        body, _ = ask_with(replying(reply), ZH)

        assert body["answer"] == reply + cite(HK_2025)
        assert sources(body) == [(HK_2025.doc, HK_2025.locator)]  # not HK_ZH, the first passage of that document

    def test_a_sentence_sharing_nothing_with_any_passage_gets_no_citation(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        reply = "综上所述。入境游客消费疲软[1]。"

        body, _ = ask_with(replying(reply), ZH)

        assert body["answer"] == f"综上所述。入境游客消费疲软{cite(HK_ZH)}。"

    def test_another_regions_passage_is_not_a_source_of_a_hong_kong_answer(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("入境游客消费疲软，广东道三家门店关闭[1]。"), ZH)

        assert sources(body) == [(HK_ZH.doc, HK_ZH.locator)]


class TestSayWhatHappened:
    @pytest.mark.parametrize(("question", "reply"), [(ZH, "无法回答。"), (EN, "I cannot answer."),
                                                     (JA, "回答できません。"), (ZH, "资料中没有提及相关原因，无法回答。[1]")])
    def test_the_models_own_cannot_answer_is_no_evidence_without_citations(self, ask_with, question: str,  # type: ignore[no-untyped-def]
                                                                            reply: str) -> None:
        body, _ = ask_with(replying(reply), question)

        assert (body["narrative_status"], detail(body)["kind"]) == ("no_evidence", "model_declined")
        assert body["sources"] == [] and "来源" not in str(body["answer"])

    def test_a_slow_reply_within_the_timeout_is_the_models_answer(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        def slow(messages: Messages) -> str:
            time.sleep(0.6)
            return "入境游客消费疲软，广东道三家门店关闭[1]。"

        body, _ = ask_with(slow, ZH, timeout_s=5.0)

        assert body["narrative_status"] == "answered"

    def test_a_timeout_is_said_with_a_retry_hint_and_logged_where_serve_shows_it(  # type: ignore[no-untyped-def]
            self, ask_with, caplog: pytest.LogCaptureFixture) -> None:
        def slower(messages: Messages) -> str:
            time.sleep(2.0)
            return "入境游客消费疲软[1]。"

        with caplog.at_level(logging.WARNING, logger="ragspine.qa.narrative"):
            body, _ = ask_with(slower, EN, timeout_s=0.3)

        assert body["narrative_status"] == "model_unavailable"
        assert (detail(body)["kind"], detail(body)["retryable"]) == ("model_timeout", True)
        assert str(body["answer"]).startswith("The model did not reply within 0.3 s")
        assert any("narrative:llm_failed:LLM_TIMEOUT" in r.getMessage() for r in caplog.records
                   if r.levelno >= logging.WARNING)
        # The endpoint's own timeout wins over the global one: the hint names the setting that applies.
        assert "RAGSPINE_OPENAI_TIMEOUT_S" in str(detail(body)["hint"])

    def test_a_rejection_is_logged_where_serve_shows_it_without_the_values(  # type: ignore[no-untyped-def]
            self, ask_with, caplog: pytest.LogCaptureFixture) -> None:
        with caplog.at_level(logging.WARNING, logger="ragspine.qa.narrative"):
            body, _ = ask_with(replying("广东道关闭了9家门店[1]。"), ZH)

        assert detail(body)["unsupported"] == ["9"]
        logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert any("provenance:rejected" in m for m in logged) and not any("9家" in m for m in logged)


class TestTheQuestionsLanguage:
    @pytest.mark.parametrize(("question", "marker"), [(ZH, "请用中文回答"), (EN, "Answer in English"),
                                                      (JA, "日本語で回答")])
    def test_the_system_prompt_and_instruction_are_in_the_questions_language(self, ask_with, question: str,  # type: ignore[no-untyped-def]
                                                                            marker: str) -> None:
        _, server = ask_with(replying("入境游客消费疲软[1]。" if question == ZH else "Tourist spending weakened [2]."),
                             question)

        system, user = server.requests[0][0]["content"], server.requests[0][-1]["content"]
        assert marker in system and marker in user

    def test_a_reply_in_another_language_is_asked_again_once(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        def chinese_first(messages: Messages) -> str:
            if ANSWER_LANGUAGE_AGAIN["en"] in messages[-1]["content"]:
                return "Inbound tourist spending weakened, and three Canton Road stores closed [1]."
            return "入境游客消费疲软，广东道三家门店关闭[1]。"

        body, server = ask_with(chinese_first, EN)

        assert len(server.requests) == 2 and body["narrative_status"] == "answered"
        assert (detail(body)["asked_again"], detail(body)["language_kept"]) == (True, True)
        assert str(body["answer"]).startswith("Inbound tourist spending weakened")

    def test_a_model_that_keeps_another_language_is_flagged(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, server = ask_with(replying("香港的游客变少了，所以那些店铺停业了[1]。"), JA)  # its own words, not a copy

        assert len(server.requests) == 2
        assert (detail(body)["asked_again"], detail(body)["language_kept"]) == (True, False)

    def test_a_copied_sentence_in_another_language_is_named_with_its_language(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        # Asked again, the real model copied a Chinese passage sentence word for word for a Japanese question;
        # told which sentence it copied and that it is Chinese, a reply can say its content in Japanese.
        answer = "入境游客の消费が疲软になり、广东道の三家门店が关闭したためです[1]。"  # its clauses, in Japanese
        told = ANSWER_COPIED_AGAIN["ja"].format(number=1, sentence=HK_ZH.text, written=LANGUAGE_NAMES["ja"]["zh"])

        body, server = ask_with(lambda messages: answer if told in messages[-1]["content"]
                                else "入境游客消费疲软，广东道三家门店关闭[1]。", JA)

        assert len(server.requests) == 3 and told not in server.requests[1][-1]["content"]
        assert (body["narrative_status"], detail(body)["language_kept"]) == ("answered", True)
        assert str(body["answer"]) == answer.replace("[1]", cite(HK_ZH))

    def test_a_model_that_copies_again_is_flagged_after_one_more_request(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        body, server = ask_with(replying("入境游客消费疲软，广东道三家门店关闭[1]。"), JA)

        assert len(server.requests) == 3
        assert (detail(body)["asked_again"], detail(body)["language_kept"]) == (True, False)
        assert body["narrative_status"] == "answered"  # the content is the passage's, cited: shown, flagged


class TestPeriodsInTheAnswer:
    def test_a_figure_given_another_year_than_its_passage_is_rejected(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("2025财年香港营业收入下降7.4%[1]。"), ZH)

        assert (body["narrative_status"], detail(body)["unsupported"]) == ("provenance_rejected", ["7.4 (2025)"])

    def test_the_same_figure_with_its_own_year_in_other_words_is_accepted(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("In FY2024 Hong Kong revenue fell by 7.4 percent as tourist spending weakened [2]."),
                           "Why did Hong Kong's visitors stop spending?")

        assert body["narrative_status"] == "answered"


class TestEntitiesInTheAnswer:
    def test_japans_figure_listed_under_hong_kong_is_rejected(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("原因如下：\n1. 香港营业收入增长5.1% [3]\n2. 入境游客消费疲软 [1]"), ZH)

        assert (body["narrative_status"], detail(body)["unsupported"]) == ("provenance_rejected", ["5.1 (ACME_HK)"])

    def test_the_figure_under_its_own_entity_in_other_words_is_accepted(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("Japan's revenue grew 5.1% in FY2024 as more visitors came [3]. In Hong Kong, "
                                    "inbound tourist spending weakened [1]."), EN)

        assert body["narrative_status"] == "answered"


class TestRepliesThatDoNotAnswer:
    """A 135M model's sourced replies that answer nothing: the question said back, or another region's causes."""

    @pytest.mark.parametrize(("question", "reply"), [
        (EN, "The Canton Road stores closed [1]."),
        (ZH, "广东道的门店关闭了。[1]"),
        ("Why did Hong Kong's visitors stop spending?", "Hong Kong's visitors stopped spending [2]."),
        # A long CJK question said back, reworded a little: the real model's replies to the held-out set.
        ("2024年度、香港チームは客層の変化にどう対応しましたか？", "2024年度、香港チームは客層の変化にどう対応しました？[1]"),
        ("日本团队为什么要评估把部分品类转为本地采购？", "日本团队为什么要评估把部分品类转换到本地采购？[3]"),
    ])
    def test_a_reply_restating_the_question_is_withheld_and_said(self, ask_with, question: str,  # type: ignore[no-untyped-def]
                                                                 reply: str) -> None:
        body, _ = ask_with(replying(reply), question)

        assert (body["narrative_status"], detail(body)["kind"]) == ("provenance_rejected", "off_question")
        assert detail(body)["reason"] == "RESTATED_QUESTION"
        assert HK_ZH.text in str(body["answer"]) and reply not in str(body["answer"])

    def test_another_regions_causes_for_a_hong_kong_question_are_withheld(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, _ = ask_with(replying("日本的访日游客增加，新开两家门店[3]。"), "香港的游客为什么减少？")

        assert (detail(body)["kind"], detail(body)["reason"]) == ("off_question", "OTHER_ENTITY")

    @pytest.mark.parametrize(("question", "reply"), [
        (EN, "Inbound tourist spending weakened, and three Canton Road stores closed [1]."),
        ("Why did Hong Kong's visitors stop spending?",
         "In FY2024 inbound tourist spending weakened in Hong Kong; visitors fell by 12,000 a month [2]."),
        ("香港的游客为什么减少？", "入境游客消费疲软，集团在香港关闭了广东道三家门店[1]。"),
        ("香港的游客为什么减少？", "入境游客消费疲软[1]。"),  # names no entity: nothing to compare
    ])
    def test_an_answer_that_adds_the_cause_is_the_models_answer(self, ask_with, question: str,  # type: ignore[no-untyped-def]
                                                               reply: str) -> None:
        body, _ = ask_with(replying(reply), question)

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")


HK_TEAM = evidence("面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合，并加强了面向会员的沟通与活动。",
                   locator="heading=香港（ACME_HK）,para=2")


LOTUS_MEASURES = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。"
                    "調達条件の見直し、物流拠点の統合、店舗オペレーションの効率化が主な取り組みです。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
CN_ONLINE = evidence("2025财年，中国内地线上收入占其营业收入的比重达到46%，线上已成为该地区最重要的增长来源。",
                     doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=1")
CN_STORES = evidence("中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。",
                     doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=2")


def said_back_first(lang: str, said_back: str, answer: str) -> Callable[[Messages], str]:
    """The real model's way: the question said back, then, asked again naming what was missing, an answer."""
    asked_again = ANSWER_RESTATED_AGAIN[lang].split("{", 1)[0]
    return lambda messages: answer if asked_again in messages[-1]["content"] else said_back


class TestAReplySayingTheQuestionBackIsAskedAgain:
    """A 1.5B model's most frequent miss: the question said back; asked again naming the cause, it answered."""

    @pytest.mark.parametrize(("lang", "question", "said_back", "answer"), [
        ("en", EN, "The Canton Road stores closed [1].",
         "Inbound tourist spending weakened, and three Canton Road stores closed [1]."),
        ("zh", ZH, "广东道的门店关闭了。[1]", "入境游客消费疲软，广东道三家门店关闭[1]。"),
        # Japanese answers quoting the Chinese passage's clauses, as the real model's did.
        ("ja", JA, "広東道の店舗は閉鎖されました。[1]", "入境游客消费疲软のため、广东道の三家门店が閉鎖されました[1]。"),
        ("ja", "2024年度、香港チームは客層の変化にどう対応しましたか？", "香港チームは客層の変化に対応しました。[1]",
         "香港チームは本地常客に重心を移し、商品组合を调整しました[5]。"),
    ])
    def test_asked_once_more_naming_the_cause_its_answer_is_the_models_answer(  # type: ignore[no-untyped-def]
            self, ask_with, lang: str, question: str, said_back: str, answer: str) -> None:
        body, server = ask_with(said_back_first(lang, said_back, answer), question, passages=[*PASSAGES, HK_TEAM])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert detail(body)["asked_for_answer"] is True and len(server.requests) == 2
        assert str(body["answer"]).startswith(answer.split("[")[0].rstrip())
        again = server.requests[1][-1]["content"]
        assert said_back.split("[")[0].rstrip("。.") in again  # the reply named, so it is not given again
        assert (MISSING_REASON if "なぜ" in question or "why" in question.lower() or "为什么" in question
                else MISSING_CONTENT)[lang] in again

    @pytest.mark.parametrize(("question", "said_back", "answer"), [
        # The paragraph sharing the question's topic words first, then the one the reply cited.
        ("香港团队如何应对客流结构的变化？", "香港团队应对了客流结构的变化[1]。", "香港团队把重心转向本地常客，调整了商品组合[5]。"),
        # A Japanese question shares no words with the Chinese paragraphs: the one the reply cited.
        ("2024年度、香港チームは客層の変化にどう対応しましたか？", "香港チームは客層の変化に対応しました。[5]",
         "香港チームは本地常客に重心を移し、商品组合を调整しました[5]。"),
    ])
    def test_asked_again_over_fewer_passages_the_one_that_answers_first(  # type: ignore[no-untyped-def]
            self, ask_with, question: str, said_back: str, answer: str) -> None:
        # The real model said the same words back over the same five passages, also when asked again.
        def replies(messages: Messages) -> str:
            shown = [snippet.text for snippet in parse_user_message(messages[-1]["content"])[1]]
            return answer if len(shown) <= 2 and shown[0] == HK_TEAM.text else said_back

        body, server = ask_with(replies, question, passages=[*PASSAGES, HK_TEAM])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert detail(body)["asked_for_answer"] is True and len(server.requests) == 2
        assert str(body["answer"]) == answer.replace("[5]", cite(HK_TEAM))
        assert sources(body) == [(HK_TEAM.doc, HK_TEAM.locator)]
        again = server.requests[1][-1]["content"]
        assert f"[5] {HK_TEAM.text}" in again  # under the number it had
        assert JP_ZH.text not in again  # another region's passage is not shown again

    def test_asked_again_naming_the_sentence_on_the_topic_to_answer_from(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        question, answer = "香港团队如何应对客流结构的变化？", "香港团队把重心转向本地常客，调整了商品组合[5]。"
        named = ANSWER_FROM_SENTENCE["zh"].format(number=5, sentence=HK_TEAM.text)

        body, server = ask_with(lambda messages: answer if named in messages[-1]["content"] else "香港团队应对了客流结构的变化[1]。",
                                question, passages=[*PASSAGES, HK_TEAM])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert len(server.requests) == 2 and named not in server.requests[0][-1]["content"]
        assert str(body["answer"]) == answer.replace("[5]", cite(HK_TEAM))

    def test_first_shown_fewer_passages_the_one_on_the_topic_first_it_answers_at_once(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        question, answer = "香港团队如何应对客流结构的变化？", "香港团队把重心转向本地常客，调整了商品组合[5]。"
        # The real model said a how-question back over the passages as retrieved, the answering one last.
        def replies(messages: Messages) -> str:
            shown = [snippet.text for snippet in parse_user_message(messages[-1]["content"])[1]]
            return answer if len(shown) <= 3 and shown[0] == HK_TEAM.text else "香港团队应对了客流结构的变化[1]。"

        body, server = ask_with(replies, question, passages=[*PASSAGES, HK_TEAM], narrative_passages=3)

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert len(server.requests) == 1 and detail(body)["asked_for_answer"] is False
        assert str(body["answer"]) == answer.replace("[5]", cite(HK_TEAM))
        assert sources(body) == [(HK_TEAM.doc, HK_TEAM.locator)]
        first = server.requests[0][-1]["content"]
        assert first.index(f"[5] {HK_TEAM.text}") < first.index(f"[1] {HK_ZH.text}")  # under the number it had

    @pytest.mark.parametrize(("lang", "question", "said_back", "notice", "quoted"), [
        ("en", "Why did Canton Road's stores close after inbound spending weakened?", "The Canton Road stores closed [2].",
         "The model only repeated the question, also when asked again", 1),
        ("zh", ZH, "广东道的门店关闭了。[1]", "模型两次都只复述了问题", 0),
    ])
    def test_said_back_twice_the_passages_are_given_under_a_notice_saying_so(  # type: ignore[no-untyped-def]
            self, ask_with, lang: str, question: str, said_back: str, notice: str, quoted: int) -> None:
        body, server = ask_with(replying(said_back), question)
        item = PASSAGES[quoted]

        assert (body["narrative_status"], detail(body)["kind"], detail(body)["reason"]) == (
            "provenance_rejected", "off_question", "RESTATED_QUESTION")
        assert detail(body)["asked_for_answer"] is True and len(server.requests) == 2
        # The re-ask named the sentence on the question's topic; the reply is never shown, every passage is.
        assert ANSWER_FROM_SENTENCE[lang].format(number=quoted + 1, sentence=item.text) in server.requests[1][-1]["content"]
        assert str(body["answer"]).startswith(notice) and said_back not in str(body["answer"])
        assert all(f"- {passage.text}" in str(body["answer"]) for passage in PASSAGES)

    def test_with_no_word_on_the_topic_the_sentence_sharing_its_characters_is_named(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        # The real model said a Japanese question back citing the fall in revenue; asked again naming a sentence,
        # it wrote that sentence's content. No Chinese word is the question's (変化 is 变化): their characters are.
        question, answer = "2024年度、香港チームは客層の変化にどう対応しましたか？", "香港チームは重心を本地常客に移し、商品组合を调整しました[5]。"
        named = ANSWER_FROM_SENTENCE["ja"].format(number=5, sentence=HK_TEAM.text)

        body, server = ask_with(lambda messages: answer if named in messages[-1]["content"] else "香港チームは客層の変化に対応しました。[1]",
                                question, passages=[*PASSAGES, HK_TEAM])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert len(server.requests) == 2 and detail(body)["asked_for_answer"] is True
        assert str(body["answer"]) == answer.replace("[5]", cite(HK_TEAM))
        again = server.requests[1][-1]["content"]
        assert again.index(f"[5] {HK_TEAM.text}") < again.index(f"[1] {HK_ZH.text}")  # the named one first

    def test_another_regions_sentence_is_never_named(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        # Japan's Project Lotus sentence shares 見直 and 店舗 with a question on Mainland China's store network: the
        # real model, pointed to it, wrote Japan's measures under Mainland China. The Mainland sentence is named.
        question = "2025年度、中国内地は店舗網をどのように見直しましたか？"
        answer = "中国内地は门店布局を继续优化し、低效门店を调整しました[3]。"
        named = ANSWER_FROM_SENTENCE["ja"].format(number=3, sentence=CN_STORES.text)

        body, server = ask_with(
            lambda messages: answer if named in messages[-1]["content"] else "2025年度、中国内地は店舗網を調整しました。[3]",
            question, passages=[LOTUS_MEASURES, CN_ONLINE, CN_STORES])

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")
        assert len(server.requests) == 2 and named in server.requests[1][-1]["content"]
        assert "回答してください：「調達条件" not in server.requests[1][-1]["content"]
        assert str(body["answer"]) == answer.replace("[3]", cite(CN_STORES))

    def test_a_named_sentence_copied_in_its_language_is_asked_for_in_the_questions(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        # Named the Mainland sentence, the real model copied it in Chinese for a Japanese question.
        question = "2025年度、中国内地は店舗網をどのように見直しましたか？"
        answer = "中国内地は线上投入を保ちながら门店布局を优化し、低效门店を调整しました[3]。"
        named = ANSWER_FROM_SENTENCE["ja"].format(number=3, sentence=CN_STORES.text)
        told = ANSWER_COPIED_AGAIN["ja"].format(number=3, sentence=CN_STORES.text, written=LANGUAGE_NAMES["ja"]["zh"])

        def replies(messages: Messages) -> str:
            if told in messages[-1]["content"]:
                return answer
            return f"{CN_STORES.text}[3]" if named in messages[-1]["content"] else "2025年度、中国内地は店舗網を調整しました。[3]"

        body, server = ask_with(replies, question, passages=[LOTUS_MEASURES, CN_ONLINE, CN_STORES])

        assert len(server.requests) == 3 and detail(body)["asked_for_answer"] is True
        assert (body["narrative_status"], detail(body)["language_kept"]) == ("answered", True)
        assert str(body["answer"]) == answer.replace("[3]", cite(CN_STORES))

    def test_with_nothing_in_common_no_sentence_is_named(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        # An English question over Chinese passages shares no word and no character: none is named.
        body, server = ask_with(replying("The Hong Kong team responded to the change. [1]"),
                                "How did the Hong Kong team respond to the change in 2024?")

        assert (detail(body)["kind"], detail(body)["reason"]) == ("off_question", "RESTATED_QUESTION")
        assert len(server.requests) == 2 and "Answer from this sentence" not in server.requests[1][-1]["content"]
        assert HK_ZH.text in str(body["answer"])

    def test_an_answer_is_not_asked_again(self, ask_with) -> None:  # type: ignore[no-untyped-def]
        body, server = ask_with(replying("Inbound tourist spending weakened, and three Canton Road stores closed [1]."),
                                EN)

        assert body["narrative_status"] == "answered" and len(server.requests) == 1
        assert detail(body)["asked_for_answer"] is False

    def test_another_language_then_the_question_said_back_is_asked_for_both_once(  # type: ignore[no-untyped-def]
            self, ask_with) -> None:
        def replies(messages: Messages) -> str:
            if ANSWER_RESTATED_AGAIN["en"].split("{", 1)[0] in messages[-1]["content"]:
                return "Inbound tourist spending weakened, and three Canton Road stores closed [1]."
            if ANSWER_LANGUAGE_AGAIN["en"] in messages[-1]["content"]:
                return "The Canton Road stores closed [1]."
            return "广东道的门店关闭了。[1]"

        body, server = ask_with(replies, EN)

        assert body["narrative_status"] == "answered" and len(server.requests) == 3
        assert (detail(body)["asked_again"], detail(body)["asked_for_answer"]) == (True, True)
        assert ANSWER_LANGUAGE_AGAIN["en"] in server.requests[2][-1]["content"]  # still asked for English


LOTUS_JA = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
LOTUS_ZH = evidence("始于2024年第四季度的成本优化项目“Project Lotus”在本财年继续推进。", doc="ACME_FY2025_MDA.docx",
                    locator="heading=日本（ACME_JP）,para=2")
PUBLIC = [LOTUS_JA, LOTUS_ZH, HK_ZH, JP_ZH]  # what a question on the RESTRICTED board minutes retrieves
UNSUPPORTED_NOTICE = {"en": "The documents do not say", "zh": "资料中没有说明", "ja": "資料には記載がありません"}


class TestAnswersAboutWhatNoCitedPassageNames:
    """A 1.5B model's replies to questions only the RESTRICTED board minutes answer: another project, cited."""

    @pytest.mark.parametrize(("lang", "question", "reply"), [
        ("en", "What did the board decide about Project Falcon?",
         "The board decided to continue the Project Lotus cost reduction program [1]."),
        ("zh", "董事会为什么要求对Project Falcon保密？", "董事会要求对Project Falcon保密，因为该项目涉及敏感信息。[2]"),
        ("ja", "Project Falconの買収対象はどの会社ですか？", "Project Lotusは、2025年も継続しています。[1]"),
    ])
    def test_an_answer_citing_only_another_projects_passage_says_the_documents_do_not_say(
            self, ask_with: Asker, lang: str, question: str, reply: str) -> None:
        body, _ = ask_with(replying(reply), question, passages=PUBLIC)

        assert (body["narrative_status"], detail(body)["kind"]) == ("unsupported", "unsupported_subject")
        assert detail(body)["unsupported"] == ["Project Falcon"]
        answer = str(body["answer"])
        assert answer.startswith(UNSUPPORTED_NOTICE[lang]) and "Project Falcon" in answer.split("\n", 1)[0]
        assert "decided" not in answer and "保密，因为" not in answer and LOTUS_JA.text in answer
        assert sources(body) == [(p.doc, p.locator) for p in PUBLIC]

    @pytest.mark.parametrize(("question", "reply"), [
        ("Why did Japan start Project Lotus?", "Project Lotus is a cost reduction program started in 2024 [1]."),
        # (A cause no passage here states, "为应对成本压力", is declined: tests/integration/qa/test_sentence_support.py.)
        ("日本为什么启动Project Lotus？", "日本的成本优化项目Project Lotus在本财年继续推进[2]。"),
        ("Project Lotusではどのような取り組みが行われていますか？", "コスト削減プログラム「Project Lotus」は2025年も継続しています[1]。"),
    ])
    def test_an_answer_citing_the_asked_projects_passage_is_the_models_answer(
            self, ask_with: Asker, question: str, reply: str) -> None:
        body, _ = ask_with(replying(reply), question, passages=PUBLIC)

        assert (body["narrative_status"], detail(body)["kind"]) == ("answered", "model_answer")

    def test_an_answer_citing_another_regions_passage_for_a_named_region_is_unsupported(
            self, ask_with: Asker) -> None:
        body, _ = ask_with(replying("主要因为访日游客增加[4]。"), "香港的游客为什么减少？", passages=PUBLIC)

        assert (body["narrative_status"], detail(body)["unsupported"]) == ("unsupported", ["ACME_HK"])


class TestPerEndpointSettings:
    def test_the_endpoints_own_timeout_wins_over_the_global_one(self, settings: Settings) -> None:
        from ragspine.bootstrap import llm_timeout

        wired = settings.model_copy(update={"llm_provider": LLMProviderName.OPENAI, "openai_base_url": "http://x/v1",
                                            "llm_timeout_s": 30.0, "openai_timeout_s": 240.0})
        services = build_services(wired)

        assert services.qa.llm._timeout_s == 240.0 and llm_timeout(wired) == 240.0  # type: ignore[attr-defined]
        assert llm_timeout(settings) is None  # the offline extractive model has no timeout

    def test_a_slow_local_model_answers_within_its_endpoint_timeout(self, settings: Settings) -> None:
        def slow(messages: Messages) -> str:
            time.sleep(1.0)
            return "入境游客消费疲软，广东道三家门店关闭[1]。"

        server = ChatServer(slow)
        server.serve()
        try:
            wired = settings.model_copy(update={
                "llm_provider": LLMProviderName.OPENAI, "openai_base_url": server.base_url, "llm_timeout_s": 0.3,
                "openai_timeout_s": 5.0, "openai_max_tokens": 120})
            services = build_services(wired)
            services = replace(services, qa=replace(services.qa, retriever=StaticRetriever(PASSAGES)))
            from ragspine.qa.answer import answer_question

            result = answer_question(ZH, qa=services.qa)
        finally:
            server.close()

        assert result.narrative_status is not None and result.narrative_status.value == "answered"
        assert server.bodies[-1]["max_tokens"] == 120  # the endpoint's cap on the reply
