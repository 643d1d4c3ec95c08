"""Questions over a table whose line items the user listed in the glossary, through ``ragspine ingest`` and ``ask``.

Listing a row label as a metric keeps the row under its own code, so the section heading it sits
under ("Net sales:", "Current") is a metric of its own. A question naming two listed metrics in
one phrase ("net sales from Malaysia") asks one figure; the product cannot tell which name
qualifies the other, so it asks back rather than answer with the section's figure. Metrics the
question lists ("net sales and Malaysia") are each answered.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import get_settings
from tests.support.domain_env import cli_answer
from tests.support.process_caches import close_services

SALES = """\
# Net sales by country

| | 2019 | 2018 | 2017 |
| --- | --- | --- | --- |
| Net sales: | | | |
| Malaysia | 1,138,380 | 1,118,032 | 940,045 |
| Romania | 195,837 | 177,111 | 114,363 |
| | 1,334,217 | 1,295,143 | 1,054,408 |
"""

RECEIVABLES = """\
# Receivables

| | 2019 | 2018 |
| --- | --- | --- |
| Current | | |
| Trade receivables | 3,770 | 3,054 |
| Allowance for expected credit losses | (135) | (23) |
| | 3,635 | 3,031 |
"""

LINE_ITEMS = ["Net sales", "Malaysia", "Romania", "Current", "Trade receivables", "Allowance for expected credit losses"]


@pytest.fixture
def listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A domain from ``domain init`` whose glossary lists every row label as a metric, the tables ingested."""
    runner = CliRunner()
    folder = tmp_path / "domain"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    glossary = yaml.safe_load((folder / "glossary.yaml").read_text(encoding="utf-8"))
    glossary["metrics"] = {f"M{i}": {"unit": "USD_K", "names": {"en": label}, "aliases": [label]}
                           for i, label in enumerate(LINE_ITEMS, 1)}
    glossary["currency"] = "USD"
    glossary["units"] = {"USD_K": {"names": {"en": "USD thousands"}, "currency": "USD"}}
    (folder / "glossary.yaml").write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    for name, value in {"RAGSPINE_DOMAIN_DIR": str(folder), "RAGSPINE_DATA_DIR": str(tmp_path / "data"),
                        "RAGSPINE_ENV": "test", "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": "2025-09-15"}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    close_services()
    for name, text in {"sales.md": SALES, "receivables.md": RECEIVABLES}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(tmp_path / "sales.md"), str(tmp_path / "receivables.md")],
                           env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    close_services()
    yield
    get_settings.cache_clear()
    close_services()


@pytest.mark.parametrize(("question", "section_total"), [
    ("What was the net sales from Malaysia in 2017?", "1054408"),
    ("What were Romania net sales in 2019?", "1334217"),
    ("What is the current trade receivables in 2019?", "3635"),
])
def test_two_listed_metrics_in_one_phrase_are_asked_back_never_answered_with_the_sections_figure(
        listed: None, question: str, section_total: str) -> None:
    answer = cli_answer(question)
    assert "Choose one" in answer, answer
    assert section_total not in answer.replace(",", ""), answer


def test_listed_metrics_are_each_answered(listed: None) -> None:
    answer = cli_answer("What were net sales and Malaysia in 2017?")
    assert "1054408" in answer and "940045" in answer, answer
    assert "sales.md · table=1,row=Malaysia,col=2017" in answer, answer


def test_a_listed_line_item_alone_is_answered_from_its_cell(listed: None) -> None:
    answer = cli_answer("What was Malaysia in 2017?")
    assert "940045" in answer and "sales.md · table=1,row=Malaysia,col=2017" in answer, answer
