"""A share of a total row whose part the question names by its item alone, through ``ragspine ingest`` and both
ways a user asks (``answer_question``, ``POST /v1/ask``).

"What percentage of the total unrealized gains came from municipal bonds?" names the row ``Total unrealized
gains`` as written and the part by its item, "municipal bonds", which three column groups of the table hold
(amortized cost, unrealized gains, fair value): the part of that total is the row under the section its own
words name. The share is computed and both cells cited; an item no section of the total holds, or a question
asking no share, computes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

HOLDINGS = """\
# Restricted investments

The following table summarizes the unrealized gains and losses of our restricted investments by security
type as of December 31, 2024 (in thousands):

| | Amortized cost | Unrealized gains | Unrealized losses | Fair value |
| --- | --- | --- | --- | --- |
| Corporate bonds | 52,400 | 1,310 | 220 | 53,490 |
| Municipal bonds | 18,750 | 240 | 95 | 18,895 |
| Total | 71,150 | 1,550 | 315 | 72,385 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "total-parts", {"holdings.md": HOLDINGS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def computed(body: dict[str, Any]) -> list[str]:
    return [line for line in str(body["answer"]).splitlines() if "（计算自：" in line]


@pytest.mark.parametrize(("question", "share"), [
    ("What percentage of the total unrealized gains came from municipal bonds in 2024?", "15.48%"),
    ("What percentage of the total unrealized gain is generated from corporate bonds in 2024?", "84.52%"),
    ("What proportion of the total fair value is in municipal bonds in 2024?", "26.1"),
])
def test_the_part_is_the_row_of_the_totals_section(ask: Ask, question: str, share: str) -> None:
    body = ask(question)
    lines = computed(body)
    assert len(lines) == 1 and share in lines[0], body["answer"]
    section = "unrealized gains" if "unrealized" in question else "fair value"
    item = "municipal bonds" if "municipal" in question else "corporate bonds"
    assert f"{section}: {item}" in lines[0] and f"total {section}" in lines[0], lines[0]
    cited = lines[0].split("（计算自：")[1]
    assert cited.count("holdings.md") == 2, lines[0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(share=st.sampled_from(["percentage", "proportion", "share"]),
       verb=st.sampled_from(["came from", "is generated from", "is attributable to", "is in"]))
def test_the_share_is_worded_freely(ask: Ask, share: str, verb: str) -> None:
    body = ask(f"What {share} of the total unrealized gains {verb} municipal bonds in 2024?")
    lines = computed(body)
    assert len(lines) == 1 and "15.48" in lines[0] and "unrealized gains: municipal bonds" in lines[0], body["answer"]


def test_an_item_no_row_holds_computes_nothing(ask: Ask) -> None:
    body = ask("What percentage of the total unrealized gains came from treasury notes in 2024?")
    assert not computed(body), body["answer"]


def test_no_share_asked_computes_nothing(ask: Ask) -> None:
    body = ask("What were the total unrealized gains and municipal bonds in 2024?")
    assert not any("ratio of" in line for line in computed(body)), body["answer"]
