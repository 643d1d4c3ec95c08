"""A fact always carries its lineage and keeps the number as its source wrote it."""

from __future__ import annotations

import pytest

from ragspine.errors import MissingLineageError
from ragspine.facts.model import Fact, format_number, parse_number, require_lineage
from tests.fakes.facts import InMemoryFactStore


def make_fact(**overrides: object) -> Fact:
    fields: dict[str, object] = dict(
        metric_code="REVENUE", entity="ACME_CN", geography="CN", channel="TOTAL", period_type="FY",
        period="2024", value=1320, unit="USD_M", source_doc_id="ACME_FY2024_Review.pptx",
        source_locator="slide=2,table=1,row=REVENUE,col=FY2024")
    fields.update(overrides)
    return Fact(**fields)  # type: ignore[arg-type]


def test_the_first_ten_fields_are_positional_in_seed_order() -> None:
    fact = Fact("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1320, "USD_M",
                "ACME_FY2024_Review.pptx", "slide=2,table=1,row=REVENUE,col=FY2024")
    assert fact == make_fact()
    assert fact.source_file_hash is None and fact.extractor_version is None and fact.mapping_version is None


@pytest.mark.parametrize("field", ["source_doc_id", "source_locator"])
@pytest.mark.parametrize("blank", ["", "   "])
def test_a_fact_without_lineage_is_refused_with_a_clear_error(field: str, blank: str) -> None:
    with pytest.raises(MissingLineageError, match=f"has no {field}"):
        require_lineage(make_fact(**{field: blank}))


def test_a_batch_with_one_fact_lacking_lineage_writes_nothing() -> None:
    store = InMemoryFactStore()
    with pytest.raises(MissingLineageError):
        store.put_many([make_fact(), make_fact(period="2023", source_locator="")])
    assert store.count() == 0


@pytest.mark.parametrize(("literal", "shown"), [("1320", "1320"), ("36.0", "36.0"), ("541.2", "541.2"),
                                                ("1,320", "1320")])
def test_numbers_render_as_their_source_wrote_them(literal: str, shown: str) -> None:
    assert format_number(parse_number(literal)) == shown
