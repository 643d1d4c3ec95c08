"""Whose figures a table states: another company named in its title or sentence is never the home group.

A title leading with a company's name and then the kind of document ("Kaede Optics Co., Ltd. -
Summary of results, FY2025") names that company; the home company's own name with its legal
form ("Minori Foods Co., Ltd.") is the home entity; a home-group word the glossary lists
(連結, consolidated) in a sentence about another company describes that company's figures.
"""

from __future__ import annotations

import pytest
import yaml

from ragspine.facts.glossary import Glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import GLOSSARY


def _glossary(end_month: int = 3) -> Glossary:
    raw = yaml.safe_load(GLOSSARY)
    raw["entities"]["MINORI_GROUP"]["aliases"] += ["連結", "consolidated"]
    raw["fiscal_year"]["end_month"] = end_month
    return Glossary.from_mapping(raw)


def _facts(text: str, glossary: Glossary | None = None) -> list[Fact]:
    doc = parse_document(text.encode(), filename="doc.md", doc_id="doc.md", max_bytes=1_000_000)
    return list(extract_facts(doc, glossary=glossary or _glossary(), source_file_hash="sha256:00").facts)


_TABLE = "| (¥ million) | FY2024 | FY2025 |\n|---|---:|---:|\n| Net sales | 31,200 | 33,900 |\n"


@pytest.mark.parametrize("title", ["Kaede Optics Co., Ltd. - Summary of results, FY2025",
                                   "Kaede Optics Co., Ltd.: Results overview", "Kaede Optics Inc. | Annual report"])
def test_a_title_leading_with_another_company_files_its_table_under_that_company(title: str) -> None:
    facts = _facts(f"# {title}\n\nThe company reports its results.\n\n{_TABLE}")
    assert {(f.entity, f.period, f.value) for f in facts} == {("company:kaede optics", "2024", 31200),
                                                             ("company:kaede optics", "2025", 33900)}


def test_the_home_companys_own_name_with_its_legal_form_is_the_home_entity() -> None:
    facts = _facts(f"# Minori Foods Co., Ltd. - Key figures FY2025\n\nMinori Foods makes noodles.\n\n{_TABLE}")
    assert {f.entity for f in facts} == {"MINORI_GROUP"}


@pytest.mark.parametrize("sentence", ["楓光学株式会社の2025年3月期の連結業績は以下のとおりです。",
                                      "Kaede Optics Inc. consolidated results for FY2025 were as follows:"])
def test_a_home_group_word_in_a_sentence_about_another_company_is_that_companys(sentence: str) -> None:
    table = "| 項目 | 金額(百万円) |\n|---|---:|\n| 売上高 | 33,900 |\n"
    facts = _facts(f"# Results\n\n{sentence}\n\n{table}")
    assert len(facts) == 1
    assert facts[0].entity.startswith("company:") and facts[0].value == 33900


@pytest.mark.parametrize(("end_month", "periods"), [(3, {"2024", "2025"}), (12, {"2023", "2024"})])
def test_a_year_named_by_its_start_is_the_fiscal_year_it_begins(end_month: int, periods: set[str]) -> None:
    """2024年度 runs from April 2024 to March 2025 under a March year end: FY2025, named by its end."""
    table = "（単位：百万円）\n\n| 項目 | 2023年度 | 2024年度 |\n|---|---:|---:|\n| 売上高 | 196,850 | 214,300 |\n"
    facts = _facts(f"# 業績推移\n\n{table}", _glossary(end_month))
    assert {f.period for f in facts} == periods
    assert next(f for f in facts if f.value == 214300).period == max(periods)


@pytest.mark.parametrize(("rows", "group"), [
    ("| Wholesale | 16.8 |\n| Total | 16.8 |\n", None),  # one of the group's two segments: no group figure
    ("| Wholesale | 16.8 |\n| Retail | 10.3 |\n| Total | 27.1 |\n", 27.1),
])
def test_a_total_of_some_of_a_groups_parts_is_no_figure_of_the_group(rows: str, group: float | None) -> None:
    table = f"Net sales by segment, FY2025 (JPY billion)\n\n| Segment | FY2025 |\n|---|---:|\n{rows}"
    facts = _facts(f"# Segments\n\n{table}")
    assert ("MINORI_WHOLESALE", 16.8) in {(f.entity, f.value) for f in facts}
    assert [f.value for f in facts if f.entity == "MINORI_GROUP"] == ([group] if group else [])
