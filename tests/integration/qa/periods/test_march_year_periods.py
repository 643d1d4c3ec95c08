"""A company whose fiscal year ends in March, asked in the period words its users write (``ragspine ask``).

2024年度 is April 2024 to March 2025 (2025年3月期, FY2025 for a glossary naming years by their end);
"April-June 2024", 2024年4～6月 and "the quarter ended June 30, 2024" are its first quarter
(2025Q1). Each is answered with that period's figure and the reading said; months that are no
fiscal quarter are asked back, never answered with a year's figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings
from tests.support.domain_env import serving_domain
from tests.support.process_caches import close_services

runner = CliRunner()

GLOSSARY = """\
version: star-glossary-1
home_entity: STAR_GROUP
default_channel: TOTAL
fiscal_year: {end_month: 3, named_by: end}
currency: JPY

units:
  JPY_M:
    names: {en: JPY millions, zh: 百万日元, ja: 百万円}
    aliases: [JPY million, ¥ million, 百万円]
    currency: JPY
  JPY:
    names: {en: yen, zh: 日元, ja: 円}
    aliases: [yen, 円]
    currency: JPY

metrics:
  NET_SALES:
    unit: JPY_M
    additive: true
    names: {en: net sales, zh: 销售额, ja: 売上高}
    aliases: [net sales, 売上高, 销售额]
  DPS:
    unit: JPY
    names: {en: dividends per share, zh: 每股股利, ja: 1株当たり配当金}
    aliases: [dividends per share, dividends per share (yen), 1株当たり配当金]

levels:
  group:
    names: {en: group, zh: 集团, ja: グループ}

entities:
  STAR_GROUP:
    level: group
    names: {en: Star Group, zh: 星集团, ja: 星グループ}
    aliases: [group, 全社]

channels:
  TOTAL:
    names: {en: total, zh: 合计, ja: 合計}
    aliases: [all channels, 合计, 合計]
"""

DOCUMENT = """\
# Star Group results

Net sales by period (¥ million).

| (¥ million) | Q1 FY2025 | Q2 FY2025 | Q3 FY2025 | Q4 FY2025 | FY2024 | FY2025 |
|---|---|---|---|---|---|---|
| Net sales | 50,200 | 52,900 | 54,600 | 56,600 | 196,850 | 214,300 |

| | FY2024 | FY2025 |
|---|---|---|
| Dividends per share (yen) | 36 | 40 |
"""


@pytest.fixture
def star_domain(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A domain folder from ``ragspine domain init`` for a March year, with one results document ingested."""
    folder = tmp_path / "star"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    (folder / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    checked = runner.invoke(app, ["domain", "check", str(folder)])
    assert checked.exit_code == 0, checked.output
    for _ in serving_domain(monkeypatch, folder):
        document = tmp_path / "Star_Results.md"
        document.write_text(DOCUMENT, encoding="utf-8")
        ingested = runner.invoke(app, ["ingest", str(document)], env={"COLUMNS": "200"})
        assert ingested.exit_code == 0, ingested.output
        close_services()
        yield folder


def _ask(question: str) -> str:
    return runner.invoke(app, ["ask", question], env={"COLUMNS": "200"}).output


@pytest.mark.parametrize(("question", "figure", "reading"), [
    ("2024年度の売上高は", "214300", "「2024年度」をFY2025 (2024-04 – 2025-03)と解釈"),
    ("What were net sales in April-June 2024?", "50200", "read 'April-June 2024' as 2025Q1 (2024-04 – 2024-06)"),
    ("2024年4-6月期の売上高は", "50200", "2025Q1 (2024-04 – 2024-06)"),
    ("net sales in the quarter ended December 31, 2024", "54600", "2025Q3 (2024-10 – 2024-12)"),
    ("2024年度第3四半期の売上高は", "54600", "2025Q3 (2024-10 – 2024-12)"),
])
def test_period_words_are_answered_with_the_period_they_name_and_say_so(star_domain: Path, question: str,
                                                                        figure: str, reading: str) -> None:
    answer = _ask(question)
    assert f"{figure} JPY_M" in answer
    assert reading in answer
    assert "196850" not in answer and ("214300" not in answer or figure == "214300")  # never another year's


def test_months_that_are_no_fiscal_quarter_are_asked_back(star_domain: Path) -> None:
    answer = _ask("What were net sales in May-July 2024?")
    assert "Could not recognise the period “May-July 2024”" in answer
    assert "JPY_M" not in answer


@pytest.mark.parametrize("question", ["What was the dividend per share in FY2024?",
                                      "What were the dividends per share in FY2024?"])
def test_an_amount_per_share_is_read_in_either_number_and_asks_no_share(star_domain: Path, question: str) -> None:
    answer = _ask(question)
    assert "FY2024 dividends per share (DPS): 36 （来源：Star_Results.md" in answer
    assert "no share is computed" not in answer and "outside" not in answer
