"""The finance pack names its line items as an A-share (CSRC) report writes them.

Every such report's key table ("主要会计数据") says 归属于上市公司股东的净利润 and
经营活动产生的现金流量净额; a domain that includes the pack reads them as its own metrics.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.glossary import SlotKind
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.finance_domain import finance_domain


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return finance_domain(tmp_path)


@pytest.mark.parametrize(("words", "code"), [
    ("归属于上市公司股东的净利润", "NET_INCOME_OWNERS"), ("归属于母公司所有者的净利润", "NET_INCOME_OWNERS"),
    ("经营活动产生的现金流量净额", "OPERATING_CASH_FLOW"), ("投资活动产生的现金流量净额", "INVESTING_CASH_FLOW"),
    ("筹资活动产生的现金流量净额", "FINANCING_CASH_FLOW"), ("归属于上市公司股东的净资产", "TOTAL_EQUITY"),
    ("归属于母公司所有者权益合计", "TOTAL_EQUITY"), ("所有者权益合计", "NET_ASSETS"),
    ("加权平均净资产收益率", "ROE"), ("营业总收入", "REVENUE"),
])
def test_a_share_wordings_name_the_pack_items(folder: Path, words: str, code: str) -> None:
    assert read_glossary(folder / GLOSSARY).normalize(SlotKind.METRIC, words) == code


def test_a_key_figures_table_in_a_share_wording_gives_the_pack_metrics(folder: Path) -> None:
    text = ("# 2024年年度报告\n\n主要会计数据（单位：万元）\n\n"
            "| 主要会计数据 | 2024年 | 2023年 |\n|---|---:|---:|\n"
            "| 营业总收入 | 8,120.50 | 7,300.10 |\n| 归属于上市公司股东的净利润 | 612.30 | 540.20 |\n"
            "| 经营活动产生的现金流量净额 | 930.00 | 801.40 |\n")
    doc = parse_document(text.encode(), filename="r.md", doc_id="r.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=read_glossary(folder / GLOSSARY), source_file_hash="sha256:00").facts
    assert {(f.metric_code, f.period, f.value) for f in facts if f.period == "2024"} == {
        ("REVENUE", "2024", 8120.5), ("NET_INCOME_OWNERS", "2024", 612.3), ("OPERATING_CASH_FLOW", "2024", 930)}
