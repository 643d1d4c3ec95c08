"""Figures a report states only in the sentences beside its table, used by the arithmetic on the table's.

One Markdown report, a table of two years (in millions) and a paragraph stating a third year in
words, ingested with ``ragspine ingest`` into a fresh ``domain init`` folder and asked through
``answer_question`` and ``POST /v1/ask``: an average over a year of the table and a year of the text
is computed and cites both; a sentence stating a change by an amount gives no level; a sentence
naming two metrics keeps each figure on its own; a table's figure wins over a sentence's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

REPORT = """\
# Results of operations

Results of operations were as follows (in millions):

| | 2019 | 2018 |
| --- | --- | --- |
| Service revenue | $ 45.0 | $ 43.0 |
| Operating income | 8.0 | 7.0 |
| Cost of services | 20.0 | 18.0 |
| Subscriber fees | 12.0 | 11.0 |
| Licence fees | 5.0 | 4.0 |
| Net cash used in financing activities | (12.0) | (11.0) |

Service revenue was $41.0 million in 2017 and operating income was $6.0 million in 2017. Cost of services \
increased by $3.0 million in 2017. Subscriber fees were $99.0 million and $10.0 million for the years ended \
December 31, 2019 and 2017, respectively. Licence fees increased by $1.0 million to $3.0 million in 2017.
Licence fees increased to $3.0 million in 2017 from $2.0 million in 2016.
Net cash used in financing activities was $10.0 million in 2017.

For the years ended December 31, 2019, 2018 and 2017, the Company recognized $1.5 million, $1.2 million and $0.9 million, respectively, of restructuring costs. Freight costs totaled $4.0 million in 2019, $3.0 million in 2018 and $2.0 million in 2017. Backlog was $7.0 million as of September 30, 2019.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "stated_in_text", {"results.md": REPORT})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def _computed_line(answer: str) -> str:
    return next(line for line in answer.splitlines() if "计算自" in line)


class TestFiguresStatedInText:
    def test_an_average_over_a_table_year_and_a_text_year_cites_both(self, ask: Ask) -> None:
        # GIVEN service revenue of 2019 and 2018 in the table and of 2017 in a sentence beside it
        # WHEN the average of the three years is asked
        body = ask("What was the average service revenue from 2017 to 2019?")

        # THEN it is computed from all three, citing the table's cells and the sentence
        line = _computed_line(body["answer"])
        assert "43 USD_M" in line
        assert "row=Service revenue,col=2019" in line and "row=Service revenue,col=2018" in line
        assert "sentence=1" in line
        assert "sentence=1" in str(body["sources"])

    def test_a_change_by_an_amount_is_no_level(self, ask: Ask) -> None:
        # GIVEN a sentence saying cost of services increased by $3.0 million in 2017
        # WHEN the average cost of services over 2017 to 2019 is asked
        body = ask("What was the average cost of services from 2017 to 2019?")

        # THEN no average is given: 2017's level is stated nowhere
        assert "计算自" not in body["answer"]
        assert "sentence=" not in body["answer"]

        # AND 2017's cost of services asked alone is not the amount of the change
        assert "3.0 USD_M" not in ask("What was the cost of services in 2017?")["answer"]

    def test_a_move_between_two_levels_states_both_levels(self, ask: Ask) -> None:
        # GIVEN licence fees of 2019 and 2018 in the table and "increased to $3.0 million in 2017 from $2.0
        # million in 2016" beside it (and "increased by $1.0 million", a change, in the sentence before)
        # WHEN the average of 2016 to 2019 is asked
        body = ask("What was the average licence fees from 2016 to 2019?")

        # THEN both levels of the move are used, the change never: (2 + 3 + 4 + 5) / 4
        line = _computed_line(body["answer"])
        assert "3.5 USD_M" in line
        assert "sentence=5" in line

    def test_a_row_the_table_writes_as_negative_takes_no_size_from_the_text(self, ask: Ask) -> None:
        # GIVEN net cash used in financing in brackets in the table and as a size ("was $10.0 million") in a sentence
        # WHEN the average of 2017 to 2019 is asked
        body = ask("What was the average net cash used in financing activities from 2017 to 2019?")

        # THEN no average mixes the two signs: the sentence's figure is not read
        assert "计算自" not in body["answer"]
        assert "sentence=" not in body["answer"]

    def test_two_metrics_in_one_sentence_keep_their_own_figures(self, ask: Ask) -> None:
        # GIVEN one sentence stating 2017's service revenue and 2017's operating income
        # WHEN the average operating income over the three years is asked
        body = ask("What was the average operating income from 2017 to 2019?")

        # THEN 2017's operating income is 6.0, not the revenue's 41.0: (6 + 7 + 8) / 3
        assert "7 USD_M" in _computed_line(body["answer"])

    def test_what_the_company_recognized_is_read_for_each_year_of_the_list(self, ask: Ask) -> None:
        # GIVEN "the Company recognized $1.5 million, $1.2 million and $0.9 million, respectively, of
        # restructuring costs" for 2019, 2018 and 2017, in no table
        # WHEN their total is asked
        body = ask("What was the total restructuring costs from 2017 to 2019?")

        # THEN each figure goes with the year in its place: 0.9 + 1.2 + 1.5, cited by its sentence
        line = _computed_line(body["answer"])
        assert "3.6 USD_M" in line
        assert "para=3,sentence=1" in line

    def test_figures_each_written_with_its_year_are_read(self, ask: Ask) -> None:
        # GIVEN "Freight costs totaled $4.0 million in 2019, $3.0 million in 2018 and $2.0 million in 2017"
        # WHEN the change from 2017 to 2019 is asked
        body = ask("What was the change in freight costs from 2017 to 2019?")

        # THEN it is 2019's figure less 2017's: up 2.0
        assert "FY2019 vs FY2017 up 2.0 USD_M" in body["answer"]

    def test_a_date_that_ends_no_fiscal_year_names_no_year(self, ask: Ask) -> None:
        # GIVEN tables of calendar years and "Backlog was $7.0 million as of September 30, 2019"
        # WHEN 2019's backlog is asked
        body = ask("What was the backlog in 2019?")

        # THEN September 30, 2019 is not read as fiscal 2019: no figure is given from the sentence
        assert "7.0 USD_M" not in body["answer"]

    def test_a_table_figure_wins_over_a_sentence_for_the_same_year(self, ask: Ask) -> None:
        # GIVEN subscriber fees of 2019 in the table (12.0) and, differently, in a sentence (99.0)
        # WHEN the average of 2017 to 2019 is asked
        body = ask("What was the average subscriber fees from 2017 to 2019?")

        # THEN the table's 2019 figure is used with the sentence's 2017: (10 + 11 + 12) / 3
        line = _computed_line(body["answer"])
        assert "11 USD_M" in line
        assert "row=Subscriber fees,col=2019" in line
