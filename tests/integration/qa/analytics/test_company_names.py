"""Companies named in questions the way people write them, answered from that company's documents only.

Two 10-K style documents, "The Boeing Company" and "The Coca-Cola Company", ingested through the
CLI into a ``domain init`` folder with the finance pack; asked through ``answer_question`` and
``POST /v1/ask`` as "Boeing", "Boeing's", "Coca Cola", "Coca-Cola".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.bootstrap import Services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingest_into_finance_domain, pointed_services

TODAY = "2025-06-30"
DOCUMENTS = {
    "Boeing_10K_FY2018.md": """# The Boeing Company

The Boeing Company's consolidated figures for the fiscal years 2017 and 2018.

Unit: USD m

| Item | FY2017 | FY2018 |
| --- | --- | --- |
| Revenue | 93392 | 101127 |
| Net income | 8197 | 10460 |
| Total assets | 112362 | 117359 |
""",
    "CocaCola_10K_FY2017.md": """# The Coca-Cola Company

The Coca-Cola Company reported these consolidated figures for the fiscal years 2016 and 2017.

Unit: USD m

| Item | FY2016 | FY2017 |
| --- | --- | --- |
| Revenue | 41863 | 35410 |
| Net income | 6550 | 1248 |
| Total assets | 87270 | 87896 |
""",
}


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return ingest_into_finance_domain(tmp_path_factory.mktemp("companies"), DOCUMENTS, today=TODAY)


@pytest.fixture
def services(ingested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    yield from pointed_services(monkeypatch, *ingested, today=TODAY)


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


@pytest.mark.parametrize("question", ["What was Boeing's revenue in FY2018?",
                                      "We need Boeing revenue for FY2018 in USD millions.",
                                      "What was the revenue of The Boeing Company in FY2018?"])
def test_boeing_as_people_write_it(ask: Ask, question: str) -> None:
    body = ask(question)
    assert body["status"] == "found", body["answer"]
    assert "101127" in body["answer"] and "(company:the boeing company)" in body["answer"]
    assert {s["doc"] for s in body["sources"]} == {"Boeing_10K_FY2018.md"}


@pytest.mark.parametrize("company", ["Coca Cola", "Coca-Cola", "coca-cola"])
def test_roa_of_coca_cola_is_computed_from_its_own_statements(ask: Ask, company: str) -> None:
    body = ask(f"What is the FY2017 return on assets (ROA) for {company}? ROA is defined as: FY2017 net income / "
               "(average total assets between FY2016 and FY2017). Round your answer to two decimal places.")
    first = str(body["answer"]).splitlines()[0]
    assert "FY2017 return on assets (ROA): 1.42 PCT" in first, body["answer"]  # 1248 / ((87270 + 87896) / 2)
    assert {s["doc"] for s in body["sources"]} == {"CocaCola_10K_FY2017.md"}
