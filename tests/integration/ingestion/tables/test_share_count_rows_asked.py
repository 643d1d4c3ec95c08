"""Counts of shares under a heading of share counts, asked through ``ragspine ingest`` and ``answer_question``.

Under "Weighted average shares (millions):" the rows "Basic earnings per share" and "Diluted
earnings per share" count the shares each EPS divides by. The heading is short enough to qualify
the rows, yet their labels still name the EPS: a question asking basic EPS is never answered with
the count. The EPS the table states in cents is.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.domain_env import ingested_for_module, service_answer

REPORT = """\
# Earnings per share

| | 2024 | 2023 |
| --- | --- | --- |
| Profit attributable to shareholders ($M) | 1,870 | 1,655 |
| Weighted average shares (millions): | | |
| Basic earnings per share | 1,204.6 | 1,198.2 |
| Diluted earnings per share | 1,211.9 | 1,207.5 |
"""

CENTS = """\
# Earnings per share in cents

| | 2024 | 2023 |
| --- | --- | --- |
| Diluted earnings per share (cents per share) | 154.3 | 137.1 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "share_counts", {"eps.md": REPORT, "cents.md": CENTS})


def test_a_share_count_is_never_the_earnings_per_share_its_label_names(asked: None) -> None:
    answer, _ = service_answer("What was the basic earnings per share in 2024?")
    assert "1204.6" not in answer and "1204" not in answer, answer


def test_the_earnings_per_share_stated_in_cents_is_answered(asked: None) -> None:
    answer, _ = service_answer("What was the diluted earnings per share in 2024?")
    assert "154.3" in answer, answer
    assert "1211.9" not in answer, answer
