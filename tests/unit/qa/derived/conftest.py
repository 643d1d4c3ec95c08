"""The domain folder every derived-figure test module asks on: ``domain init`` plus the finance pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.qa.derived.statement_set import finance_domain


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh finance domain folder per test module (a module's tests only read it)."""
    return finance_domain(tmp_path_factory.mktemp("finance") / "domain")
