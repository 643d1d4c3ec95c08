"""Rows of spans of years one after another (``2021 – 2025 | 2026 – 2030``), through ``ragspine ingest``.

Such a row says when its figures expire or fall due, never a fiscal year's figure: each cell is read as
its column's kind in that span as written (``2021 – 2025: ground leases``), undated, as a payment
schedule's years are, though no ``Thereafter`` or ``Total`` row follows them. The header over the spans
("Fiscal Year") names what the rows are, not the table's period.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.facts.open_vocabulary import label_of
from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

EXPIRIES = """\
# Properties

As of June 27, 2021, our store leases had initial terms expiring as follows:

| Fiscal Year | Ground Leases | Building Leases |
| --- | --- | --- |
| 2022 – 2026 | 214 | 530 |
| 2027 – 2031 | 96 | 188 |
| 2032 – 2036 | 12 | 61 |
"""


@pytest.fixture(scope="module")
def expiries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "expiries", {"expiries.md": EXPIRIES})


def _facts() -> dict[str, tuple[str, float, str]]:
    from ragspine.bootstrap import get_services

    store = get_services().facts
    return {label_of(f.metric_code): (f.period_type, f.value, f.source_locator)
            for metric, entity in store.open_codes() for f in store.find(metric_code=metric, entity=entity)}


def test_each_cell_is_its_kind_in_the_span_as_written_of_no_fiscal_year(expiries: None) -> None:
    facts = _facts()

    assert facts["2022 – 2026: ground leases"][:2] == ("UNDATED", 214), facts
    assert facts["2027 – 2031: building leases"][:2] == ("UNDATED", 188), facts
    assert "row=2032 – 2036,col=Ground Leases" in facts["2032 – 2036: ground leases"][2], facts
    assert not any(kind in ("FY", "Q") for kind, _, _ in facts.values()), facts



def test_a_question_naming_the_kind_alone_is_asked_back_with_each_span(expiries: None) -> None:
    answer, status = service_answer("How many ground leases expire?")

    assert status is AnswerStatus.NEEDS_CLARIFICATION, answer
    assert "2022 – 2026: ground leases" in answer and "2032 – 2036: ground leases" in answer, answer
    assert "214" not in answer, answer  # no span chosen for the asker
