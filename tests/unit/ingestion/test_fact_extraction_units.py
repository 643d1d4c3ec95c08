"""Table reading rules on small hand-built blocks: orientation, labels, units, bad cells, merging."""

from __future__ import annotations

from ragspine.facts.glossary import Period
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts, primary_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.table_facts import DeclaredUnits, units_in
from tests.support.glossary import default_glossary


def _doc(*rows: tuple[str, ...], caption: str = "", heading: str = "", title: str = "Deck",
         refs: tuple[tuple[str, ...], ...] = ()) -> ParsedDocument:
    table = Block(BlockKind.TABLE, "t", "slide=2,table=1", (heading,) if heading else (), rows, refs, caption)
    return ParsedDocument("d.pptx", title, "application/x", (table,))


def _extract(doc: ParsedDocument) -> ExtractionResult:
    return extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")


def test_units_are_read_in_several_spellings() -> None:
    assert units_in("Unit: USD_M") == ["USD_M"]
    assert units_in("单位：百万美元") == ["USD_M"]
    assert units_in("In millions of CHF") == ["CHF_M"]
    assert units_in("CHF m") == ["CHF_M"]
    assert units_in("GROSS_MARGIN in %") == ["PCT"]
    assert units_in("STORE_COUNT in stores") == ["COUNT"]


def test_a_caption_scopes_units_to_the_metrics_it_names() -> None:
    declared = DeclaredUnits.read(["Unit: USD_M; GROSS_MARGIN in %; STORE_COUNT in stores"], default_glossary())
    assert declared.for_metric("REVENUE", "USD_M") == "USD_M"
    assert declared.for_metric("GROSS_MARGIN", "PCT") == "PCT"
    assert declared.for_metric("STORE_COUNT", "COUNT") == "COUNT"


def test_metric_rows_take_the_entity_from_the_title_and_keep_number_forms() -> None:
    result = _extract(_doc(("Metric", "FY2024", "2023年"), ("Revenue", "1,320", "7"), ("毛利率", "41.0%", ""),
                           heading="Hong Kong — key figures", caption="Unit: USD_M"))
    assert [(f.metric_code, f.entity, f.geography, f.channel, f.period, f.value, f.unit) for f in result.facts] == [
        ("REVENUE", "ACME_HK", "HK", "TOTAL", "2024", 1320, "USD_M"),
        ("REVENUE", "ACME_HK", "HK", "TOTAL", "2023", 7, "USD_M"),
        ("GROSS_MARGIN", "ACME_HK", "HK", "TOTAL", "2024", 41.0, "PCT"),
    ]
    assert result.facts[0].source_locator == "slide=2,table=1,row=Revenue,col=FY2024"
    assert isinstance(result.facts[2].value, float)


def test_periods_down_the_first_column_are_read_transposed() -> None:
    result = _extract(_doc(("Period", "REVENUE", "NET_PROFIT"), ("2024Q3", "322", "40.5"), heading="ACME_CN"))
    assert [(f.metric_code, f.period_type, f.period, f.value, f.source_locator) for f in result.facts] == [
        ("REVENUE", "Q", "2024Q3", 322, "slide=2,table=1,row=2024Q3,col=REVENUE"),
        ("NET_PROFIT", "Q", "2024Q3", 40.5, "slide=2,table=1,row=2024Q3,col=NET_PROFIT"),
    ]


def test_entity_channel_rows_take_the_metric_from_the_title_and_cells_use_their_refs() -> None:
    result = _extract(_doc(("Entity/Channel", "FY2025"), ("日本/线上", "188.2"), heading="Revenue by channel",
                           refs=(("A1", "B1"), ("A2", "B2"))))
    (fact,) = result.facts
    assert (fact.metric_code, fact.entity, fact.channel, fact.value) == ("REVENUE", "ACME_JP", "ONLINE", 188.2)
    assert fact.source_locator == "slide=2,table=1,cell=B2,row=日本/线上,col=FY2025"


def test_bad_cells_are_warnings_and_a_row_the_glossary_does_not_name_is_a_metric_of_its_own() -> None:
    result = _extract(_doc(("Metric", "FY2024", "FY2023"), ("REVENUE", "n/a", "about 12"), ("Headcount", "5", "6"),
                           heading="ACME_JP"))
    assert [(f.metric_code, f.entity, f.period, f.value) for f in result.facts] == [
        ("label:headcount", "ACME_JP", "2024", 5), ("label:headcount", "ACME_JP", "2023", 6)]
    assert any("'about 12' is not a number" in w for w in result.warnings)


def test_labels_under_a_header_naming_something_else_than_line_items_stay_unread() -> None:
    result = _extract(_doc(("Name", "FY2024"), ("Headcount", "5"), heading="ACME_JP"))
    assert result.facts == () and result.warnings


def test_a_stated_unit_other_than_the_glossary_one_is_kept_as_stated_not_converted() -> None:
    result = _extract(_doc(("Metric", "FY2024"), ("REVENUE", "1320000"), heading="ACME_CN", caption="Unit: USD thousand"))
    assert [(f.value, f.unit) for f in result.facts] == [(1320000, "USD_K")]


def test_a_percentage_unit_for_a_money_metric_skips_the_row() -> None:
    result = _extract(_doc(("Metric", "FY2024 (%)"), ("REVENUE", "12.5"), heading="ACME_CN"))
    assert result.facts == ()
    assert "stated in PCT but REVENUE is kept in USD_M" in result.warnings[0]


def test_a_table_without_a_recognisable_metric_is_one_warning() -> None:
    assert _extract(_doc(("Name", "Age"), ("Bob", "4"))).warnings[0].endswith(
        "no row or column names a metric, entity, channel or period the glossary knows; table skipped")
    result = _extract(_doc(("Name", "FY2024"), ("Bob", "4"), ("Ann", "5")))
    assert result.facts == () and len(result.warnings) == 1 and "no row names" in result.warnings[0]


def _fact(period: str, value: int, doc: str) -> Fact:
    return Fact("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", period, value, "USD_M", doc, "slide=2")


def test_primary_facts_prefer_the_owner_then_the_first_later_report_and_flag_conflicts() -> None:
    fy24 = ExtractionResult("fy24", (_fact("2023", 1, "fy24"), _fact("2024", 2, "fy24")), (), Period("FY", "2024"))
    fy25 = ExtractionResult("fy25", (_fact("2023", 9, "fy25"), _fact("2024", 3, "fy25"), _fact("2025", 4, "fy25")),
                            (), Period("FY", "2025"))
    merged = primary_facts([fy25, fy24])
    assert sorted((f.period, f.source_doc_id) for f in merged.facts) == [
        ("2023", "fy24"), ("2024", "fy24"), ("2025", "fy25")]
    assert len(merged.warnings) == 2 and all("kept fy24" in w for w in merged.warnings)
