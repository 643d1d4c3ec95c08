"""Misspelt periods and channels, and two misspelt names in one question, on ACME and Vela.

Each domain's sample documents are ingested once (``ragspine load-samples``, the real
pipeline); each question is asked through ``answer_question`` and ``POST /v1/ask``. A reading
is taken only within the fuzzy bound and is stated in ``assumptions``; two equally near
names are asked back as one-click options, and nothing is answered.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from ragspine.settings import get_settings
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import point_at
from tests.support.process_caches import close_services

runner = CliRunner()


@pytest.fixture(scope="module", params=["acme", "vela"])
def ingested(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A data folder after ``ragspine load-samples`` with the domain (once per domain)."""
    domain = str(request.param)
    folder = tmp_path_factory.mktemp(domain) / "data"
    with pytest.MonkeyPatch.context() as patch:
        point_at(patch, shipped_domains_dir() / domain, folder)
        result = runner.invoke(app, ["load-samples"], env={"COLUMNS": "200"})
    get_settings.cache_clear()
    close_services()
    assert result.exit_code == 0, result.output
    yield domain, folder


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: tuple[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Ask]]:
    """The domain's name and a way to ask it (engine or HTTP; both give the /v1/ask body)."""
    domain, folder = ingested
    data = tmp_path / "data"
    shutil.copytree(folder, data)
    point_at(monkeypatch, shipped_domains_dir() / domain, data)
    yield domain, asker(request.param, get_services())
    get_settings.cache_clear()
    close_services()


def _reasons(body: dict[str, Any]) -> list[str]:
    return [a["reason"] for a in body["assumptions"]]


# Per domain: (question, expected slots, figure in the answer, assumptions stated)
MISSPELT_PERIOD = {
    "acme": ("revenue of china in the thrid quater of 2024", ["2024Q3"], "322",
             ["read 'thrid quater of 2024' as third quarter of 2024 (2024Q3)"]),
    "vela": ("clinics revenue second quartr 2025", ["2025Q2"], "122.5",
             ["read 'second quartr 2025' as second quarter 2025 (2025Q2)"]),
}
LOOKALIKE_YEAR_ZH = {
    "acme": ("中国fy2o24的营业收入是多少", "1320", "read 'fy2o24' as fy2024 (FY2024)"),
    "vela": ("诊所业务fy2o25的营业收入是多少", "FY2025", "read 'fy2o25' as fy2025 (FY2025)"),
}
MISSPELT_QUARTER_JA = {
    "acme": ("中国のthrid quarter 2024の売上高", "322"),
    "vela": ("クリニック事業のsecnd quarter 2025の売上収益", "122.5"),
}
TWO_NAMES = {
    "acme": ("gross margn of hong kng 2025", ["GROSS_MARGIN"], ["ACME_HK"], "42.0 PCT",
             ["read 'gross margn' as gross margin (GROSS_MARGIN)", "read 'hong kng' as hong kong (ACME_HK)"]),
    "vela": ("rotterdm heart centre bed ocupancy fy2025", ["BED_OCCUPANCY"], ["VELA_ROTTERDAM"], "85.7 PCT",
             ["read 'rotterdm heart centre' as rotterdam heart centre (VELA_ROTTERDAM)",
              "read 'bed ocupancy' as bed occupancy (BED_OCCUPANCY)"]),
}


class TestPeriods:
    def test_a_misspelt_quarter_is_read_and_stated_not_taken_for_the_year(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        question, periods, figure, reasons = MISSPELT_PERIOD[domain]
        body = asker(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        assert body["slots"]["period"] == periods and figure in body["answer"]
        assert _reasons(body) == reasons and "(Assumed: read '" in body["answer"]

    def test_a_year_typed_with_a_letter_o_is_read_in_a_chinese_question(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        question, figure, reason = LOOKALIKE_YEAR_ZH[domain]
        body = asker(question)
        assert body["status"] == "found" and figure in body["answer"]
        assert reason in _reasons(body)

    def test_a_misspelt_quarter_in_a_japanese_question(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        question, figure = MISSPELT_QUARTER_JA[domain]
        body = asker(question)
        assert body["status"] == "found" and figure in body["answer"]
        assert len(body["slots"]["period"]) == 1 and "Q" in body["slots"]["period"][0]


class TestChannels:
    def test_a_misspelt_channel_is_read(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        if domain == "acme":
            body = asker("china onlne revenue fy2024")
            assert body["status"] == "found" and "528" in body["answer"]
            assert body["slots"]["channel"] == ["ONLINE"]
            assert _reasons(body) == ["read 'onlne' as online (ONLINE)"]
        else:  # Vela states no telehealth figure: the reading is stated and nothing is invented
            body = asker("clinics telehelth revenue FY2025")
            assert body["slots"]["channel"] == ["TELEHEALTH"]
            assert "read 'telehelth' as telehealth (TELEHEALTH)" in _reasons(body)
            assert body["status"] == "not_found" and body["sources"] == []

    def test_a_word_equally_near_two_channels_is_asked_back(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        if domain != "acme":
            pytest.skip("Vela's channels have no two names one edit from one typed word")
        body = asker("china onfline revenue 2024")
        assert (body["route"], body["status"]) == ("clarification", "needs_clarification")
        options = body["clarification"]["options"]
        assert [o["label"] for o in options] == ["online", "offline"]
        assert [o["question"] for o in options] == ["china online revenue 2024", "china offline revenue 2024"]
        assert body["sources"] == []

    def test_a_misspelt_channel_and_year_in_one_japanese_question(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        if domain != "acme":
            pytest.skip("Vela states no channel figure")
        body = asker("中国のonlnie売上高 FY2O24")
        assert body["status"] == "found" and "528" in body["answer"]
        assert _reasons(body) == ["read 'onlnie' as online (ONLINE)", "read 'fy2o24' as fy2024 (FY2024)"]


class TestTwoMisspeltNames:
    def test_a_misspelt_metric_and_entity_are_both_read_and_stated(self, ask: tuple[str, Ask]) -> None:
        domain, asker = ask
        question, metrics, entities, figure, reasons = TWO_NAMES[domain]
        body = asker(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        assert body["slots"]["metric"] == metrics and body["slots"]["entity"] == entities
        assert figure in body["answer"] and _reasons(body) == reasons

    def test_two_misspelt_words_that_are_not_a_metric_and_an_entity_are_not_read(self, ask: tuple[str, Ask]) -> None:
        _, asker = ask
        body = asker("grss margn 2025")  # two words near metric names, no entity: no pair, nothing assumed
        assert not any(r.startswith("read '") for r in _reasons(body))
