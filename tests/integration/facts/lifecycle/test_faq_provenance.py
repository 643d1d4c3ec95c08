"""FAQ answers are checked like any answer: `domain check` and the answer path refuse numbers their source does not state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import Workbook
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.qa.answer import answer_question
from ragspine.qa.result import Route
from ragspine.settings import Settings, get_settings
from tests.support.process_caches import close_services

runner = CliRunner()
POLICY = """# Foodco policy

## Basis of preparation

All amounts are in JPY billion. The group employs 3,100 people.

## Returns

Unopened products can be returned within 14 days.
"""
KEY_FIGURES = """# Foodco key figures

| (JPY billion) | FY2024 | FY2025 |
|---|---|---|
| Net sales | 196.8 | 214.3 |
| Employees (persons) | 3,050 | 3,100 |
"""
WRONG = "All amounts are in USD millions; the group has 4,200 employees."
RIGHT = "All amounts are in JPY billion; the group employs 3,100 people."
QUESTION = "What currency are the figures in?"


def _faq(answer: str, *, doc: str = "Foodco_Policy.md", locator: str = "heading=Basis of preparation,para=1") -> str:
    return ("version: 1\nentries:\n  - id: reporting_currency\n    questions:\n"
            f"      - {QUESTION}\n    answer: {answer!r}\n"
            f"    source: {{doc: {doc}, locator: '{locator}'}}\n")


@pytest.fixture
def domain(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder from `ragspine domain init` whose samples hold the cited documents; the service points at it."""
    folder = tmp_path / "foodco"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    samples = folder / "samples"
    samples.mkdir()
    (samples / "Foodco_Policy.md").write_text(POLICY, encoding="utf-8")
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Summary"
    sheet.append(["Item", "Value"])
    sheet.append(["Reporting unit", "JPY billion"])
    sheet.append(["Employees", "3100"])
    book.save(samples / "Foodco_Figures.xlsx")
    with (folder / "domain.yaml").open("a", encoding="utf-8") as out:
        out.write("samples: samples\n")
    monkeypatch.setenv("RAGSPINE_DOMAIN_DIR", str(folder))
    get_settings.cache_clear()
    close_services()
    yield folder
    get_settings.cache_clear()
    close_services()


def _line(path: Path, fragment: str) -> int:
    return next(n for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in row)


class TestDomainCheck:
    def test_an_answer_whose_numbers_the_cited_passage_does_not_state_is_refused(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(WRONG), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 1
        line = _line(domain / "faq.yaml", "answer:")
        assert (f"{domain}/faq.yaml:{line}: entries[0].answer: states 4200, which Foodco_Policy.md at "
                "heading=Basis of preparation,para=1 does not state") in result.output

    def test_an_answer_its_passage_states_passes(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(RIGHT), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 0, result.output

    def test_a_cell_citation_is_checked_against_its_row_not_the_whole_sheet(self, domain: Path) -> None:
        # 3100 is in the workbook, but not in the cited row (row 2 says JPY billion).
        (domain / "faq.yaml").write_text(_faq("The unit is JPY billion for 3,100 people.", doc="Foodco_Figures.xlsx",
                                              locator="sheet=Summary,cell=B2"), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 1
        assert "entries[0].answer: states 3100, which Foodco_Figures.xlsx at sheet=Summary,cell=B2" in result.output
        (domain / "faq.yaml").write_text(_faq("The group has 3,100 employees.", doc="Foodco_Figures.xlsx",
                                              locator="sheet=Summary,cell=B3"), encoding="utf-8")
        assert runner.invoke(app, ["domain", "check", str(domain)]).exit_code == 0

    def test_a_locator_the_document_does_not_have_is_named(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(RIGHT, locator="heading=Basis,para=9"), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 1
        assert "entries[0].source.locator: Foodco_Policy.md has no passage at 'heading=Basis,para=9'" in result.output

    def test_a_source_neither_sampled_nor_ingested_is_named_in_a_note(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(WRONG, doc="Elsewhere.pdf"), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 0, result.output
        line = _line(domain / "faq.yaml", "source:")
        assert (f"note: {domain}/faq.yaml:{line}: entries[0].source.doc: Elsewhere.pdf is neither a sample file nor "
                "ingested in the data folder, so the numbers of the answer could not be checked") in result.output

    def test_an_ingested_source_outside_the_samples_is_checked_at_the_cited_row(self, domain: Path,
                                                                                 tmp_path: Path) -> None:
        # GIVEN a document ingested into the data folder (not a sample) whose table became facts
        report = tmp_path / "Foodco_Key_Figures.md"
        report.write_text(KEY_FIGURES, encoding="utf-8")
        ingested = runner.invoke(app, ["ingest", str(report)])
        assert ingested.exit_code == 0, ingested.output
        assert get_services().facts.count() > 0
        cell = "table=1,row=Net sales,col=FY2025"
        # WHEN an FAQ answer cites a cell with a number the row does not state THEN the check refuses it
        (domain / "faq.yaml").write_text(_faq("Net sales in FY2025 were 241.3 JPY billion.",
                                              doc=report.name, locator=cell), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 1
        assert f"entries[0].answer: states 241.3, which {report.name} at {cell} does not state" in result.output
        # ... and a number of another row of the same table is not stated at the cited cell either
        (domain / "faq.yaml").write_text(_faq("Net sales in FY2025 were 214.3 JPY billion, with 3,100 employees.",
                                              doc=report.name, locator=cell), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 1
        assert "entries[0].answer: states 3100, which" in result.output
        close_services()  # the service, reading the same stored row, does not serve that answer either
        served = answer_question(QUESTION, qa=get_services().qa)
        assert served.route is not Route.FAQ
        assert "faq:unsupported_numbers:reporting_currency" in served.trace["decisions"]  # type: ignore[operator]
        # ... while the figure the cell states passes
        (domain / "faq.yaml").write_text(_faq("Net sales in FY2025 were 214.3 JPY billion.",
                                              doc=report.name, locator=cell), encoding="utf-8")
        result = runner.invoke(app, ["domain", "check", str(domain)])
        assert result.exit_code == 0, result.output


class TestAnswerPath:
    def _ingest(self, domain: Path) -> None:
        result = runner.invoke(app, ["ingest", str(domain / "samples" / "Foodco_Policy.md")])
        assert result.exit_code == 0, result.output

    def test_an_unsupported_faq_answer_is_not_served(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(WRONG), encoding="utf-8")
        self._ingest(domain)
        result = answer_question(QUESTION, qa=get_services().qa)
        assert result.route is not Route.FAQ
        assert "4,200" not in result.answer and "4200" not in result.answer
        assert "faq:unsupported_numbers:reporting_currency" in result.trace["decisions"]  # type: ignore[operator]
        asked = runner.invoke(app, ["ask", QUESTION])
        assert asked.exit_code == 0 and "4,200" not in asked.output

    def test_a_supported_faq_answer_is_served_with_its_source(self, domain: Path) -> None:
        (domain / "faq.yaml").write_text(_faq(RIGHT), encoding="utf-8")
        self._ingest(domain)
        result = answer_question(QUESTION, qa=get_services().qa)
        assert result.route is Route.FAQ
        assert result.answer == f"{RIGHT}（来源：Foodco_Policy.md · heading=Basis of preparation,para=1）"

    def test_over_http_the_unsupported_answer_is_not_served(self, domain: Path) -> None:
        from fastapi.testclient import TestClient

        from ragspine.api.app import create_local_app

        (domain / "faq.yaml").write_text(_faq(WRONG), encoding="utf-8")
        self._ingest(domain)
        response = TestClient(create_local_app()).post("/v1/ask", json={"question": QUESTION})
        assert response.status_code == 200, response.text
        assert "4,200" not in response.json()["answer"]
        assert response.json()["route"] != "faq"


def test_every_shipped_faq_answer_is_served_once_its_sources_are_ingested(settings: Settings) -> None:
    from ragspine.domain.files import shipped_domains_dir
    from ragspine.qa.faq import FaqIndex

    result = runner.invoke(app, ["load-samples"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    qa = get_services().qa
    entries = FaqIndex.from_file(shipped_domains_dir() / "acme" / "faq.yaml").entries
    served = {entry.entry_id: answer_question(entry.questions[1], qa=qa) for entry in entries}
    assert {name: answer.route for name, answer in served.items()} == {e.entry_id: Route.FAQ for e in entries}
    assert all("faq:unsupported" not in " ".join(a.trace["decisions"]) for a in served.values())  # type: ignore[arg-type]
    # ... and each was checked against its ingested passage, not waved through as "not ingested"
    from ragspine.ingestion.cited_passages import IndexedCitedPassages
    from ragspine.qa.faq_check import states_numbers, unsupported_numbers

    services = get_services()
    assert services.retrieval is not None
    cited = IndexedCitedPassages(services.retrieval.index)
    numbered = [e for e in entries if states_numbers(e.answer)]
    assert len(numbered) >= 2
    for entry in numbered:
        texts = cited.passages(entry.doc, entry.locator, hint=entry.answer)
        assert texts and unsupported_numbers(entry.answer, texts) == (), entry.entry_id


def test_a_cited_table_that_became_facts_is_still_checked(settings: Settings, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a workbook whose only table became facts (so it is not indexed as passages), its caption cell saying JPY
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Japan"
    sheet.append(["ACME Japan key figures (USD millions)"])
    sheet.append(["Metric", "FY2024"])
    sheet.append(["Revenue", 655])
    path = tmp_path / "JP_Figures.xlsx"
    book.save(path)
    faq = tmp_path / "faq.yaml"
    faq.write_text(_faq("Japan reports in USD millions; its stores employ 4,200 people.", doc="JP_Figures.xlsx",
                        locator="sheet=Japan,cell=A1"), encoding="utf-8")
    monkeypatch.setenv("RAGSPINE_FAQ_PATH", str(faq))
    get_settings.cache_clear()
    close_services()
    result = runner.invoke(app, ["ingest", str(path)])
    assert result.exit_code == 0, result.output
    services = get_services()
    assert services.facts.count() == 1
    # WHEN the FAQ question is asked THEN the curated answer is checked against the stored cell and not served
    answer = answer_question(QUESTION, qa=services.qa)
    assert answer.route is not Route.FAQ and "4,200" not in answer.answer
    # ... while a curated answer the cell supports is
    faq.write_text(_faq("Japan reports in USD millions.", doc="JP_Figures.xlsx", locator="sheet=Japan,cell=A1"),
                   encoding="utf-8")
    close_services()
    assert answer_question(QUESTION, qa=get_services().qa).route is Route.FAQ
