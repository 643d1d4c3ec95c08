"""An entity named by its own display name (``names:``), in any language, though its ``aliases`` list only others.

A glossary often lists the English spellings under ``aliases`` and gives the Chinese and Japanese
ones only as ``names``. The question-back message lists those names as the known values, so a
question using one (デジタル・サービス, 数字服务) is that entity, through ``answer_question``; a
display name two entities share is still asked back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("display") / "domain"
    init_domain(domain)
    path = domain / "glossary.yaml"
    glossary = yaml.safe_load(path.read_text(encoding="utf-8"))
    glossary["entities"]["DIGITAL"] = {"parent": "EXAMPLE_GROUP", "level": "region",
                                       "names": {"en": "Digital Services", "zh": "数字服务", "ja": "デジタル・サービス"},
                                       "aliases": ["digital services"]}
    for code in ("LAB_A", "LAB_B"):  # one display name for two entities: which one is asked back
        glossary["entities"][code] = {"parent": "EXAMPLE_GROUP", "level": "region",
                                      "names": {"en": f"Lab {code[-1]}", "ja": "ラボ"}, "aliases": [f"lab {code[-1]}"]}
    path.write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    return statement_qa_with_labels(domain, [statement_fact("REVENUE", "2025", 816.5, entity="DIGITAL"),
                                             statement_fact("REVENUE", "2025", 4812.6)])


@given(question=st.sampled_from(["2025年度のデジタル・サービスの売上高はいくらですか", "デジタル・サービスの2025年度の売上高は？",
                                 "2025年数字服务的营业收入是多少？", "数字服务2025年的营收", "What was Digital Services revenue in 2025?"]))
def test_an_entity_named_by_its_display_name_is_read(qa: QAComponents, question: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert "816.5" in result.answer and "4812.6" not in result.answer, result.answer
    assert "DIGITAL" in result.answer, result.answer


def test_a_display_name_two_entities_share_is_still_asked_back(qa: QAComponents) -> None:
    result = answer_question("2025年度のラボの売上高はいくらですか", qa=qa)
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer
    assert "ラボ" in result.answer and "4812.6" not in result.answer, result.answer
