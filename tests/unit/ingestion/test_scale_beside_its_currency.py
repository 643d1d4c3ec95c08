"""One figure stated as ``M`` (its scale, the currency unstated) and as ``JPY_M`` elsewhere is one figure, not two."""

from __future__ import annotations

import pytest

from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts, primary_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.support.glossary import default_glossary


def _extract(doc_id: str, value: str, caption: str) -> ExtractionResult:
    block = Block(BlockKind.TABLE, "t", "table=1", ("ACME_HK",), (("Metric", "FY2024"), ("Revenue", value)), (),
                  caption)
    doc = ParsedDocument(doc_id, "Key figures", "text/markdown", (block,))
    return extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")


@pytest.mark.parametrize("order", [("scale.md", "stated.md"), ("stated.md", "scale.md")])
def test_the_same_figure_in_its_scale_alone_is_the_stated_currencys(order: tuple[str, str]) -> None:
    docs = {"scale.md": _extract("scale.md", "214,300", "(in millions)"),
            "stated.md": _extract("stated.md", "214,300", "単位：百万円")}
    assert [f.unit for f in docs["scale.md"].facts] == ["M"]
    merged = primary_facts([docs[name] for name in order])
    assert [(f.value, f.unit, f.source_doc_id) for f in merged.facts] == [(214300, "JPY_M", "stated.md")]
    assert merged.warnings == ()


@pytest.mark.parametrize(("value", "caption"), [("214,300", "(in thousands)"), ("214,000", "(in millions)")])
def test_another_scale_or_another_number_is_still_a_conflict(value: str, caption: str) -> None:
    merged = primary_facts([_extract("stated.md", "214,300", "単位：百万円"), _extract("other.md", value, caption)])
    assert [(f.value, f.unit) for f in merged.facts] == [(214300, "JPY_M")]
    assert len(merged.warnings) == 1
