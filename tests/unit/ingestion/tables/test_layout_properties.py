"""Hypothesis over the shapes one table takes: any rows, order, values and notation give exactly their facts.

The same figures (segments x metrics x years) are written in the long layout or the two-row
header layout, rows in any order, merged (blank) segment cells or not, figures in any negative
notation with or without footnote marks, in csv or md, and must come back as exactly the facts
they state, none more, none wrong.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import Specimen, render, zoo_glossary

SEGMENTS = {"Wholesale": "MINORI_WHOLESALE", "Retail": "MINORI_RETAIL", "卸売": "MINORI_WHOLESALE"}
METRICS = {"Net sales": "NET_SALES", "Operating income": "OPERATING_INCOME", "営業利益": "OPERATING_INCOME"}
NEGATIVES = ("({})", "△{}", "▲{}", "-{}", "{}−")
GLOSSARY = zoo_glossary()

figures = st.integers(min_value=-99_999, max_value=99_999)


def _written(value: int, form: str, mark: str) -> str:
    text = f"{abs(value):,}"
    return (form.format(text) if value < 0 else text) + mark


@st.composite
def tables(draw: st.DrawFn) -> tuple[Specimen, str]:
    segments = draw(st.sampled_from([("Wholesale", "Retail"), ("卸売", "Retail"), ("Retail",)]))
    metrics = draw(st.sampled_from([("Net sales", "Operating income"), ("営業利益",), ("Net sales",)]))
    years = draw(st.sampled_from([("2024", "2025"), ("2025",), ("2023", "2024", "2025")]))
    form = draw(st.sampled_from(NEGATIVES))
    mark = draw(st.sampled_from(["", "※1", "*2"]))
    values = {(s, m, y): draw(figures) for s in segments for m in metrics for y in years}
    expected = frozenset((METRICS[m], SEGMENTS[s], y, v, "JPY_B") for (s, m, y), v in values.items())
    if draw(st.booleans()):  # long layout, rows shuffled, segment cells blank under the first of a run
        body = [(s, m) for s in segments for m in metrics]
        body = draw(st.permutations(body))
        merge = draw(st.booleans())
        rows = [("Segment", "Metric", *(f"FY{y}" for y in years))]
        for i, (s, m) in enumerate(body):
            shown = "" if merge and i and body[i - 1][0] == s else s
            rows.append((shown, m, *(_written(values[(s, m, y)], form, mark) for y in years)))
    else:  # two-row header: years over metrics, segments down the rows
        top = ("", *(y_label for y in years for y_label in [f"FY{y}", *([""] * (len(metrics) - 1))]))
        second = ("Segment", *(m for _ in years for m in metrics))
        rows = [top, second]
        for s in draw(st.permutations(segments)):
            rows.append((s, *(_written(values[(s, m, y)], form, mark) for y in years for m in metrics)))
    fmt = draw(st.sampled_from(["csv", "md"]))
    return Specimen("generated", "Segment results (JPY billion)", tuple(rows), expected), fmt


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_any_arrangement_gives_exactly_its_facts(case: tuple[Specimen, str]) -> None:
    specimen, fmt = case
    doc = parse_document(render(specimen, fmt), filename=f"t.{fmt}", doc_id=f"t.{fmt}", max_bytes=1_000_000)
    result = extract_facts(doc, glossary=GLOSSARY, source_file_hash="sha256:00")
    got = {(f.metric_code, f.entity, f.period, f.value, f.unit) for f in result.facts}
    assert got == specimen.facts, (specimen.rows, result.warnings)
    assert len(result.facts) == len(got)
