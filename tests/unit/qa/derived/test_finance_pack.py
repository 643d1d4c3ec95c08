"""The shipped finance pack and ``include:``: a domain folder takes the pack's line items and ratios."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.authoring.check import check_domain
from ragspine.domain.files import GLOSSARY, read_file
from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.packs import pack_path, shipped_packs
from ragspine.facts.glossary import SlotKind
from tests.support.finance_domain import finance_domain

RATIOS = ("GROSS_MARGIN", "OPERATING_MARGIN", "NET_MARGIN", "ROE", "ROA", "ASSET_TURNOVER", "FINANCIAL_LEVERAGE",
          "ROE_DUPONT", "CURRENT_RATIO", "QUICK_RATIO", "DEBT_TO_EQUITY", "EQUITY_RATIO", "INVENTORY_TURNOVER",
          "DSO", "DIO", "DPO", "INTEREST_COVERAGE", "EBITDA", "FREE_CASH_FLOW", "PAYOUT_RATIO")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``ragspine domain init`` plus ``include: [finance]``."""
    return finance_domain(tmp_path)


def test_finance_is_a_shipped_pack() -> None:
    assert "finance" in shipped_packs()
    assert pack_path("../acme/glossary") is None and pack_path("nothing") is None


def test_a_fresh_folder_including_the_pack_passes_the_check(folder: Path) -> None:
    assert check_domain(folder) == []


def test_the_pack_brings_every_standard_ratio_with_a_formula_in_three_languages(folder: Path) -> None:
    glossary = read_glossary(folder / GLOSSARY)
    for code in RATIOS:
        assert code in glossary.formulas, code
        assert set(glossary.term(SlotKind.METRIC, code).names) == {"en", "zh", "ja"}, code
    assert glossary.formulas["FREE_CASH_FLOW"].inputs == ("OPERATING_CASH_FLOW", "CAPEX")


@pytest.mark.parametrize(("words", "code"), [
    ("purchases of property, plant and equipment", "CAPEX"), ("capex", "CAPEX"), ("自己資本比率", "EQUITY_RATIO"),
    ("販売費及び一般管理費", "SGA"), ("归母净利润", "NET_INCOME_OWNERS"), ("quick ratio", "QUICK_RATIO"),
    ("売上原価", "COST_OF_SALES"), ("资产负债率", "DEBT_RATIO"), ("DSO", "DSO"), ("配当性向", "PAYOUT_RATIO"),
    # a J-GAAP statement in English writes the line item without "the"
    ("Net income attributable to owners of parent", "NET_INCOME_OWNERS"),
    ("Profit attributable to owners of parent", "NET_INCOME_OWNERS"),
])
def test_analysts_words_name_the_pack_items(folder: Path, words: str, code: str) -> None:
    assert read_glossary(folder / GLOSSARY).normalize(SlotKind.METRIC, words) == code


def test_the_domains_own_entry_wins_and_pack_amounts_take_the_domains_money_unit(folder: Path) -> None:
    glossary = read_glossary(folder / GLOSSARY)
    assert glossary.term(SlotKind.METRIC, "REVENUE").names["zh"] == "营业收入"
    assert glossary.normalize(SlotKind.METRIC, "turnover") == "REVENUE"  # the template's alias, kept
    assert glossary.term(SlotKind.METRIC, "OPERATING_MARGIN").unit == "PCT"
    assert read_file(folder / GLOSSARY, GLOSSARY)["metrics"]["OPERATING_MARGIN"]["names"]["zh"] == "经营利润率"
    assert glossary.formulas["OPERATING_MARGIN"].text == "OPERATING_INCOME / REVENUE"  # the pack fills it in
    assert glossary.term(SlotKind.METRIC, "TOTAL_ASSETS").unit == "EUR_M"  # the template keeps money in EUR_M


def test_an_unknown_pack_is_named_with_the_shipped_ones(folder: Path) -> None:
    _edit(folder / "domain.yaml", "include: [finance]", "include: [finanse]")
    problems = check_domain(folder)
    assert [(p.file, p.field, p.message) for p in problems] == [
        ("domain.yaml", "include[0]", "no pack named 'finanse': the shipped packs are finance")]
    assert problems[0].line is not None


class TestFormulaProblemsNameTheirLine:
    def test_an_unknown_input(self, folder: Path) -> None:
        _edit(folder / GLOSSARY, "    names: {en: operating margin,",
              "    formula: OPERATING_PROFITS / REVENUE\n    names: {en: operating margin,")
        problems = check_domain(folder)
        assert [(p.file, p.field) for p in problems] == [(GLOSSARY, "metrics.OPERATING_MARGIN.formula")]
        assert "OPERATING_PROFITS, which is not a metric" in problems[0].message
        assert problems[0].line is not None

    def test_a_cycle(self, folder: Path) -> None:
        _edit(folder / GLOSSARY, "    names: {en: operating margin,",
              "    formula: OPERATING_MARGIN * 2\n    names: {en: operating margin,")
        assert [p.message for p in check_domain(folder)] == [
            "the formula depends on itself: OPERATING_MARGIN -> OPERATING_MARGIN"]

    def test_a_unit_mismatch(self, folder: Path) -> None:
        _edit(folder / GLOSSARY, "    names: {en: operating margin,",
              "    formula: REVENUE + OPERATING_INCOME\n    names: {en: operating margin,")
        assert [p.message for p in check_domain(folder)] == [
            "the formula gives money but the metric's unit PCT measures a pure number: change the unit or the formula"]

    def test_code_in_a_formula_is_refused(self, folder: Path) -> None:
        _edit(folder / GLOSSARY, "    names: {en: operating margin,",
              "    formula: __import__('os').getcwd()\n    names: {en: operating margin,")
        problems = check_domain(folder)
        assert len(problems) == 1 and "not allowed" in problems[0].message
