"""The metric after "per" divides the one before it, written in either number; "per" inside a name divides nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ragspine.bootstrap import domain_dir
from ragspine.domain.glossary_file import glossary_of
from ragspine.facts.glossary import Glossary
from ragspine.qa.per_unit_asks import metric_per
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()


@pytest.fixture(scope="module")
def with_shares(tmp_path_factory: pytest.TempPathFactory) -> Glossary:
    """The sample glossary with earnings per share and a count of shares, as a listed company's would have."""
    folder = tmp_path_factory.mktemp("domain")
    raw = yaml.safe_load((domain_dir() / "glossary.yaml").read_text(encoding="utf-8"))
    raw["metrics"]["EPS"] = {"unit": "USD_M", "names": {"zh": "每股收益", "en": "earnings per share", "ja": "1株当たり利益"},
                             "aliases": ["EPS", "earnings per share"]}
    raw["metrics"]["SHARES"] = {"unit": "COUNT", "names": {"zh": "股数", "en": "shares", "ja": "株式数"},
                                "aliases": ["SHARES", "shares", "shares outstanding"]}
    (folder / "glossary.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return glossary_of(Path(folder))


def test_per_inside_a_name_divides_nothing(with_shares: Glossary) -> None:
    assert metric_per("What were earnings per share in 2024?", ("EPS",), with_shares) is None
    assert metric_per("What was revenue per share in 2024?", ("REVENUE",), with_shares) == "SHARES"


@given(metric=st.sampled_from(["revenue", "net profit", "gross profit", "Revenue"]),
       thing=st.sampled_from(["store", "stores", "Store"]), each=st.sampled_from(["", "each ", "one "]),
       entity=st.sampled_from(["Japan", "Hong Kong", "the group"]), year=st.integers(2023, 2025))
def test_the_count_after_per_divides(metric: str, thing: str, each: str, entity: str, year: int) -> None:
    question = f"What was {metric} per {each}{thing} in {entity} in {year}?"
    assert metric_per(question, ("REVENUE",), GLOSSARY) == "STORE_COUNT"


@pytest.mark.parametrize(("question", "metrics"), [
    ("What was revenue in Japan in 2024?", ("REVENUE",)),  # no "per"
    ("What was revenue per employee in Japan in 2024?", ("REVENUE",)),  # no metric counts employees
    ("Revenue and stores per region in 2024", ("REVENUE", "STORE_COUNT")),  # two metrics named: no one to divide
    ("What was revenue per store in 2024?", ("STORE_COUNT",)),  # the count is the metric asked already
])
def test_nothing_divides(question: str, metrics: tuple[str, ...]) -> None:
    assert metric_per(question, metrics, GLOSSARY) is None
