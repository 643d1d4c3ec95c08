"""``POST /v1/ask`` with ``RAGSPINE_OPENAI_STRUCTURED_OUTPUT`` against loopback servers that honour or ignore it.

Left to free text, a real 135M model wrote its own citation strings (``(ACME_FY2024_MDA.docx
heading=…,para=4)``, whose ``para=4`` reads as a figure) and cited ``[7]`` when five passages
were given. Asked for JSON whose ``passage`` is an enum of the given passages, a server that
honours the schema cannot produce either: the engine renders each sentence's passage as the
seed's citation. A server that ignores ``response_format`` is read like free text and said so.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import pytest

from ragspine.llm.extractive import parse_user_message
from ragspine.qa.prompt import (
    ANSWER_FROM_SENTENCE,
    ANSWER_LANGUAGE_AGAIN,
    ANSWER_THIS,
    ASK_REASON,
    ONLY_ABOUT,
    STRUCTURED_ANSWER,
    restated_again,
)
from ragspine.qa.stated_causes import QUOTE_LABEL
from ragspine.settings import Settings, StructuredOutput
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.chat_server import ChatServer, ask_through_api
from tests.support.chat_server import cited_sources as sources

Messages = list[dict[str, str]]
Asker = Callable[..., tuple[dict[str, Any], "ChatServer"]]

HK = evidence("2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。")
HK_EN = evidence("FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened.",
                 doc="ACME_FY2024_Review.pptx", locator="slide=3")
JP = evidence("2024财年日本毛利率下降2个百分点，原因是日元走弱推高了进口商品的采购成本。",
              locator="heading=日本（ACME_JP）,para=1")
PASSAGES = [HK, HK_EN, JP]
ZH = "广东道的门店为什么关闭？"
EN = "Why did the Canton Road stores close?"
# What the real small model wrote without a schema: its own citation string and a passage [7] of three.
FREE_TEXT = "香港营业收入下降7.4%（ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=4）。入境游客消费疲软[7]。"


def cite(item: object) -> str:
    return f"（来源：{item.doc} {item.locator}）"  # type: ignore[attr-defined]


# A why-answer without the cause its cited passage states ends with that sentence, quoted.
QUOTED_CAUSE = f"\n{QUOTE_LABEL['zh'].format(sentence=HK.text)}{cite(HK)}"


class SmallModel:
    """Replies like the real model; with a schema in ``response_format`` it honours it (or not).

    ``answer(schema)`` gives the sentences a constrained decoder would emit: the reply is checked
    against the schema the request carried, as a grammar-constrained server guarantees.
    """

    def __init__(self, sentences: Callable[[Messages], list[dict[str, Any]]], *, honours: bool = True,
                 free_text: str = FREE_TEXT) -> None:
        self.sentences = sentences
        self.honours = honours
        self.free_text = free_text
        self.server: ChatServer | None = None
        self.schemas: list[dict[str, Any]] = []

    def __call__(self, messages: Messages) -> str:
        assert self.server is not None
        response_format = self.server.bodies[-1].get("response_format")
        if not isinstance(response_format, dict) or not self.honours:
            return self.free_text
        schema = response_format.get("schema") or response_format["json_schema"]["schema"]
        self.schemas.append(schema)
        reply = {"sentences": self.sentences(messages)}
        jsonschema.validate(reply, schema)
        return json.dumps(reply, ensure_ascii=False)


def sentences(*pairs: tuple[str, int]) -> Callable[[Messages], list[dict[str, Any]]]:
    return lambda messages: [{"text": text, "passage": passage} for text, passage in pairs]


@pytest.fixture
def ask_with(settings: Settings) -> Iterator[Callable[..., tuple[dict[str, Any], ChatServer]]]:
    servers: list[ChatServer] = []
    def run(model: SmallModel, question: str, structured: StructuredOutput) -> tuple[dict[str, Any], ChatServer]:
        server = ChatServer(model)
        model.server = server
        server.serve()
        servers.append(server)
        body = ask_through_api(settings, server, question, retriever=StaticRetriever(PASSAGES),
                               openai_structured_output=structured)
        return body, server

    yield run
    for server in servers:
        server.close()


HONOURED = sentences(("香港营业收入下降7.4%", 1), ("主要因为入境游客消费疲软。", 2))


class TestAServerHonouringTheSchema:
    def test_free_text_with_an_invented_citation_and_passage_is_rejected_without_the_setting(
            self, ask_with: Asker) -> None:
        body, server = ask_with(SmallModel(HONOURED), ZH, StructuredOutput.OFF)

        assert "response_format" not in server.bodies[0]
        assert body["narrative_status"] == "provenance_rejected"
        assert body["narrative_detail"]["structured_output"] is None

    @pytest.mark.parametrize("form", [StructuredOutput.JSON_SCHEMA, StructuredOutput.JSON_OBJECT])
    def test_the_same_model_asked_for_json_answers_with_the_seeds_citations(
            self, ask_with: Asker, form: StructuredOutput) -> None:
        model = SmallModel(HONOURED)

        body, server = ask_with(model, ZH, form)

        assert (body["narrative_status"], body["narrative_detail"]["kind"]) == ("answered", "model_answer")
        assert body["answer"] == f"香港营业收入下降7.4%。{cite(HK)}主要因为入境游客消费疲软。{cite(HK_EN)}"
        assert sources(body) == [(HK.doc, HK.locator), (HK_EN.doc, HK_EN.locator)]
        assert body["narrative_detail"]["structured_output"] is True
        (schema,) = model.schemas
        assert schema["properties"]["sentences"]["items"]["properties"]["passage"]["enum"] == [1, 2, 3]
        assert server.requests[0][-1]["content"].endswith(STRUCTURED_ANSWER["zh"])

    def test_the_model_is_asked_the_question_again_for_its_reason_from_the_passages_on_its_subject(
            self, ask_with: Asker) -> None:
        body, server = ask_with(SmallModel(sentences(("The three Canton Road stores closed as inbound tourist "
                                                      "spending weakened.", 1))), EN, StructuredOutput.JSON_OBJECT)

        assert body["narrative_status"] == "answered"
        closing = server.requests[0][-1]["content"].rsplit("\n\n", 1)[1].splitlines()
        assert closing[:2] == [ANSWER_THIS["en"].format(question=EN), ASK_REASON["en"]]
        assert ONLY_ABOUT["en"].format(subject="Canton Road") in closing
        assert closing[-1] == STRUCTURED_ANSWER["en"]

    def test_citation_lookalikes_written_into_the_text_are_layout_not_figures(
            self, ask_with: Asker) -> None:
        model = SmallModel(sentences(("香港营业收入下降7.4%（ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=4）[3]", 1)))

        body, _ = ask_with(model, ZH, StructuredOutput.JSON_OBJECT)

        assert body["narrative_status"] == "answered"
        assert body["answer"] == f"香港营业收入下降7.4%。{cite(HK)}{QUOTED_CAUSE}"

    def test_an_invented_figure_in_the_json_is_still_rejected_and_named(
            self, ask_with: Asker) -> None:
        model = SmallModel(sentences(("香港营业收入下降7.4%，广东道关闭了5家门店。", 1)))

        body, _ = ask_with(model, ZH, StructuredOutput.JSON_OBJECT)

        assert (body["narrative_status"], body["narrative_detail"]["unsupported"]) == ("provenance_rejected", ["5"])
        assert body["narrative_detail"]["structured_output"] is True

    def test_the_models_own_cannot_answer_in_json_is_no_evidence_without_sources(
            self, ask_with: Asker) -> None:
        body, _ = ask_with(SmallModel(sentences(("无法回答。", 3))), ZH, StructuredOutput.JSON_OBJECT)

        assert (body["narrative_status"], body["narrative_detail"]["kind"]) == ("no_evidence", "model_declined")
        assert body["sources"] == [] and "来源" not in body["answer"]

    def test_a_reply_in_another_language_is_asked_again_in_the_json_form(
            self, ask_with: Asker) -> None:
        def by_language(messages: Messages) -> list[dict[str, Any]]:
            if ANSWER_LANGUAGE_AGAIN["en"] in messages[-1]["content"]:
                return [{"text": "Hong Kong revenue fell 7.4% as inbound tourist spending weakened.", "passage": 2}]
            return [{"text": "香港营业收入下降7.4%。", "passage": 1}]

        body, server = ask_with(SmallModel(by_language), "Why did Hong Kong's visitors stop spending?",
                                StructuredOutput.JSON_SCHEMA)

        assert len(server.bodies) == 2 and all("response_format" in b for b in server.bodies)
        assert server.requests[1][-1]["content"].endswith(STRUCTURED_ANSWER["en"])
        assert body["answer"] == f"Hong Kong revenue fell 7.4% as inbound tourist spending weakened.{cite(HK_EN)}"
        assert (body["narrative_detail"]["asked_again"], body["narrative_detail"]["language_kept"]) == (True, True)

    def test_the_question_said_back_in_json_is_asked_again_in_the_json_form(
            self, ask_with: Asker) -> None:
        asked_again = restated_again(ZH, "广东道的门店关闭了。", "zh")

        def said_back_first(messages: Messages) -> list[dict[str, Any]]:
            if asked_again in messages[-1]["content"]:
                return [{"text": "入境游客消费疲软，广东道三家门店关闭。", "passage": 1}]
            return [{"text": "广东道的门店关闭了。", "passage": 2}]

        model = SmallModel(said_back_first)
        body, server = ask_with(model, ZH, StructuredOutput.JSON_OBJECT)

        assert len(server.bodies) == 2 and all("response_format" in b for b in server.bodies)
        named = ANSWER_FROM_SENTENCE["zh"].split("{", 1)[0].format()  # the sentence to answer from, after the reply
        assert server.requests[1][-1]["content"].endswith(f"{STRUCTURED_ANSWER['zh']}")
        assert f"{asked_again}\n{named}1]" in server.requests[1][-1]["content"]
        assert body["answer"] == f"入境游客消费疲软，广东道三家门店关闭。{cite(HK)}"
        assert body["narrative_detail"]["asked_for_answer"] is True
        # Asked again from the passage on the question's topic and the one the reply cited, under their
        # numbers: the schema lets the model cite only those, and Japan's passage is not shown again.
        enum = [schema["properties"]["sentences"]["items"]["properties"]["passage"]["enum"] for schema in model.schemas]
        assert enum == [[1, 2, 3], [1, 2]]
        assert JP.text not in server.requests[1][-1]["content"]

    def test_a_reply_cut_off_by_max_tokens_keeps_its_complete_sentences(
            self, ask_with: Asker) -> None:
        cut = '{"sentences": [{"text": "香港营业收入下降7.4%。", "passage": 1}, {"text": "入境游客消'
        model = SmallModel(sentences(), honours=False, free_text=cut)

        body, _ = ask_with(model, ZH, StructuredOutput.JSON_OBJECT)

        assert body["answer"] == f"香港营业收入下降7.4%。{cite(HK)}{QUOTED_CAUSE}"
        assert body["narrative_detail"]["structured_output"] is True


    def test_json_with_no_sentence_is_a_bad_reply_with_the_passages_never_raw_json(
            self, ask_with: Asker) -> None:
        body, _ = ask_with(SmallModel(sentences(("…", 1))), ZH, StructuredOutput.JSON_OBJECT)

        assert (body["narrative_status"], body["narrative_detail"]["kind"]) == ("model_unavailable", "model_error")
        assert body["narrative_detail"]["reason"] == "LLM_BAD_RESPONSE"
        assert "sentences" not in body["answer"] and HK.text in body["answer"]


class TestAServerIgnoringTheSchema:
    def test_its_free_text_is_read_as_text_and_the_mismatch_is_said(
            self, ask_with: Asker, caplog: pytest.LogCaptureFixture) -> None:
        model = SmallModel(sentences(), honours=False, free_text="香港营业收入下降7.4%[1]，因为入境游客消费疲软[2]。")

        with caplog.at_level(logging.WARNING, logger="ragspine.qa.narrative"):
            body, server = ask_with(model, ZH, StructuredOutput.JSON_SCHEMA)

        assert "response_format" in server.bodies[0]
        assert body["narrative_status"] == "answered"
        assert body["answer"] == f"香港营业收入下降7.4%{cite(HK)}，因为入境游客消费疲软{cite(HK_EN)}。"
        assert body["narrative_detail"]["structured_output"] is False
        assert any("structured_output_ignored" in r.getMessage() for r in caplog.records)

    def test_an_invented_citation_in_ignored_json_mode_is_still_rejected(
            self, ask_with: Asker) -> None:
        body, _ = ask_with(SmallModel(sentences(), honours=False), ZH, StructuredOutput.JSON_OBJECT)

        assert body["narrative_status"] == "provenance_rejected"
        assert body["narrative_detail"]["structured_output"] is False


def test_the_json_prompt_still_numbers_the_passages_and_carries_no_restricted_text(
        ask_with: Asker) -> None:
    _, server = ask_with(SmallModel(HONOURED), ZH, StructuredOutput.JSON_OBJECT)

    question, snippets = parse_user_message(server.requests[0][-1]["content"].rsplit("\n\n", 1)[0])
    assert question == ZH and [s.text for s in snippets] == [p.text for p in PASSAGES]
