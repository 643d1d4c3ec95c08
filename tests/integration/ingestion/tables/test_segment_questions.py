"""A table's segments and customers named the way the table writes them, through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init`` knows none of the segments of the goodwill
table below nor the customers of the concentration table. A question quoting a segment column
("the Cloud Platforms & Services segment") or a customer row ("Contoso") is answered from the
table, or says why it is not, rather than asking which company "Cloud" is; a company no document
names ("Globex") is still asked back.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

REPORT = """\
# Annual report

|  | Field Devices | Cloud Platforms & Services | Total |
| --- | --- | --- | --- |
| Balances at December 31, 2017 | $ 1,210.0 | $ 840.5 | $ 2,050.5 |
| Goodwill acquired | 95.0 | 12.5 | 107.5 |
| Balances at December 31, 2018 | $ 1,305.0 | $ 853.0 | $ 2,158.0 |
| Goodwill acquired | 30.0 | 610.0 | 640.0 |
| Balances at December 31, 2019 | $ 1,335.0 | $ 1,463.0 | $ 2,798.0 |

The carrying value of goodwill by segment was as follows.

|  | 2019 | 2018 |
| --- | --- | --- |
| Contoso Ltd. (“Contoso”) | 27% | 31% |
| Fabrikam, Inc. (“Fabrikam”) | 12% | 9% |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": REPORT})


def test_a_segment_column_named_as_written_is_answered_from_its_column(asked: None) -> None:
    answer = cli_answer("What is the total goodwill acquired in the Cloud Platforms & Services segment "
                        "from 2018 to 2019?")
    assert "Could not recognise" not in answer, answer
    assert "622.5" in answer and "col=Cloud Platforms & Services" in answer, answer


def test_a_customer_row_named_by_its_short_name_is_not_asked_back_as_a_company(asked: None) -> None:
    answer = cli_answer("What is the percentage of revenue from Contoso in 2019?")
    assert "Could not recognise" not in answer, answer


def test_a_company_no_document_names_is_still_asked_back(asked: None) -> None:
    answer = cli_answer("What is the total goodwill acquired by Globex from 2018 to 2019?")
    assert "Could not recognise the entity “Globex”" in answer, answer
    assert "622.5" not in answer and "747.5" not in answer, answer
