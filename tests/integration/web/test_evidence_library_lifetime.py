"""The process's evidence library keeps one operation store open: the one for the current settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.api.evidence_deps import _library, close_evidence_library
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings
from tests.support.fd_guard import open_descriptors


def _open_under(folder: Path) -> list[str]:
    return [target for target in open_descriptors().values() if target.startswith(str(folder))]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_new_settings_close_the_library_built_for_the_old(tmp_path: Path) -> None:
    first, second = (Settings(data_dir=tmp_path / name, env="test") for name in ("a", "b"))
    try:
        library = _library(first, Sensitivity.INTERNAL)
        assert _library(first, Sensitivity.INTERNAL) is library  # one per settings, built once
        assert _open_under(tmp_path / "a")  # operations.db, opened to create its tables
        _library(second, Sensitivity.INTERNAL)
        assert _open_under(tmp_path / "a") == []  # closed, not kept beside the new one
        assert _open_under(tmp_path / "b")
    finally:
        close_evidence_library()
    assert _open_under(tmp_path) == []
