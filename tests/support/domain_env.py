"""Point the service (settings and services caches included) at a domain folder and a data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.settings import get_settings
from tests.support.process_caches import close_services


def point_at(patch: pytest.MonkeyPatch, domain_dir: Path, data: Path, *, today: str = "2025-09-15") -> None:
    """Embedded backend, no embedder, no FAQ file, a fixed today; the caches are cleared so the next call reads it."""
    for name, value in {"RAGSPINE_DOMAIN_DIR": str(domain_dir), "RAGSPINE_DATA_DIR": str(data), "RAGSPINE_ENV": "test",
                        "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": today}.items():
        patch.setenv(name, value)
    patch.delenv("RAGSPINE_BACKEND", raising=False)
    patch.delenv("RAGSPINE_FAQ_PATH", raising=False)
    get_settings.cache_clear()
    close_services()
