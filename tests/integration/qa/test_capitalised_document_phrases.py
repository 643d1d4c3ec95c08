"""A capitalised word of the document's own phrase for a row is no unknown company.

"What is the average of Undrawn revolving bank facilities?" capitalises the first word of a phrase
the report's text writes in lower case ("… through undrawn revolving bank facilities and …") and
whose last words are the table's row "Bank facilities": the question quotes the document, and is
answered from that row, citing every cell. A capitalised word the text does not write so
("Standby bank facilities"), a word no document holds ("Globex's bank facilities") and a name the
text writes with its capital inside a sentence ("Hotels bank facilities", where the text says
"… arranged by the Hotels division" beside "hotels bank facilities") are still asked back: a name
keeps its capital wherever a document writes it.

A scale after a currency sign ("in terms of €M") is the unit asked, not a company's name.

A month's name no table reads ("between June 30 and December 31, 2021") is a date, asked back as a
period the service does not recognise, never as a company; beside a word that may be a company
("Globex's … between June 30 and December 31") the company alone is asked back.

A report written here is ingested through ``ragspine ingest`` into a fresh domain and asked
through ``answer_question`` and ``POST /v1/ask``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import Services, get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

REPORT = """\
# Liquidity

The group funds its operations through cash from trading, undrawn revolving bank facilities and
short-term commercial paper. Seasonal hotels bank facilities are arranged by the Hotels division.

The following table summarises the main sources of liquidity at each year end.

| (€ in millions) | 2021 | 2020 | 2019 |
| --- | --- | --- | --- |
| Cash from trading | 1,240 | 1,180 | 1,050 |
| Bank facilities | 2,600 | 2,400 | 2,300 |
| Commercial paper | 410 | 395 | 380 |
"""


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "document_phrases", {"liquidity.md": REPORT}):
        yield get_services()


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


def test_the_documents_phrase_capitalised_is_read_as_its_row(ask: Ask) -> None:
    body = ask("What is the average of Undrawn revolving bank facilities?")
    first = body["answer"].splitlines()[0]
    # (2600 + 2400 + 2300) / 3 = 2433.333
    assert "average: 2433.33 EUR_M" in first and "bank facilities" in first, body["answer"]
    assert {s["locator"] for s in body["sources"]} >= {f"table=1,row=Bank facilities,col={year}"
                                                       for year in ("2019", "2020", "2021")}, body["sources"]
    assert "Undrawn" not in body["answer"] and "Could not recognise" not in body["answer"]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wording=st.sampled_from(["What were the Undrawn revolving bank facilities in 2020?",
                                "What were Undrawn revolving bank facilities in 2020?",
                                "How much were the Undrawn Revolving Bank Facilities in 2020?"]))
def test_in_other_wordings(services: Services, wording: str) -> None:
    answer = asker("answer_question", services)(wording)["answer"]
    assert "2400" in answer and "Could not recognise" not in answer, answer


@pytest.mark.parametrize(("question", "name"), [
    ("What is the average of Standby bank facilities?", "Standby"),  # the text never writes "standby bank facilities"
    ("What is the average of Globex's bank facilities?", "Globex"),  # stated nowhere
    # the text writes "hotels bank facilities", but "Hotels" with its capital inside a sentence: a division's name
    ("What is the average of Hotels bank facilities?", "Hotels"),
])
def test_any_other_capitalised_word_is_still_asked_back(ask: Ask, question: str, name: str) -> None:
    answer = ask(question)["answer"]
    assert f"“{name}”" in answer and "2433" not in answer, answer


def test_a_month_no_table_reads_is_asked_back_as_a_period(ask: Ask) -> None:
    answer = ask("What is the change in bank facilities between June 30 and December 31, 2021?")["answer"]
    assert answer.startswith("Could not recognise the period “June”"), answer
    assert "2600" not in answer and "2400" not in answer


def test_a_company_beside_a_month_is_asked_back_alone(ask: Ask) -> None:
    answer = ask("What is the change in Globex's bank facilities between June 30 and December 31, 2021?")["answer"]
    assert answer.startswith("Could not recognise the entity “Globex”"), answer


@pytest.mark.parametrize("unit", ["€M", "€m", "€ million", "$M"])
def test_a_scale_after_a_currency_sign_is_no_company(ask: Ask, unit: str) -> None:
    answer = ask(f"What is the average bank facilities from 2019 to 2021 in terms of {unit}?")["answer"]
    assert "average: 2433.33 EUR_M" in answer.splitlines()[0], answer


def test_a_company_beside_a_scale_is_still_asked_back(ask: Ask) -> None:
    answer = ask("What is the average of Globex's bank facilities in terms of €M?")["answer"]
    assert answer.startswith("Could not recognise the entity “Globex”"), answer
