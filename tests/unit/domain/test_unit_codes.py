"""``ragspine domain check`` refuses a money unit no table can state; the codes ingestion reads are accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.authoring.check import check_domain
from ragspine.domain.starter import init_domain


def _with_unit(tmp_path: Path, unit: str) -> Path:
    folder = tmp_path / "d"
    init_domain(folder)
    glossary = folder / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8").replace("EUR_M", unit)
    glossary.write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("unit", ["JPY_BN", "USD_MN", "EUR_MILLION", "CNY_YI"])
def test_a_money_unit_tables_cannot_state_is_refused_with_the_right_spelling(tmp_path: Path, unit: str) -> None:
    problems = check_domain(_with_unit(tmp_path, unit))
    messages = [p.message for p in problems if p.field == "metrics.REVENUE.unit"]
    assert messages and f"{unit} is not a unit tables can state" in messages[0]
    assert "JPY billion is JPY_B" in messages[0]


@pytest.mark.parametrize("unit", ["JPY_B", "JPY_M", "CNY_100M", "CNY_10K", "USD_K", "EUR", "KRW_B"])
def test_the_codes_ingestion_reads_pass(tmp_path: Path, unit: str) -> None:
    assert check_domain(_with_unit(tmp_path, unit)) == []
