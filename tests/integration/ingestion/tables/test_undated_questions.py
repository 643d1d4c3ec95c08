"""Tables stating no period, asked through ``ragspine ingest`` and ``ragspine ask``.

An intangible-assets table and an aging schedule say nowhere which period they are of: their
figures are undated facts. A question naming no period is answered from the cell and told the
document states no period for it; a question naming a year, a date or a relative period never
gets such a figure, and none is summed with another. A table dated once by a day inside the
fiscal year (``As of September 30, 2019`` under a December year) is undated too, and the answer
gives that day rather than saying the document states none.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

INTANGIBLES = """\
# Intangible assets acquired

(in thousands)

| | Useful life (in years) | Fair value amount |
| --- | --- | --- |
| Customer relationships | 7.0 | 4,215 |
| Trademarks and trade names | 5.0 | 1,325 |
"""

AGING = """\
# Trade receivables by age

(in thousands)

| | Current | 1–90 days past due | Total |
| --- | --- | --- | --- |
| Gross carrying amount | 8,412 | 1,377 | 9,789 |
| Loss allowance | 84 | 69 | 153 |
"""

SEGMENTS = """\
# Segment results

| (in thousands) | 2019 | 2018 |
| --- | --- | --- |
| Loss allowance | 150 | 131 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"intangibles.md": INTANGIBLES, "aging.md": AGING})


def test_a_question_naming_no_period_gets_the_undated_figure_and_is_told_so(asked: None) -> None:
    answer = cli_answer("What was the fair value amount of trademarks and trade names?")
    assert ": 1325" in answer and "intangibles.md · table=1,row=Trademarks and trade names,col=Fair value amount" in answer
    assert "the document states no period for this figure" in answer, answer
    assert "last completed fiscal year" not in answer and "in FY2024" not in answer, answer  # no other year offered


def test_an_aging_bucket_is_part_of_the_rows_name(asked: None) -> None:
    answer = cli_answer("What was the gross carrying amount of current receivables?")
    assert ": 8412" in answer and "col=Current" in answer and "no period" in answer, answer


@pytest.mark.parametrize("question", [
    "What was the fair value amount of trademarks and trade names in 2019?",
    "What was the fair value amount of trademarks and trade names as of December 31, 2024?",
    "What was the fair value amount of trademarks and trade names last year?",
])
def test_a_question_naming_a_period_never_gets_an_undated_figure(asked: None, question: str) -> None:
    answer = cli_answer(question)
    assert "1325" not in answer, answer


def test_rows_of_one_undated_column_are_summed_each_cited_with_no_period(asked: None) -> None:
    answer = cli_answer("What is the sum of the fair value amount of customer relationships and trademarks and trade names?")
    # the two cells share the column, so they share its (unstated) period: the sum is theirs, never a year's
    assert ": 5540 K（计算自：intangibles.md · table=1,row=Customer relationships,col=Fair value amount；" \
        "intangibles.md · table=1,row=Trademarks and trade names,col=Fair value amount）" in answer, answer
    assert answer.count("(the document states no period for this figure)") == 2, answer
    assert "FY2024" not in answer.split("\n")[0], answer


def test_a_dated_figure_is_not_replaced_by_an_undated_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"aging.md": AGING, "segments.md": SEGMENTS}):
        answer = cli_answer("What was the loss allowance in 2019?")
        assert ": 150" in answer and "153" not in answer, answer


JA_INTANGIBLES = "# 無形資産の内訳\n\n単位：百万円\n\n| 項目 | 公正価値 |\n| --- | --- |\n| 商標権 | 25 |\n| 顧客関係 | 215 |\n"
ZH_INTANGIBLES = "# 无形资产明细\n\n单位：百万元\n\n| 项目 | 公允价值 |\n| --- | --- |\n| 商标 | 31 |\n| 客户关系 | 270 |\n"


@pytest.mark.parametrize(("question", "figure", "notice"), [
    ("商標権の公正価値はいくらですか？", "25 JPY_M", "資料にはこの数値の対象期間が記載されていません"),
    ("商标的公允价值是多少？", "31 CNY_M", "文件未注明该数值所属的期间"),
])
def test_the_notice_is_in_the_questions_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, question: str,
                                                  figure: str, notice: str) -> None:
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"ja.md": JA_INTANGIBLES, "zh.md": ZH_INTANGIBLES}):
        answer = cli_answer(question)
        assert figure in answer and notice in answer, answer


ADOPTION = """\
# Effect of the new revenue standard

(in thousands)

| | As of September 30, 2019 | |
| --- | --- | --- |
| | As reported | Adjustments |
| Deferred revenue | 2,426 | (194) |
"""


@pytest.mark.parametrize(("question", "said"), [
    ("What was the as reported deferred revenue?", "the document dates this figure September 30, 2019, which is not a "
                                                   "fiscal year end"),
    ("as reported deferred revenue是多少？", "文件注明该数值的日期为2019年9月30日，该日期并非财政年度末"),
    ("as reported deferred revenueはいくらですか？", "資料はこの数値の日付を2019年9月30日としていますが、決算期末ではありません"),
])
def test_a_figure_its_table_dates_inside_the_year_is_given_with_that_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, question: str, said: str) -> None:
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"adoption.md": ADOPTION}):
        answer = cli_answer(question)
        assert "2426" in answer and "col=As of September 30 2019/As reported,date=2019-09-30" in answer, answer
        assert said in answer and "no period" not in answer and "未注明" not in answer, answer
        assert "2426" not in cli_answer("What was the as reported deferred revenue in 2019?")  # still no year's figure
