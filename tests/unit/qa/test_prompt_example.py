"""The worked example in the narrative system prompt: an invented company, answered in the reply's form.

Under instructions alone a real 1.5B model said how-questions back ("香港チームは客層の変化に対応しました。")
and answered that something happened rather than what was done. The system message now ends with an
example in the question's language: two invented passages, a how-question answered with what was done
and a why-question answered with the cause, each in the form the reply must take.
"""

from __future__ import annotations

import json
import re

import pytest

from ragspine.llm.extractive import parse_user_message
from ragspine.llm.ports import Role
from ragspine.qa.prompt import EXAMPLE_ANSWERS, EXAMPLE_PASSAGES, SYSTEM_PROMPT, assemble_prompt, worked_example
from tests.fakes.narrative import evidence

PASSAGES = [evidence("面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合。",
                     locator="heading=香港（ACME_HK）,para=2"),
            evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。", doc="ACME_JP_2025_Report.md",
                     locator="heading=価格改定,para=1")]
QUESTIONS = {"zh": "香港团队如何应对客流结构的变化？", "en": "How did the Hong Kong team respond to the change?",
             "ja": "2024年度、香港チームは客層の変化にどう対応しましたか？"}
_KANA = re.compile(r"[\u3040-\u30ff]")


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_system_message_ends_with_the_example_in_the_questions_language(lang: str) -> None:
    system = assemble_prompt(QUESTIONS[lang], PASSAGES, lang=lang)[0]

    assert system.role is Role.SYSTEM
    assert system.content == f"{SYSTEM_PROMPT}\n\n{worked_example(lang)}"
    questions = [q for q, _, _ in EXAMPLE_ANSWERS[lang]]
    assert all(q in system.content for q in questions)
    assert all(bool(_KANA.search(q)) is (lang == "ja") for q in questions)


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_each_example_answer_says_more_than_its_question_and_comes_from_its_passage(lang: str) -> None:
    passages = EXAMPLE_PASSAGES[lang]
    for question, sentence, number in EXAMPLE_ANSWERS[lang]:
        assert sentence not in question and 1 <= number <= len(passages)
    how, why = EXAMPLE_ANSWERS[lang]
    assert how[2] != why[2]  # the how-answer and the cause come from different passages


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_example_answers_in_the_form_the_reply_must_take(lang: str) -> None:
    marked = worked_example(lang, structured=False)
    as_json = worked_example(lang, structured=True)

    for _, sentence, number in EXAMPLE_ANSWERS[lang]:
        assert f"{sentence}[{number}]" in marked and '"sentences"' not in marked
        replies = [line[line.index("{"):] for line in as_json.splitlines() if "{" in line]
        assert {"sentences": [{"text": sentence, "passage": number}]} in [json.loads(r) for r in replies]


@pytest.mark.parametrize("lang", ["zh", "en", "ja"])
def test_the_example_holds_no_figure_and_none_of_its_passages_is_numbered_with_the_documents(lang: str) -> None:
    messages = assemble_prompt(QUESTIONS[lang], PASSAGES, lang=lang, structured=True)

    assert not re.search(r"\d", worked_example(lang).replace("[1]", "").replace("[2]", ""))
    _, snippets = parse_user_message(messages[-1].content)
    assert [s.text for s in snippets] == [p.text for p in PASSAGES]
    assert not any(text in messages[-1].content for text in EXAMPLE_PASSAGES[lang])


def test_a_prompt_without_a_language_has_no_example() -> None:
    assert assemble_prompt(QUESTIONS["zh"], PASSAGES)[0].content == SYSTEM_PROMPT
