"""A metric the caption names counts only where its name is not the tail of a longer item's name.

A table of years by quarters, or a lone total, names no metric in its rows or columns: its heading
says which figure it states. "Cost of revenue by quarter" or 营业外收入 contain the glossary's
revenue word but name another item: their figures are never revenue, so the table is skipped
(a "not found" instead of a wrong number), while "Revenue by quarter" and 分季度营业收入 still read.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.glossary import default_glossary
from tests.support.markdown_facts import markdown_table_facts

QUARTER_GRID = [["年度", "第一季度", "第二季度", "第三季度", "第四季度"],
                ["2024", "1,872", "2,095", "2,218", "2,466"],
                ["2023", "1,772", "1,995", "2,118", "2,366"]]
LATIN_QUARTER_GRID = [["", "Q1", "Q2", "Q3", "Q4"],
                      ["2024", "1,872", "2,095", "2,218", "2,466"]]
TOTAL_BY_YEAR = [["", "2024", "2023"], ["Total", "1,872", "2,095"]]
LONGER_ITEMS = ["Cost of revenue by quarter", "Deferred revenue by quarter", "Other revenue", "Non-operating revenue",
                "Unearned revenue", "Cost of revenue", "Non-revenue water", "分季度营业外收入", "其他业务收入", "营业外收入明细"]


def _metrics(rows: list[list[str]], heading: str) -> set[str]:
    return {f.metric_code for f in markdown_table_facts(rows, heading)}


@pytest.mark.parametrize("heading", LONGER_ITEMS)
@pytest.mark.parametrize("rows", [QUARTER_GRID, LATIN_QUARTER_GRID, TOTAL_BY_YEAR])
def test_a_longer_item_ending_in_the_metric_s_name_reads_no_figure(rows: list[list[str]], heading: str) -> None:
    assert markdown_table_facts(rows, heading) == []


def test_the_metric_itself_still_reads_with_its_period_words_before_it() -> None:
    quarters = {(f.metric_code, f.period, f.value) for f in markdown_table_facts(QUARTER_GRID, "分季度营业收入")}
    assert ("REVENUE", "2024Q1", 1872) in quarters and ("REVENUE", "2023Q4", 2366) in quarters
    assert _metrics(LATIN_QUARTER_GRID, "Revenue by quarter") == {"REVENUE"}
    assert {(f.metric_code, f.period, f.value) for f in markdown_table_facts(TOTAL_BY_YEAR, "2024年营业收入")} \
        == {("REVENUE", "2024", 1872), ("REVENUE", "2023", 2095)}
    assert _metrics(TOTAL_BY_YEAR, "Revenue: group total") == {"REVENUE"}


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["Total", "Quarterly", "Annual", "Consolidated", "Group"]),
       st.sampled_from(["revenue", "Revenue", "revenues"]))
def test_a_qualifier_before_the_name_keeps_the_metric(qualifier: str, name: str) -> None:
    assert _metrics(LATIN_QUARTER_GRID, f"{qualifier} {name} by quarter") == {"REVENUE"}


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["Cost of", "Deferred", "Unearned", "Other", "Non-operating", "Subscription", "Interest"]),
       st.sampled_from(["revenue", "Revenue", "revenues"]))
def test_an_item_word_before_the_name_reads_nothing(modifier: str, name: str) -> None:
    assert _metrics(LATIN_QUARTER_GRID, f"{modifier} {name} by quarter") == set()


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["营业外", "其他业务", "其他", "利息", "租赁"]), st.sampled_from(["分季度", "", "2024年"]))
def test_an_ideograph_continuing_the_name_reads_nothing(item: str, period: str) -> None:
    assert _metrics(QUARTER_GRID, f"{period}{item}收入") == set()


def test_a_metric_that_may_end_a_longer_name_is_not_taken_from_a_wider_heading() -> None:
    rows = [["", "Q1", "Q2", "Q3", "Q4"], ["2024", "1,872", "2,095", "2,218", "2,466"]]
    text = "\n".join(["# Revenue", "", "## Deferred revenue by quarter", "",
                      "| " + " | ".join(rows[0]) + " |", "|" + " --- |" * 5, "| " + " | ".join(rows[1]) + " |", ""])
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    assert extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts == ()



@pytest.mark.parametrize(("heading", "metrics"), [("2024年度の売上高", {"REVENUE"}), ("2024年度 セグメント別売上高", {"REVENUE"}),
                                                  ("2024年度 特別売上高", set()), ("2024年度 その他の売上高", set())])
def test_japanese_by_words_and_particles_keep_the_metric_and_other_items_do_not(heading: str,
                                                                               metrics: set[str]) -> None:
    rows = [["地域", "第1四半期", "第2四半期"], ["中国", "4.1", "4.2"]]
    assert _metrics(rows, heading) == metrics
