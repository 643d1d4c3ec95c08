"""A table's total of some of a parent's children is never filed as the parent's figure.

"Overseas net sales by region" lists three of the group's four regions and a ``Total``: that
total is the overseas figure, and a question about the group's net sales must never get it.
"""

from __future__ import annotations

import pytest
import yaml

from ragspine.facts.glossary import Glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import GLOSSARY

_REGIONS = {"JAPAN": "Japan", "CHINA": "China", "NORTH_AMERICA": "North America", "EUROPE": "Europe"}


def _glossary() -> Glossary:
    raw = yaml.safe_load(GLOSSARY)
    for code, name in _REGIONS.items():
        raw["entities"][code] = {"parent": "MINORI_GROUP", "level": "region", "names": {"en": name},
                                 "aliases": [name.lower()]}
    raw["entities"]["MINORI_WHOLESALE"]["level"] = "segment"
    raw["entities"]["MINORI_RETAIL"]["level"] = "segment"
    return Glossary.from_mapping(raw)


def _read(caption: str, rows: list[tuple[str, str]]) -> tuple[set[tuple[str, str, float]], list[str]]:
    table = "| Region | FY2025 |\n|---|---:|\n" + "".join(f"| {label} | {value} |\n" for label, value in rows)
    text = f"# Sales by region\n\n{caption}\n\n{table}"
    doc = parse_document(text.encode(), filename="r.md", doc_id="r.md", max_bytes=100_000)
    result = extract_facts(doc, glossary=_glossary(), source_file_hash="sha256:00")
    return {(f.metric_code, f.entity, f.value) for f in result.facts}, list(result.warnings)


def test_the_total_of_three_of_four_regions_is_not_the_groups_net_sales() -> None:
    facts, warnings = _read("Net sales by region, FY2025 (¥ million)",
                            [("China", "51,700"), ("North America", "38,900"), ("Europe", "27,300"), ("Total", "117,900")])
    assert facts == {("NET_SALES", "CHINA", 51700), ("NET_SALES", "NORTH_AMERICA", 38900),
                     ("NET_SALES", "EUROPE", 27300)}
    assert any("not all the parts of MINORI_GROUP" in w for w in warnings)


def test_a_caption_saying_overseas_keeps_the_total_off_the_group() -> None:
    facts, warnings = _read("Overseas net sales by segment, FY2025 (¥ million)",
                            [("Wholesale", "51,700"), ("Retail", "38,900"), ("Total", "90,600")])
    assert ("NET_SALES", "MINORI_GROUP", 90600) not in facts
    assert ("NET_SALES", "MINORI_WHOLESALE", 51700) in facts
    assert any("'overseas'" in w for w in warnings)


@pytest.mark.parametrize("caption", ["Net sales by region, FY2025 (¥ million)",
                                     "Segment and other information, FY2025 (¥ million)"])
def test_the_total_of_every_region_is_the_groups_figure(caption: str) -> None:
    facts, _ = _read(caption,
                     [("Japan", "96,400"), ("China", "51,700"), ("North America", "38,900"), ("Europe", "27,300"),
                      ("Total", "214,300")])
    assert ("NET_SALES", "MINORI_GROUP", 214300) in facts


def test_a_row_naming_the_group_keeps_its_figure() -> None:
    facts, _ = _read("Net sales by region, FY2025 (¥ million)",
                     [("China", "51,700"), ("Europe", "27,300"), ("Group total", "214,300")])
    assert ("NET_SALES", "MINORI_GROUP", 214300) in facts
