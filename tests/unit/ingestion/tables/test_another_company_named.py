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
