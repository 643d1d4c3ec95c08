"""A lazy face imports its module on the first attribute read, never before, and then reads like it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import ModuleType

import pytest

from ragspine.lazy import LazyModule, loaded


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter (no test has imported anything there yet) and return its output."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_naming_a_module_does_not_import_it_and_the_first_read_does() -> None:
    # GIVEN a fresh interpreter WHEN a face of the yaml module is made THEN yaml is not imported yet
    # WHEN one of its names is read THEN yaml is imported and the name is yaml's own
    out = _run("""
        import sys
        from ragspine.lazy import LazyModule
        yaml = LazyModule("yaml")
        before = "yaml" in sys.modules
        loads = yaml.safe_load
        print(before, "yaml" in sys.modules, loads is sys.modules["yaml"].safe_load)
    """)
    assert out == "False True True"


def test_a_module_name_that_meets_no_method_of_the_face_reads_as_the_module_s() -> None:
    # GIVEN modules whose names a proxy could shadow (yaml.load, json.loads)
    yaml = LazyModule("yaml")
    json = LazyModule("json")
    # THEN the first and later reads are the module's own functions
    assert yaml.load("a: 1", Loader=yaml.SafeLoader) == {"a": 1}
    assert yaml.load("b: 2", Loader=yaml.SafeLoader) == {"b": 2}
    assert json.loads("[1]") == [1] and loaded(json) is sys.modules["json"]


def test_a_missing_module_fails_on_first_use_not_when_named() -> None:
    # GIVEN a face of a module that is not installed (a library a Lambda layer does not ship)
    absent = LazyModule("ragspine_no_such_module")
    # WHEN it is read THEN the import error is raised there, naming the module
    with pytest.raises(ModuleNotFoundError, match="ragspine_no_such_module"):
        absent.anything  # noqa: B018 - the read is the point


def test_a_name_the_module_lacks_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        LazyModule("json").no_such_name  # noqa: B018 - the read is the point


def test_a_name_the_module_rebinds_after_the_first_read_reads_anew_through_the_face(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a module and a face of it already read once
    module = ModuleType("ragspine_face_probe")
    module.value = "first"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ragspine_face_probe", module)
    face = LazyModule("ragspine_face_probe")
    assert face.value == "first"
    # WHEN the module rebinds the name (as a reload or a test's patch does)
    module.value = "second"  # type: ignore[attr-defined]
    # THEN the face reads the module's current binding, not a copy taken before
    assert face.value == "second"
