"""A check that fails while the service is pointed at a fresh domain leaves no domain behind.

Tests point the process at a folder from ``ragspine domain init`` (``tests/support/domain_env``),
often as ``for _ in ingested_in_fresh_domain(...)`` in the test body. A failing check leaves that
loop early; the settings the process cached (which name the domain folder) must still be
forgotten, or every later test reading "the configured domain's glossary" reads the fresh one,
which names no metric: a table test then fails that passes alone (seen: ``Gross profit`` read as
a label of the section above it instead of the glossary's ``GROSS_PROFIT``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.bootstrap import domain_dir
from ragspine.domain.files import default_domain_dir
from tests.support.domain_env import cli_answer, ingested_in_fresh_domain
from tests.support.markdown_facts import markdown_table_facts

REPORT = "# Results\n\n| | 2019 |\n| --- | --- |\n| Sales | 5 |\n"
SECTIONED = [["(In thousands)", "2018"], ["Cost of revenue:", ""], ["Licences", "2,322"], ["Gross profit", "6,693"]]


def test_a_failed_check_inside_a_fresh_domain_leaves_the_default_domain_for_the_next_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch, pytest.raises(AssertionError, match="a check that fails"):
        for _ in ingested_in_fresh_domain(patch, tmp_path, {"report.md": REPORT}):
            assert "5" in cli_answer("What were sales in 2019?")
            raise AssertionError("a check that fails")
    assert domain_dir() == default_domain_dir()
    facts = {(f.metric_code, f.value) for f in markdown_table_facts(SECTIONED, "Costs")}
    assert ("GROSS_PROFIT", 6693) in facts, facts  # the default glossary's metric, not a label under "Cost of revenue"
