"""A Gateway upload's operation says what its table reading found: the facts (count and a sample) and warnings.

A knowledge space's documents publish no facts to the shared fact table (it has no space ACL),
but their tables are read exactly as ``ragspine ingest`` reads them, so whoever maintains the
space sees the figures each table gave, cell by cell, and which tables could not be read and
why. Runs on the embedded default and on AWS (DynamoDB on moto, the Step Functions worker).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.ingestion.documents import pdf_layout
from tests.integration.ingestion.test_pdf_statement_columns import statement_page
from tests.integration.knowledge.api.test_leaks import upload
from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)

REVIEW = """\
# ACME regional review

Revenue by region, FY2024 (USD millions).

| Region | Revenue |
| --- | --- |
| Mainland China | 900 |
| Hong Kong | 1,200 |
| Japan | 800 |
| Group total | 3,500 |

Plans and outcomes of the pilot programmes.

| Name | Plan | Actual |
| --- | --- | --- |
| Alpha | 1.0 | 2.0 |
| Beta | 3.0 | 4.0 |
"""


def _operation(gateway: Gateway, document_id: str) -> dict[str, Any]:
    version = gateway.document(document_id)["activeVersion"]
    operation: dict[str, Any] = gateway.ok("GET", f"/operations/{version['operationId']}")
    return operation


def test_the_operation_shows_the_facts_read_and_the_tables_that_gave_none(gateway: Gateway) -> None:
    document_id = upload(gateway, REVIEW.encode(), "review.md")
    operation = _operation(gateway, document_id)
    facts = operation["tableFacts"]
    assert facts["count"] == 4 and facts["published"] is False
    assert {(f["metric"], f["entity"], f["period"], f["value"], f["unit"], f["locator"]) for f in facts["sample"]} == {
        ("REVENUE", "ACME_CN", "2024", 900, "USD_M", "table=1,row=Mainland China,col=Revenue"),
        ("REVENUE", "ACME_HK", "2024", 1200, "USD_M", "table=1,row=Hong Kong,col=Revenue"),
        ("REVENUE", "ACME_JP", "2024", 800, "USD_M", "table=1,row=Japan,col=Revenue"),
        ("REVENUE", "ACME_GROUP", "2024", 3500, "USD_M", "table=1,row=Group total,col=Revenue"),
    }
    warnings = operation["warnings"]
    assert any("table=2: no row or column names a metric" in w and w.endswith("table skipped") for w in warnings), \
        warnings  # the table named, with the reason
    assert any("the parts sum to 2900 but the table states 3500" in w for w in warnings), warnings
    assert any(w.startswith("table=1: no facts published from the 4 figures read") for w in warnings), warnings


def test_a_pdf_statement_uploaded_shows_one_fact_per_cell_with_its_page_locator(gateway: Gateway) -> None:
    document_id = upload(gateway, pdf_layout(statement_page(), font_scale=0.021), "statement.pdf", "application/pdf")
    facts = _operation(gateway, document_id)["tableFacts"]
    assert facts["count"] == 18  # six rows of three years
    shown = {f["locator"]: f["value"] for f in facts["sample"]}
    assert len(shown) == 18
    assert shown["page=1,table=1,row=Net sales,col=2020"] == 519926
    assert shown["page=1,table=1,row=Interest income,col=2018"] == -152


def test_the_sample_is_bounded_and_takes_each_table_in_turn(gateway: Gateway) -> None:
    rows = "\n".join(f"| Line item {i} | {i},000 | {i},100 |" for i in range(1, 16))
    tables = "\n\n".join(f"Statement {n} (USD millions)\n\n| Item | FY2023 | FY2024 |\n| --- | --- | --- |\n{rows}"
                         for n in (1, 2))
    document_id = upload(gateway, f"# ACME statements\n\n{tables}\n".encode(), "statements.md")
    facts = _operation(gateway, document_id)["tableFacts"]
    assert facts["count"] == 60
    assert len(facts["sample"]) == 20
    assert {f["locator"].split(",")[0] for f in facts["sample"][:2]} == {"table=1", "table=2"}
