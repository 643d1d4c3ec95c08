"""The engine's period spellings a fresh domain uses: ``F19`` columns and "fiscal 2019 second quarter" in questions."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

import pytest

from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.starter import init_domain
from ragspine.facts.glossary import Glossary


@cache
def _starter() -> Glossary:
    with tempfile.TemporaryDirectory() as tmp:
        init_domain(Path(tmp) / "domain")
        return read_glossary(Path(tmp) / "domain" / "glossary.yaml")


def _periods(text: str) -> list[str | None]:
    return [m.code for m in _starter().scan(text) if m.period is not None or m.code is None]


@pytest.mark.parametrize(("text", "period"), [
    ("F19", "FY2019"), ("f24", "FY2024"), ("F18 (3)", "FY2018"),
])
def test_an_f_and_two_digits_header_is_that_fiscal_year(text: str, period: str) -> None:
    found = _starter().normalize_period(text.split(" (")[0])
    assert found is not None and found.label == period


@pytest.mark.parametrize(("question", "periods"), [
    ("What was the EBITDA in F19?", ["FY2019"]),
    ("What was the gross margin in the fiscal 2019 second quarter?", ["2019Q2"]),
    ("Revenue in the FY2018 third quarter", ["2018Q3"]),
    ("What was fiscal 2019 revenue?", ["FY2019"]),
    ("Sales of the F-19 model and the AF19 part in 2019", ["FY2019"]),  # a model name is no year
])
def test_questions_name_these_periods(question: str, periods: list[str]) -> None:
    assert _periods(question) == periods
