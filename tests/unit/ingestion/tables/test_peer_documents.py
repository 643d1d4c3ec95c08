"""A peer's report is filed under the peer, never the home entity, however its title is written."""

from __future__ import annotations

import pytest

from tests.support.markdown_facts import markdown_facts

_TABLE = ("| | Fiscal Year Ended September 30, 2024 | Fiscal Year Ended September 30, 2023 |\n| --- | --- | --- |\n"
          "| Net revenue | 412,388 | 377,905 |\n")


def _entities(text: str) -> set[str]:
    return {f.entity for f in markdown_facts(text, "peer.md")}


@pytest.mark.parametrize("title", ["Corvane Systems, Inc. – Annual Report, Fiscal 2024",
                                   "Corvane Systems, Inc. | Annual report", "Annual Report 2024"])
def test_a_peers_annual_report_is_filed_under_the_peer(title: str) -> None:
    text = (f"# {title}\n\nCorvane Systems, Inc. is a US maker of industrial sensing modules.\n\n"
            f"Selected financial data (in thousands of US dollars):\n\n{_TABLE}")
    assert _entities(text) == {"company:corvane systems"}


def test_a_title_whose_lead_the_first_sentence_takes_up_names_the_company() -> None:
    text = ("# Tallis Microsystems: fiscal 2024 at a glance\n\nTallis Microsystems reported record sales for the "
            f"fiscal year ended September 30, 2024.\n\n(in thousands of US dollars)\n\n{_TABLE}")
    assert _entities(text) == {"company:tallis microsystems"}


def test_a_press_release_opening_with_the_company_and_a_bracketed_note_names_it() -> None:
    text = ("# Corvane Reports Third Quarter Fiscal 2025 Results\n\nCorvane Systems, Inc. (fiscal year ending "
            f"September 30) today reported results for its third quarter.\n\n(in thousands of US dollars)\n\n{_TABLE}")
    assert _entities(text) == {"company:corvane systems"}


def test_a_filings_running_head_opening_the_text_names_no_company_of_its_own() -> None:
    text = (f"# Annual report excerpt\n\n{_TABLE}\n"
            "GreenSky, Inc. NOTES TO CONSOLIDATED FINANCIAL STATEMENTS — (Continued)\n")
    assert "company:greensky" not in _entities(text)
