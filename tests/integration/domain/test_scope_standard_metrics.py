"""A standard statement line the domain does not list is about the business: never screened out.

A domain fresh from ``domain init`` lists a few business terms and no "COGS"; before, "What is
the COGS for 2024?" was refused as outside the business before any channel ran, though cost of
goods sold is a line of every company's income statement. Now the question reaches the channels;
a subject no statement vocabulary knows, or another company's line the documents do not state, is
still refused. Asked through ``answer_question`` and
``POST /v1/ask``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

RESULTS = """\
# Thornbury Mills annual report

Key figures (in thousands of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Net sales | 12,400 | 11,800 |
| Gross profit | 4,100 | 3,900 |
| Net income | 1,250 | 1,100 |

Milling volumes rose in 2024 as two new lines came on stream.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "standard_metrics", {"thornbury.md": RESULTS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


@pytest.mark.parametrize("question", ["What is the COGS for 2024?", "What was the cost of goods sold in 2024?",
                                      "2024年的营业成本是多少？"])
def test_a_standard_statement_line_reaches_the_channels(ask: Ask, question: str) -> None:
    # WHEN a user names a statement line the fresh domain does not list
    body = ask(question)
    # THEN it is not refused as outside the business
    assert body["refusal_reason"] is None, body["answer"]
    assert "outside" not in body["answer"]


@pytest.mark.parametrize("question", ["Which dinosaur was the largest?",
                                      # the line named beside another subject the documents do not state
                                      "What was Zephyr Mining's COGS in 2024?"])
def test_a_subject_the_documents_do_not_state_is_still_refused(ask: Ask, question: str) -> None:
    assert ask(question)["refusal_reason"] == "OUT_OF_SCOPE"
