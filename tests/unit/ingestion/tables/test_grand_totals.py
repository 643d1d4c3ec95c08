"""A bare ``Total`` after two sections or more, summing every line item above it, is the total of what its
sections' headings share (else of the table's topic), never of the last section alone."""

from __future__ import annotations

import pytest

from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.ingestion.table_grand_totals import shared_end, shared_start
from tests.support.glossary import default_glossary

# two sections, the first closed by its own subtotal, the grand total after the second
ALLOCATED = [["(in millions)", "2019", "2018"], ["Property allocated to business lines:", "", ""],
             ["Orchards", "410.0", "380.0"], ["Vineyards", "290.0", "270.0"], ["Total business lines", "700.0", "650.0"],
             ["Property not allocated:", "", ""], ["Head office", "55.5", "50.0"], ["Land held for sale", "4.5", "10.0"],
             ["Total", "760.0", "710.0"]]
# no leading sentence; the headings share their last word
FEES = [["", "2019", "2018"], ["Audit fees", "", ""], ["Statutory audit", "1,200", "1,100"],
        ["Review of interim accounts", "300", "250"], ["Advisory fees", "", ""], ["Tax compliance", "150", "120"],
        ["Total", "1,650", "1,470"]]


def _facts(rows: list[list[str]], lead: str = "") -> tuple[list[Fact], tuple[str, ...]]:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = "# Notes\n\n" + (f"{lead}\n\n" if lead else "") + "\n".join(lines) + "\n"
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    result = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")
    return list(result.facts), tuple(result.warnings)


def _values(facts: list[Fact], metric: str) -> dict[str, float]:
    return {f.period: f.value for f in facts if f.metric_code == metric}


class TestAGrandTotalAfterSections:
    def test_is_the_total_of_the_words_its_sections_begin_with(self) -> None:
        # GIVEN a sentence naming one section only, WHEN read, THEN the headings' shared words name the total
        facts, _ = _facts(ALLOCATED, "The following table shows property allocated by business line:")

        assert _values(facts, "label:total property") == {"2019": 760.0, "2018": 710.0}
        assert not any("allocated by business line" in f.metric_code for f in facts)
        assert {f.source_locator for f in facts if f.metric_code == "label:total property"} == {
            "table=1,row=Total,col=2019", "table=1,row=Total,col=2018"}

    def test_is_the_total_of_the_words_its_sections_end_with_when_nothing_else_names_it(self) -> None:
        facts, _ = _facts(FEES)

        assert _values(facts, "label:total fees") == {"2019": 1650, "2018": 1470}

    def test_is_the_tables_topic_when_its_sections_share_no_words(self) -> None:
        rows = [["", "2019", "2018"], ["Machinery:", "", ""], ["Tractors", "30", "20"], ["Balers", "10", "5"],
                ["Total machinery", "40", "25"], ["Spare parts", "8", "6"], ["Total", "48", "31"]]

        facts, _ = _facts(rows, "The following table presents this disaggregation of revenue (in millions):")

        assert _values(facts, "label:total revenue") == {"2019": 48, "2018": 31}

    @pytest.mark.parametrize("total", [["Total", "761.0", "710.0"], ["Total", "700.0", "650.0"]])
    def test_that_is_not_the_sum_of_every_line_item_gives_no_fact(self, total: list[str]) -> None:
        facts, warnings = _facts([*ALLOCATED[:-1], total])

        assert not any(f.source_locator.startswith("table=1,row=Total,") for f in facts)
        assert any("row 'Total': a total of no section" in w for w in warnings)

    def test_after_one_section_closed_by_its_subtotal_is_no_total_of_that_section(self) -> None:
        # "Operating income included the following": the rows are parts of a figure, so the total is of those parts
        rows = [["", "2019", "2018"], ["Acquisition charges:", "", ""], ["Integration costs", "20", "10"],
                ["Fair value step-up", "5", "8"], ["", "25", "18"], ["Restructuring", "40", "30"],
                ["Total", "65", "48"]]

        facts, _ = _facts(rows, "Operating income included the following:")

        assert {f.metric_code for f in facts if f.source_locator.startswith("table=1,row=Total,")} == {
            "label:total included in operating income"}
        assert _values(facts, "label:acquisition charges") == {"2019": 25, "2018": 18}


@pytest.mark.parametrize(("headings", "start", "end"), [
    (["Assets allocated to segments", "Assets not allocated"], "Assets", ""),
    (["Finite-Lived Intangible Assets", "Indefinite-Lived Intangible Assets"], "", "Intangible Assets"),
    (["Revenues from customers", "Revenues from related parties"], "Revenues", ""),
    (["Current:", "Deferred:"], "", ""),
    (["Other income", "Other expense"], "", ""),  # a generic word names no figure
    (["Audit fees"], "", ""),  # one section: the rows after its total are not its own
    (["Audit fees", "Audit fees"], "", ""),  # one section written twice
])
def test_the_words_section_headings_share(headings: list[str], start: str, end: str) -> None:
    assert shared_start(headings) == start
    assert shared_end(headings) == end
