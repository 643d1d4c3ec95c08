"""Units a report states around a table, asked through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init``; each report one Markdown file whose table
states no unit of its own. The unit is in the sentence leading into the table, set after it
(last, after paragraphs of other matters), inside that sentence in brackets, in the table's
corner written with a curly quote (``USD ‘000``), or closing a title line set after the table (a
section's title, a page's running header); a sentence closing with a bracketed unit is no title.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.domain_env import cli_answer, ingested_for_module

_OTHER_MATTERS = " ".join(
    ["The segment provides maintenance services for subsea cabling under fixed-price contracts and recognises "
     "revenue over time using the input method to measure progress towards completion."] * 14)

LEAD_SET_LAST = f"""\
# Annual report excerpt

| Years Ended December 31, | | |
| --- | --- | --- |
| | 2019 | 2018 |
| Cable maintenance | $86.8 | $87.0 |
| Cable installation | 33.2 | 41.5 |

{_OTHER_MATTERS}

Disaggregation of Revenues The following table disaggregates the segment's revenue by market (in millions):
"""

FIGURES_THEN_LEAD = """\
# Annual report excerpt

| | 2019 | 2018 |
| --- | --- | --- |
| Service fees | $127,078 | $127,963 |
| Licence fees | 99,037 | 102,353 |

Our top ten clients accounted for 42.2% and 44.2% of consolidated revenues in 2019 and 2018, respectively.
The following table represents a disaggregation of revenue by delivery location (in thousands):
"""

CORNER_UNIT = """\
# Annual report excerpt

| | Years Ended December 31, | |
| --- | --- | --- |
| All figures in USD ‘000, except TCE rate per day | 2019 | 2018 |
| Voyage revenue | 317,220 | 289,016 |
| Voyage expenses | (141,770) | (165,012) |
"""

BRACKETED_IN_LEAD = """\
# Annual report excerpt

| | 2019 | 2018 |
| --- | --- | --- |
| Adjusted operating income (tax effected) | $120.7 | $118.6 |
| Average invested capital | 923.1 | $735.6 |

Economic Return is the amount by which ROIC exceeds the weighted average cost of capital.

Refer to the table below, which includes the calculation of ROIC (dollars in millions) for the indicated periods:
"""

TITLE_SET_AFTER = f"""\
# Annual report excerpt

| | December 31, | |
| --- | --- | --- |
| | 2019 | 2018 |
| Ferry ticket sales | $ 41,250 | $ 39,880 |
| Harbour dues | 6,115 | 5,940 |

RESULTS OF OPERATIONS
{_OTHER_MATTERS}
Comparison of Year Ended December 31, 2019 to Year Ended December 31, 2018 (in 000’s)
Ferry ticket sales were $41,250 for the year, driven by the summer timetable.
"""

RUNNING_HEADER_AFTER = f"""\
# Annual report excerpt

| | Fair value |
| --- | --- |
| Dredging equipment | $12,480 |
| Mooring rights | 3,310 |

{_OTHER_MATTERS}
Tidewater Ports, Inc. Notes to Consolidated Financial Statements (Continued) (dollars in thousands, except per share amounts)
The fair values were allocated at the acquisition date.
"""

SENTENCE_ENDING_IN_A_UNIT = f"""\
# Annual report excerpt

| | 2019 | 2018 |
| --- | --- | --- |
| Pilotage fees | 2,640 | 2,410 |
| Towage fees | 1,905 | 1,870 |

{_OTHER_MATTERS}
Towage fees rose as more vessels called at the port, and the board expects them to rise again (in thousands)
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    documents = {"lead_last.md": LEAD_SET_LAST, "figures_then_lead.md": FIGURES_THEN_LEAD,
                 "corner.md": CORNER_UNIT, "bracketed.md": BRACKETED_IN_LEAD, "title_after.md": TITLE_SET_AFTER,
                 "running_header.md": RUNNING_HEADER_AFTER, "sentence_unit.md": SENTENCE_ENDING_IN_A_UNIT}
    yield from ingested_for_module(tmp_path_factory, "units", documents)


def test_a_unit_note_leading_into_the_table_set_last_after_other_paragraphs_is_the_tables(asked: None) -> None:
    answer = cli_answer("What is the average cable installation in 2018 and 2019?")
    assert "average: 37.35 USD_M" in answer, answer
    assert "lead_last.md · table=1,row=Cable installation,col=2019" in answer, answer


def test_a_paragraph_of_percentages_before_the_leading_sentence_keeps_its_unit_note(asked: None) -> None:
    answer = cli_answer("What was the change in licence fees from 2018 to 2019?")
    assert "down 3316 USD_K" in answer, answer


def test_a_thousands_note_written_with_a_curly_quote_in_the_corner_is_the_tables(asked: None) -> None:
    answer = cli_answer("What is the average voyage revenue in 2018 and 2019?")
    assert "average: 303118 USD_K" in answer, answer


def test_a_unit_note_in_brackets_inside_the_leading_sentence_is_the_tables(asked: None) -> None:
    answer = cli_answer("What was the change in the Adjusted operating income (tax effected) between 2018 and 2019?")
    assert "up 2.1 USD_M" in answer, answer


def test_a_unit_note_closing_a_title_set_after_the_table_is_the_tables(asked: None) -> None:
    answer = cli_answer("What is the total harbour dues for years ended December 31, 2018 and 2019?")
    assert "FY2018 + FY2019: 12055 USD_K" in answer, answer
    assert "title_after.md · table=1,row=Harbour dues" in answer, answer


def test_a_running_header_closing_with_a_unit_note_after_the_table_is_the_tables(asked: None) -> None:
    answer = cli_answer("What is the difference in fair value between dredging equipment and mooring rights?")
    assert ": 9170 USD_K" in answer, answer


def test_a_sentence_closing_with_a_bracketed_unit_is_no_title_and_states_no_unit(asked: None) -> None:
    answer = cli_answer("What is the total pilotage fees for 2018 and 2019?")
    assert "FY2018 + FY2019: 5050（" in answer, answer
