"""Fixtures shared by the evaluations' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from ragspine.settings import get_settings

SERVICE_ENV = ("RAGSPINE_EMBEDDER", "RAGSPINE_TODAY", "RAGSPINE_ENV", "RAGSPINE_DOMAIN_DIR", "RAGSPINE_DATA_DIR")


@pytest.fixture
def isolated_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An evaluation sets the service's environment per context: restore it and the cached services after."""
    for name in SERVICE_ENV:
        monkeypatch.setenv(name, "")
    yield
    get_settings.cache_clear()
    get_services.cache_clear()
