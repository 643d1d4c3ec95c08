"""Words of how a question is asked are no company's name, and the starting folder reads the common cue words.

"debt to equity ratio" without hyphens is the pack's one metric, not a debt ratio and an equity ratio.

截至 ("as of"), 分别 / 各自 / それぞれ ("respectively") are fillers of the engine; a fresh ``domain init`` folder
reads 比重 and 所占比例 as a share, 比上年 as year over year and 各季度 as the quarters added up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.qa.answer import answer_question
from ragspine.qa.slots import parse_slots
from tests.unit.qa.derived.statement_set import finance_domain, statement_fact, statement_facts, statement_qa


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finance_domain(tmp_path_factory.mktemp("finance") / "domain")


@pytest.mark.parametrize("question", ["截至2024年12月31日的资产总计是多少", "2024年の売上高と営業利益はそれぞれいくらか",
                                      "2024年营业收入和营业利润分别是多少", "2024年营业收入和营业利润各自是多少"])
def test_as_of_and_respectively_are_no_names(folder: Path, question: str) -> None:
    parsed = parse_slots(question, glossary=statement_qa(folder, statement_facts()).glossary)
    assert parsed.unknown_names == () and parsed.metrics


def _ask(folder: Path, question: str) -> str:
    north = [statement_fact("REVENUE", year, value, entity="EXAMPLE_NORTH", source_locator=f"table=2,row=North,col={year}")
             for year, value in (("2024", 1200), ("2023", 1000))]
    return answer_question(question, qa=statement_qa(folder, [*statement_facts(), *north])).answer


def test_a_share_asked_as_bizhong_is_computed(folder: Path) -> None:
    assert "占集团（EXAMPLE_GROUP）的 60.0%（计算自：" in _ask(folder, "2024年北区营业收入占集团营业收入的比重是多少")


def test_bi_shang_nian_asks_the_change_from_the_year_before(folder: Path) -> None:
    assert "FY2024 较 FY2023 增加 200 EUR_M" in _ask(folder, "2024年北区营业收入比上年增加多少")


def test_debt_to_equity_ratio_written_without_hyphens_is_one_metric(folder: Path) -> None:
    answer = _ask(folder, "What is the debt to equity ratio in 2024?")
    assert "debt-to-equity ratio (DEBT_TO_EQUITY): 1.00 TIMES" in answer, answer
