"""A company the glossary lists is its entity, whatever legal-form suffix the text writes it with.

A statement's lead sentence names the company ("キリンホールディングス(IFRS適用)の2024年3月期…",
"Minori Foods Holdings Inc. reported…"); when the glossary lists that company, its figures are
filed under the glossary's entity, never under a ``company:…`` code of the same name.
"""

from __future__ import annotations

import pytest
import yaml

from ragspine.facts.glossary import Glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import GLOSSARY


def _glossary(alias: str) -> Glossary:
    raw = yaml.safe_load(GLOSSARY)
    raw["entities"]["LISTED"] = {"names": {"ja": alias}, "aliases": [alias]}
    raw["home_entity"] = "LISTED"
    return Glossary.from_mapping(raw)


@pytest.mark.parametrize(("alias", "written"), [
    ("キリンホールディングス", "キリンホールディングス"),
    ("キリンホールディングス", "キリンホールディングス株式会社"),
    ("アステラス製薬", "アステラス製薬"),
    ("住友電気工業", "住友電気工業"),
    ("Minori Foods Holdings", "Minori Foods Holdings Inc."),
])
def test_the_company_the_glossary_lists_is_its_entity(alias: str, written: str) -> None:
    text = (f"{written}(IFRS適用)の2024年3月期における損益計算書の主要項目を以下に示す。\n\n"
            "| 項目 | 金額(百万円) |\n| --- | --- |\n| 売上高 | 2,134,393 |\n| 営業利益 | 204,129 |\n")
    doc = parse_document(text.encode(), filename="s.md", doc_id="s.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=_glossary(alias), source_file_hash="sha256:00").facts
    assert {(f.metric_code, f.entity, f.period, f.value) for f in facts} == {
        ("NET_SALES", "LISTED", "2024", 2134393), ("OPERATING_INCOME", "LISTED", "2024", 204129)}


def test_a_company_holding_a_listed_name_is_still_another_company() -> None:
    text = ("キリンビール販売株式会社の2024年3月期における損益計算書の主要項目を以下に示す。\n\n"
            "| 項目 | 金額(百万円) |\n| --- | --- |\n| 売上高 | 1,000 |\n")
    doc = parse_document(text.encode(), filename="s.md", doc_id="s.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=_glossary("キリン"), source_file_hash="sha256:00").facts
    assert {f.entity for f in facts} == {"company:キリンビール販売"}
