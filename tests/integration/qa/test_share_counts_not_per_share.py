"""A question asking a number of shares is never answered with a row that is an amount per share.

"The weighted average number of shares used in basic earnings per share" asks the count basic EPS
divides by. Its words name the EPS row too; where the documents state no count of shares, the EPS
figure (pence, yuan or yen per share) is never given for it: the question is asked back. Where a
count row is named beside the EPS words that only say which figure it serves, the count row is read.
Questions asking the per-share figure itself keep it. English, Chinese and Japanese.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

PER_SHARE_ONLY = {
    "harrow.md": """\
# Harrow Foods annual report

Earnings per share (pence per share):

| | 2024 | 2023 |
| --- | --- | --- |
| Basic earnings per share | 41.2 | 38.5 |
| Diluted earnings per share | 40.8 | 38.1 |
""",
    "hualing.md": """\
# 华岭食品年度报告

每股收益（元/股）：

| | 2024 | 2023 |
| --- | --- | --- |
| 基本每股收益 | 0.62 | 0.55 |
| 稀释每股收益 | 0.61 | 0.54 |
""",
    "hokurei.md": """\
# 北嶺食品 有価証券報告書

1株当たり情報（円）：

| | 2024 | 2023 |
| --- | --- | --- |
| 1株当たり当期純利益 | 125.3 | 118.9 |
| 潜在株式調整後1株当たり当期純利益 | 124.1 | 117.6 |
""",
}

WITH_COUNTS = {
    "harrow.md": """\
# Harrow Foods annual report

Earnings per share (pence per share):

| | 2024 | 2023 |
| --- | --- | --- |
| Basic earnings per share | 41.2 | 38.5 |

Shares (millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Weighted average number of ordinary shares | 1,250.4 | 1,248.9 |
""",
    "hualing.md": """\
# 华岭食品年度报告

每股收益（元/股）：

| | 2024 | 2023 |
| --- | --- | --- |
| 基本每股收益 | 0.62 | 0.55 |

股本（百万股）：

| | 2024 | 2023 |
| --- | --- | --- |
| 加权平均普通股股数 | 3,120 | 3,080 |
""",
    "hokurei.md": """\
# 北嶺食品 有価証券報告書

1株当たり情報（円）：

| | 2024 | 2023 |
| --- | --- | --- |
| 1株当たり当期純利益 | 125.3 | 118.9 |

株式数（千株）：

| | 2024 | 2023 |
| --- | --- | --- |
| 期中平均株式数 | 48,210 | 48,050 |
""",
}

COUNT_ASKED = [
    ("What was the weighted average number of shares used in basic earnings per share in 2024?", "41.2"),
    ("What was the number of shares used to calculate diluted earnings per share in 2023?", "38.1"),
    ("2024年基本每股收益所用的加权平均股数是多少？", "0.62"),
    ("2024年の1株当たり当期純利益の算定に用いた期中平均株式数は？", "125.3"),
]
PER_SHARE_ASKED = [
    ("What was the basic earnings per share in 2024?", "41.2"),
    ("2024年基本每股收益是多少？", "0.62"),
    ("2024年の1株当たり当期純利益は？", "125.3"),
]


@pytest.fixture(scope="class")
def per_share_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "per_share_only", PER_SHARE_ONLY)


@pytest.fixture(scope="class")
def with_counts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "with_counts", WITH_COUNTS)


@pytest.mark.usefixtures("per_share_only")
class TestNoCountStated:

    @pytest.mark.parametrize(("question", "per_share"), COUNT_ASKED)
    def test_a_count_asked_is_asked_back_not_given_the_per_share_figure(self, question: str, per_share: str) -> None:
        answer, status = service_answer(question)
        assert status is AnswerStatus.NEEDS_CLARIFICATION, answer
        assert per_share not in answer, answer

    @pytest.mark.parametrize(("question", "figure"), PER_SHARE_ASKED)
    def test_the_per_share_figure_asked_is_still_given(self, question: str, figure: str) -> None:
        answer, status = service_answer(question)
        assert status is AnswerStatus.FOUND and figure in answer, answer


@pytest.mark.usefixtures("with_counts")
class TestCountStated:
    @pytest.mark.parametrize(("question", "count", "per_share"), [
        ("What was the weighted average number of ordinary shares used in basic earnings per share in 2024?",
         "1250.4", "41.2"),
        ("2024年基本每股收益所用的加权平均普通股股数是多少？", "3120", "0.62"),
        ("2024年の1株当たり当期純利益の算定に用いた期中平均株式数は？", "48210", "125.3"),
    ])
    def test_the_count_row_named_is_read_alone(self, question: str, count: str, per_share: str) -> None:
        answer, status = service_answer(question)
        assert status is AnswerStatus.FOUND and count in answer, answer
        assert per_share not in answer, answer

    def test_a_count_not_named_is_offered_from_the_documents_rows(self) -> None:
        answer, status = service_answer("What was the weighted average number of shares used in basic earnings "
                                        "per share in 2024?")
        assert status is AnswerStatus.NEEDS_CLARIFICATION, answer
        assert "weighted average number of ordinary shares" in answer and "41.2" not in answer, answer
