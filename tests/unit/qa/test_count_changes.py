"""A count asked as opened, added or closed is its year's change; a count whose own name says so is read as stated."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ragspine.bootstrap import domain_dir
from ragspine.domain.glossary_file import glossary_of
from ragspine.facts.glossary import Glossary
from ragspine.qa.intent import RuleIntentParser
from tests.support.glossary import default_glossary


@pytest.fixture(scope="module")
def with_openings(tmp_path_factory: pytest.TempPathFactory) -> Glossary:
    """The sample domain's glossary with a metric of its own for the stores opened in a year."""
    folder = tmp_path_factory.mktemp("domain")
    raw = yaml.safe_load((domain_dir() / "glossary.yaml").read_text(encoding="utf-8"))
    raw["metrics"]["STORES_OPENED"] = {"unit": "COUNT", "names": {"zh": "新开门店数", "en": "stores opened",
                                                                  "ja": "出店数"},
                                       "aliases": ["STORES_OPENED", "stores opened", "new stores opened"]}
    (folder / "glossary.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return glossary_of(Path(folder))


@pytest.mark.parametrize("question", [
    "How many stores did Japan open in 2025?", "How many net new stores did Japan add in 2025?",
    "How many stores did Hong Kong close in 2024?",
])
def test_a_count_opened_added_or_closed_asks_the_years_change(question: str) -> None:
    intent = RuleIntentParser.from_file(default_glossary()).parse(question)
    assert intent.slots.metrics == ("STORE_COUNT",) and intent.analysis.prior == "year"


@pytest.mark.parametrize("question", [
    "How many stores did Japan have in 2025?", "What was Japan's revenue in 2025?",  # no change word
    "What new revenue did Japan add in 2025?",  # money: a change word says nothing of a count
])
def test_other_questions_ask_no_change(question: str) -> None:
    assert RuleIntentParser.from_file(default_glossary()).parse(question).analysis.prior is None


def test_a_count_whose_own_name_says_opened_is_read_as_stated(with_openings: Glossary) -> None:
    intent = RuleIntentParser.from_file(with_openings).parse("How many stores opened did Japan report in 2025?")
    assert intent.slots.metrics == ("STORES_OPENED",) and intent.analysis.prior is None
