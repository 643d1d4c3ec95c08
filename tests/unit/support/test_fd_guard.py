"""The descriptor guard of the test run: a module that leaves files open beyond the bound is reported."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.fd_guard import FdGuard, open_descriptors


def _run_module(guard: FdGuard, name: str, tests: int, body: Any) -> None:
    """Drive the guard's hook through a module of ``tests`` tests, each running ``body``."""
    items = [SimpleNamespace(nodeid=f"{name}::test_{n}") for n in range(tests)]
    for n, item in enumerate(items):
        hook = guard.pytest_runtest_protocol(item, items[n + 1] if n + 1 < tests else None)  # type: ignore[arg-type]
        next(hook)  # type: ignore[call-overload]
        body()
        with pytest.raises(StopIteration):
            next(hook)  # type: ignore[call-overload]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_a_module_leaving_more_files_open_than_the_bound_is_reported_and_fails_the_run(tmp_path: Path) -> None:
    guard = FdGuard(bound=3)
    kept: list[Any] = []
    _run_module(guard, "tests/leaky.py", 2, lambda: kept.extend(
        (tmp_path / f"f{len(kept) + n}").open("w") for n in range(2)))
    try:
        assert len(guard.leaks) == 1
        assert guard.leaks[0].startswith("tests/leaky.py left 4 descriptors open (bound 3)")
        assert "/pytest-N/<test>/f" in guard.leaks[0]  # what stays open, the run's temporary folder folded
        assert guard.failing  # the bound that lists a module also fails the run
        session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)
        guard.pytest_sessionfinish(session)  # type: ignore[arg-type]
        assert session.exitstatus == pytest.ExitCode.TESTS_FAILED
    finally:
        for handle in kept:
            handle.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_a_module_that_closes_what_it_opens_passes(tmp_path: Path) -> None:
    guard = FdGuard(bound=0)

    def opens_and_closes() -> None:
        with (tmp_path / "f").open("w") as handle:
            handle.write("x")

    _run_module(guard, "tests/tidy.py", 3, opens_and_closes)
    assert guard.leaks == []


def test_open_descriptors_names_what_each_points_at(tmp_path: Path) -> None:
    with (tmp_path / "named").open("w"):
        targets = open_descriptors().values()
    if Path("/proc/self/fd").is_dir():
        assert str(tmp_path / "named") in targets


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_a_higher_failing_bound_lists_a_module_without_failing_the_run(tmp_path: Path) -> None:
    guard = FdGuard(bound=1, fail_above=5)
    kept: list[Any] = []
    _run_module(guard, "tests/leaky.py", 2, lambda: kept.extend(
        (tmp_path / f"f{len(kept) + n}").open("w") for n in range(2)))
    try:
        session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)
        guard.pytest_sessionfinish(session)  # type: ignore[arg-type]
        assert len(guard.leaks) == 1 and not guard.failing and session.exitstatus == pytest.ExitCode.OK
    finally:
        for handle in kept:
            handle.close()
