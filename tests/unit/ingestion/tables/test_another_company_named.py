"""An affiliate's document is filed under the affiliate, never under the home group.

Its title leads with the company's name and goes on with the document's kind ("Kaede Optics
Co., Ltd. - Summary of results, FY2025"), or its sentence names the company beside a word the
glossary aliases to the group (``楓光学株式会社の2025年3月期の連結業績``, 連結 = consolidated).
"""

from __future__ import annotations

import yaml

from ragspine.facts.glossary import Glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import GLOSSARY


def _glossary() -> Glossary:
    raw = yaml.safe_load(GLOSSARY)
    raw["entities"]["MINORI_GROUP"]["aliases"] += ["consolidated", "連結"]
    raw["fillers"] = ["minori foods", "みのり食品"]
    return Glossary.from_mapping(raw)


def _entities(text: str) -> set[tuple[str, str, float]]:
    doc = parse_document(text.encode(), filename="k.md", doc_id="k.md", max_bytes=100_000)
    return {(f.metric_code, f.entity, f.value) for f in extract_facts(doc, glossary=_glossary(),
                                                                       source_file_hash="sha256:00").facts}


_TABLE = "| (¥ million) | FY2024 | FY2025 |\n|---|---:|---:|\n| Net sales | 31,200 | 33,900 |\n"
_JA_TABLE = "| 項目 | 金額(百万円) |\n|---|---:|\n| 売上高 | 33,900 |\n"


def test_a_title_leading_with_another_companys_name_files_its_figures_under_it() -> None:
    text = (f"# Kaede Optics Co., Ltd. - Summary of results, FY2025\n\n"
            f"Kaede Optics Co., Ltd. is an equity-method affiliate of Minori Foods (34% owned).\n\n{_TABLE}")
    assert {entity for _, entity, _ in _entities(text)} == {"company:kaede optics"}


def test_a_group_word_beside_another_companys_name_does_not_claim_its_table() -> None:
    text = f"# 楓光学株式会社\n\n楓光学株式会社の2025年3月期の連結業績は以下のとおりです。\n\n{_JA_TABLE}"
    assert _entities(text) == {("NET_SALES", "company:楓光学", 33900)}


def test_the_home_companys_own_consolidated_results_stay_the_groups() -> None:
    text = f"# 決算短信\n\nみのり食品株式会社の2025年3月期の連結業績は以下のとおりです。\n\n{_JA_TABLE}"
    assert _entities(text) == {("NET_SALES", "MINORI_GROUP", 33900)}


def test_the_home_companys_titled_report_stays_the_groups() -> None:
    text = f"# Minori Foods Co., Ltd. - Annual report 2025\n\nThe results are as follows.\n\n{_TABLE}"
    assert {entity for _, entity, _ in _entities(text)} == {"MINORI_GROUP"}


def _with_subsidiary() -> Glossary:
    raw = yaml.safe_load(GLOSSARY)
    raw["entities"]["KITA_LABS"] = {"parent": "MINORI_GROUP", "names": {"en": "Kita Labs"},
                                    "aliases": ["Kita Labs", "Kita Labs, Inc."]}
    return Glossary.from_mapping(raw)


def _filed(text: str, glossary: Glossary | None = None) -> tuple[set[str], list[str]]:
    doc = parse_document(text.encode(), filename="p.md", doc_id="p.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=glossary or _glossary(), source_file_hash="sha256:00")
    return {f.entity for f in result.facts}, result.warnings


def test_a_title_naming_a_company_with_a_comma_before_its_legal_form_files_under_it() -> None:
    text = (f"# Sorrel Systems, Inc. – Annual Report, Fiscal 2025\n\n"
            f"Sorrel Systems, Inc. is a maker of packaging lines.\n\n{_TABLE}")
    entities, warnings = _filed(text)
    assert entities == {"company:sorrel systems"}
    assert not any("assumed MINORI_GROUP" in w for w in warnings)


def test_a_first_sentence_opening_with_a_companys_name_names_the_document_under_a_generic_title() -> None:
    text = f"# Annual Report 2025\n\nSorrel Systems, Inc. is a maker of packaging lines.\n\n{_TABLE}"
    assert _filed(text)[0] == {"company:sorrel systems"}


def test_a_title_leading_with_a_name_its_first_sentence_takes_up_names_that_company() -> None:
    text = (f"# Tarn Microdevices: fiscal 2025 at a glance\n\n"
            f"Tarn Microdevices reported record sales for the year.\n\n{_TABLE}")
    assert _filed(text)[0] == {"company:tarn microdevices"}


def test_a_subsidiarys_press_release_is_filed_under_the_subsidiary_not_the_group() -> None:
    text = (f"# Kita Labs Reports Fiscal 2025 Results\n\n"
            f"Kita Labs, Inc. (a subsidiary of Minori Foods) today reported its results.\n\n"
            f"Figures are unaudited.\n\n{_TABLE}")
    entities, warnings = _filed(text, _with_subsidiary())
    assert entities == {"KITA_LABS"}
    assert not any("assumed" in w for w in warnings)
    assert any("KITA_LABS, the company its document states" in w for w in warnings)


def test_a_cover_line_stating_the_company_name_names_the_document() -> None:
    text = f"# 2025年年度报告摘要\n\n公司名称：青岚科技股份有限公司\n\n本报告摘要来自年度报告全文。\n\n{_JA_TABLE}"
    assert _filed(text)[0] == {"company:青岚科技"}


def test_the_home_companys_own_first_sentence_keeps_its_tables() -> None:
    text = f"# Annual Report 2025\n\nMinori Foods Co., Ltd. is a maker of noodles.\n\n{_TABLE}"
    assert _filed(text)[0] == {"MINORI_GROUP"}


_QUARTER_TABLE = "(in thousands of US dollars)\n\n| | Q3 FY2025 | Q3 FY2024 |\n|---|---:|---:|\n| Net sales | 3,841 | 3,390 |\n"


def test_quarters_of_a_company_whose_year_ends_in_another_month_are_not_the_glossarys_quarters() -> None:
    text = (f"# Kita Labs Reports Third Quarter Fiscal 2025 Results\n\n"
            f"Kita Labs, Inc. (fiscal year ending September 30) today reported results for its third quarter.\n\n"
            f"{_QUARTER_TABLE}")
    entities, warnings = _filed(text, _with_subsidiary())
    assert entities == set()
    assert any("quarter figures skipped" in w for w in warnings)


def test_quarters_of_a_document_on_the_glossarys_calendar_are_kept() -> None:
    text = (f"# Kita Labs Reports Third Quarter Fiscal 2025 Results\n\n"
            f"Kita Labs, Inc. (fiscal year ending March 31) today reported results for its third quarter.\n\n"
            f"{_QUARTER_TABLE}")
    assert _filed(text, _with_subsidiary())[0] == {"KITA_LABS"}
