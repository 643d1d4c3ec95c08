"""A standard ratio the question names, over a statement's own rows, on a domain fresh from ``domain init``.

The domain includes no glossary pack, so "current ratio" is no metric of its glossary and the
balance sheet's rows ("Total current assets", "Total current liabilities") are the document's own
labels. The ratio is computed from the one row each input names: the answer states the formula,
the figure as a multiple with its percent beside it, and cites both inputs. A ratio one of whose
inputs no row states is asked back naming that input, with no number; a ratio a row states is read
as stated. Asked through
``answer_question`` and ``POST /v1/ask``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, ingested_in_fresh_domain, service_answer

BALANCE_SHEET = """\
# Larkspur Tooling annual report

Consolidated balance sheet (in thousands of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Cash and cash equivalents | 3,100 | 2,900 |
| Trade receivables | 5,300 | 4,300 |
| Total current assets | 8,400 | 7,200 |
| Plant and machinery | 11,600 | 10,800 |
| Total assets | 20,000 | 18,000 |
| Total current liabilities | 6,000 | 6,000 |
| Borrowings due after one year | 3,000 | 2,100 |
| Total liabilities | 9,000 | 8,100 |
| Total equity | 11,000 | 9,900 |

The balance sheet is stated at the end of each financial year.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "standard_ratios", {"larkspur.md": BALANCE_SHEET})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def test_a_ratio_the_glossary_lacks_is_computed_from_the_rows_it_names(ask: Ask) -> None:
    # WHEN a user asks for the current ratio, which the fresh glossary does not define
    answer = ask("What is the current ratio in 2024?")["answer"]
    # THEN it is computed from the statement's own rows, stated as a multiple with its percent
    assert "current ratio (CURRENT_RATIO): 1.40 TIMES (140.00%)" in answer
    # AND the answer states the formula over those rows and cites both inputs
    assert "computed as total current assets / total current liabilities" in answer
    assert "row=Total current assets,col=2024" in answer and "row=Total current liabilities,col=2024" in answer


def test_a_ratio_named_in_other_words_reads_the_same_rows(ask: Ask) -> None:
    # WHEN a user names the liabilities-to-assets ratio in analysts' words
    answer = ask("What is the liability to asset ratio in 2023?")["answer"]
    # THEN it is total liabilities over total assets of that year, both cited
    assert "debt ratio (DEBT_RATIO): 0.45 TIMES (45.00%)" in answer
    assert "row=Total liabilities,col=2023" in answer and "row=Total assets,col=2023" in answer


def test_a_ratio_asked_in_chinese_is_computed_alike(ask: Ask) -> None:
    answer = ask("2023年的流动比率是多少？")["answer"]
    assert "流动比率（CURRENT_RATIO）：1.20 TIMES（120.00%）" in answer


def test_the_change_of_a_ratio_is_stated_as_a_multiple(ask: Ask) -> None:
    answer = ask("What is the change in current ratio from 2023 to 2024?")["answer"]
    assert "FY2024 vs FY2023 up 0.20 TIMES" in answer


def test_a_ratio_with_an_input_no_row_states_names_it_and_gives_no_number(ask: Ask) -> None:
    # WHEN the quick ratio is asked and the statement has no inventories row
    body = ask("What is the quick ratio in 2024?")
    answer = body["answer"]
    # THEN the answer says which input is missing and gives no figure
    assert "quick ratio (QUICK_RATIO) cannot be computed" in answer
    assert "there is no figure for inventories" in answer
    assert "TIMES" not in answer


STATED_RATIO = """\
# Wrenfield Mills key figures

Liquidity (in thousands of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Total current assets | 5,000 | 4,000 |
| Total current liabilities | 4,000 | 4,000 |
| Current ratio (as reported) | 1.3 | 1.0 |
"""


def test_a_ratio_a_row_states_is_read_as_stated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a table that states the current ratio in a row of its own
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"wrenfield.md": STATED_RATIO}):
        # WHEN the current ratio is asked
        answer, _status = service_answer("What is the current ratio in 2024?")
        # THEN the stated row is the answer, never a figure recomputed from other rows
        assert "1.3" in answer and "row=Current ratio" in answer
        assert "computed as" not in answer
