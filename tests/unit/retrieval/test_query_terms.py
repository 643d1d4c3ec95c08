"""Analyst vocabulary added to the lexical query (``retrieval.query_terms``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.errors import ConfigurationError
from ragspine.retrieval.query_terms import QueryExpander, default_expander, load_rules


def test_the_shipped_vocabulary_adds_the_statement_words_to_an_analyst_question() -> None:
    question = "What is the FY2018 capital expenditure amount for 3M? Use the cash flow statement."
    expanded = default_expander().expand(question)
    assert expanded.startswith(question + "\n")
    assert "purchases of property plant and equipment" in expanded
    assert "consolidated statements of cash flows" in expanded


def test_phrases_match_whole_words_only_and_any_case() -> None:
    expander = default_expander()
    assert expander.expand("Walmart DPO in FY2018") != "Walmart DPO in FY2018"
    assert expander.expand("the dpo's value") != "the dpo's value"
    # "ccc" inside a word and "roa" inside "road" trigger nothing
    assert expander.expand("the accc road map") == "the accc road map"


def test_a_phrase_spans_any_whitespace(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text("terms:\n  - when: [balance sheet]\n    add: total assets\n", encoding="utf-8")
    expander = QueryExpander(load_rules(path))
    assert expander.expand("per the Balance\n  Sheet") == "per the Balance\n  Sheet\ntotal assets"


@pytest.mark.parametrize("text", ["terms: {}\n", "terms:\n  - when: []\n    add: x\n", "terms:\n  - when: [a]\n",
                                  "terms:\n  - when: [a]\n    add: '  '\n", "terms:\n  - 3\n",
                                  "terms:\n  - when: [a]\n    statement: []\n",
                                  "terms:\n  - when: [a]\n    statement: {kind: income}\n"])
def test_a_malformed_file_is_a_configuration_error_naming_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigurationError, match="terms.yaml"):
        load_rules(path)


def test_no_rule_leaves_the_query_as_asked() -> None:
    assert QueryExpander([]).expand("anything") == "anything"
    assert default_expander().expand("store opening hours") == "store opening hours"


def test_a_phrase_naming_a_statement_gives_its_kind() -> None:
    expander = default_expander()
    assert expander.statements("Using the balance sheet and the P&L statement, what is DPO?") == (
        "balance_sheet", "income")
    assert expander.statements("What is capex?") == ()


def test_an_unknown_statement_kind_is_a_configuration_error(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text("terms:\n  - when: [bs]\n    add: x\n    statement: balance\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="balance_sheet"):
        load_rules(path)


def test_a_rule_may_name_several_statements_and_add_no_words(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text("terms:\n  - when: [capital intensive]\n    statement: [balance_sheet, cash_flows]\n"
                    "  - when: [margin]\n    statement: income\n    add: cost of sales\n", encoding="utf-8")
    expander = QueryExpander(load_rules(path))
    assert expander.statements("Is it capital intensive, and what is its margin?") == (
        "balance_sheet", "cash_flows", "income")
    # a rule without words leaves the lexical query as asked
    assert expander.expand("Is it capital intensive?") == "Is it capital intensive?"


def test_the_shipped_vocabulary_points_implied_statements() -> None:
    expander = default_expander()
    assert expander.statements("Does Corning have positive working capital based on FY2022 data?") == (
        "balance_sheet",)
    assert expander.statements("Is 3M a capital-intensive business based on FY2022 data?") == (
        "balance_sheet", "cash_flows")
    assert expander.statements("Does Boeing have an improving gross margin profile?") == ("income",)
    assert "legal proceedings" in expander.expand("Has Boeing reported any materially important legal battles?")
