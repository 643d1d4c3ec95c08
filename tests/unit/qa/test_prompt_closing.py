"""The closing lines of the narrative prompt: the question again, the kind of answer, whose passages, the length.

A real 1.5B model, given the question only above the passages, said the question back
("香港チームは客層の変化に対応しました。") or answered another aspect of the nearest passage (that
Project Lotus exists, for why it was started). The prompt now ends with the question restated,
the reason asked for when it is a why-question, the subject the passages used must speak of, and
one to three sentences; the form instruction stays the last line.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.llm.extractive import parse_user_message
from ragspine.qa.prompt import (
    ANSWER_FROM_SENTENCE,
    ANSWER_LANGUAGE,
    ANSWER_THIS,
    ASK_CONTENT,
    ASK_REASON,
    MISSING_CONTENT,
    MISSING_REASON,
    ONE_TO_THREE,
    ONLY_ABOUT,
    STRUCTURED_ANSWER,
    asks_why,
    assemble_prompt,
    restated_again,
)
from tests.fakes.narrative import evidence

PASSAGES = [evidence("为应对成本压力，日本于2024年第四季度启动了成本优化项目“Project Lotus”。",
                     locator="heading=日本（ACME_JP）,para=2"),
            evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。", doc="ACME_JP_2025_Report.md",
                     locator="heading=価格改定,para=1")]

WHY = [("zh", "日本为什么在2024年第四季度启动Project Lotus？"), ("zh", "管理层为何调整门店？"),
       ("en", "Why did Japan start Project Lotus, and what does it cover?"), ("en", "why did prices rise?"),
       ("ja", "2025年に日本の粗利率が回復したのはなぜですか？"), ("ja", "価格を上げた理由は何ですか？")]
OTHER = [("zh", "香港团队如何应对客流结构的变化？"), ("en", "How did Mainland China change its store network?"),
         ("en", "What does the whyte report say?"), ("ja", "2024年度、香港チームは客層の変化にどう対応しましたか？")]


def closing(question: str, lang: str, *, structured: bool = False, subject: tuple[str, ...] = ()) -> str:
    user = assemble_prompt(question, PASSAGES, lang=lang, structured=structured, subject=subject)[-1].content
    return user.rsplit("\n\n", 1)[1]


@pytest.mark.parametrize(("lang", "question"), WHY)
def test_a_why_question_is_restated_last_and_asks_for_the_reason(lang: str, question: str) -> None:
    assert asks_why(question, lang)
    lines = closing(question, lang).splitlines()
    assert lines[0] == ANSWER_THIS[lang].format(question=question)
    assert lines[1] == ASK_REASON[lang]
    assert lines[-2:] == [ONE_TO_THREE[lang], ANSWER_LANGUAGE[lang]]


@pytest.mark.parametrize(("lang", "question"), OTHER)
def test_another_question_asks_for_what_the_passages_say_not_a_reason(lang: str, question: str) -> None:
    assert not asks_why(question, lang)
    lines = closing(question, lang).splitlines()
    assert lines[0] == ANSWER_THIS[lang].format(question=question)
    assert lines[1] == ASK_CONTENT[lang]


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_subject_is_named_and_the_json_form_stays_the_last_line(lang: str) -> None:
    lines = closing("Project Lotus?", lang, structured=True, subject=("ACME_JP", "Project Lotus", "2024")).splitlines()
    assert ONLY_ABOUT[lang].format(subject="") not in lines  # named, not left empty
    assert any("ACME_JP" in line and "Project Lotus" in line and "2024" in line for line in lines)
    assert lines[-1] == STRUCTURED_ANSWER[lang]


def test_no_subject_line_when_the_question_names_none() -> None:
    lines = closing("Why did prices rise?", "en").splitlines()
    assert not any(line.startswith("Answer only from passages") for line in lines)


def test_without_a_language_the_message_is_the_question_and_passages_only() -> None:
    user = assemble_prompt("Why?", PASSAGES)[-1].content
    assert ANSWER_THIS["en"].format(question="Why?") not in user
    assert parse_user_message(user)[0] == "Why?"


@given(question=st.text(min_size=1, max_size=80).filter(str.strip),
       lang=st.sampled_from(["zh", "en", "ja"]))
def test_the_closing_never_reads_as_a_passage_or_another_question(question: str, lang: str) -> None:
    user = assemble_prompt(question, PASSAGES, lang=lang, structured=True)[-1].content
    asked, snippets = parse_user_message(user)
    assert asked == " ".join(question.split())
    assert [s.text for s in snippets] == [p.text for p in PASSAGES]


@pytest.mark.parametrize(("lang", "question", "missing"), [
    *((lang, question, MISSING_REASON[lang]) for lang, question in WHY),
    *((lang, question, MISSING_CONTENT[lang]) for lang, question in OTHER)])
def test_asked_again_after_the_question_said_back_the_reply_and_what_it_left_out_are_named(
        lang: str, question: str, missing: str) -> None:
    said_back = "香港チームは客層の変化に\n対応しました。"
    lines = closing(question, lang, structured=True, subject=("ACME_HK",)).splitlines()
    again = assemble_prompt(question, PASSAGES, lang=lang, structured=True, subject=("ACME_HK",),
                            restated=said_back)[-1].content.rsplit("\n\n", 1)[1].splitlines()
    assert again == [*lines[:-1], restated_again(question, said_back, lang), lines[-1]]  # the form stays last
    assert "香港チームは客層の変化に 対応しました。" in again[-2] and missing in again[-2]


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_asked_again_the_sentence_to_answer_from_is_named_under_its_passage_number(lang: str) -> None:
    question, said_back = "価格改定の後、ACME_JPは常連客をどのように維持していますか？", "ACME_JPは常連客を維持しています。"
    sentence = "2025年4月、ACME_JPは店頭の棚価格を引き上げました。"
    messages = assemble_prompt(question, PASSAGES, lang=lang, structured=True, restated=said_back,
                               shown=[1], answer_from=(1, sentence))
    again = messages[-1].content.rsplit("\n\n", 1)[1].splitlines()

    assert again[-3:-1] == [restated_again(question, said_back, lang),
                            ANSWER_FROM_SENTENCE[lang].format(number=2, sentence=sentence)]
    assert again[-1] == STRUCTURED_ANSWER[lang]  # the form stays last
    asked, snippets = parse_user_message(messages[-1].content)
    assert asked == question and [s.text for s in snippets] == [PASSAGES[1].text]
