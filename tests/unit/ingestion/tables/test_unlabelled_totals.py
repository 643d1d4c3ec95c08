"""A row without a label is its section's total only where its figures are the sum of the section's rows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.glossary import default_glossary


def _read(rows: list[list[str]]) -> ExtractionResult:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = "# Receivables\n\n" + "\n".join(lines) + "\n"
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    return extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")


def _values(result: ExtractionResult, metric: str) -> dict[str, float]:
    return {f.period: f.value for f in result.facts if f.metric_code == metric}


# receivables net of their allowance, then more receivables, then the current total: two unlabelled rows
_SUBTOTAL_THEN_TOTAL = [["", "Notes", "2019", "2018"], ["", "", "$'000", "$'000"], ["Current", "", "", ""],
                        ["Trade receivables", "", "5,210", "4,480"],
                        ["Allowance for expected credit losses", "", "(210)", "(80)"], ["", "", "5,000", "4,400"],
                        ["Other receivables", "", "2,300", "1,900"],
                        ["Receivables from related parties", "9", "7,700", "6,100"], ["", "", "15,000", "12,400"],
                        ["Non-current", "", "", ""], ["Other receivables", "", "150", "320"],
                        ["Total current and non-current", "", "15,150", "12,720"]]


def test_a_subtotal_inside_a_section_is_not_the_sections_total() -> None:
    result = _read(_SUBTOTAL_THEN_TOTAL)

    assert _values(result, "label:current") == {"2019": 15000, "2018": 12400}
    assert not any(f.value in (5000, 4400) for f in result.facts)  # the subtotal is no fact at all
    assert _values(result, "label:current: trade receivables") == {"2019": 5210, "2018": 4480}
    assert _values(result, "label:current: other receivables") == {"2019": 2300, "2018": 1900}
    assert any("unlabelled row (5,000 / 4,400) under 'Current': a subtotal" in w for w in result.warnings)


def test_an_unlabelled_row_that_is_not_the_sum_of_its_section_gives_no_fact_and_says_why() -> None:
    rows = [["", "2019", "2018"], ["Basic earnings per share (cents)", "", ""], ["Continuing operations", "114.3", "123.4"],
            ["", "206.2", "132.6"], ["Headcount", "12", "11"]]

    result = _read(rows)

    assert not any(f.value in (206.2, 132.6) for f in result.facts)
    assert _values(result, "label:headcount") == {"2019": 12, "2018": 11}  # the row still closes its section
    assert any("unlabelled row (206.2 / 132.6) under 'Basic earnings per share (cents)': not the sum" in w
               for w in result.warnings)


@settings(max_examples=40, deadline=None)
@given(parts=st.lists(st.integers(min_value=1, max_value=900_000), min_size=2, max_size=5),
       off=st.integers(min_value=-500, max_value=500))
def test_an_unlabelled_row_is_the_section_total_exactly_when_it_sums_the_rows(parts: list[int], off: int) -> None:
    body = [[f"Region {chr(65 + i)}", f"{v:,}", f"{v + 7:,}"] for i, v in enumerate(parts)]
    stated = sum(parts) + off
    rows = [["", "2019", "2018"], ["Revenue:", "", ""], *body, ["", f"{stated:,}", f"{stated + 7 * len(parts):,}"]]

    revenue = _values(_read(rows), "REVENUE")

    # whole numbers each rounded to the unit: the sum is good within half a unit per part
    within_rounding = 2 * abs(off) <= len(parts)
    assert revenue == ({"2019": stated, "2018": stated + 7 * len(parts)} if within_rounding else {})
