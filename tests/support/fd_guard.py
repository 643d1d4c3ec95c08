"""A test module must close what it opens: the descriptors it leaves open are counted, not timed.

Before a module's first test and after its last one (its module fixtures torn down) the process's
open descriptors are counted, after a garbage collection so that objects nobody holds are gone.
More than ``MODULE_FD_BOUND`` new ones fails the run, and the end of the run names the module and
what stays open (a suite that leaked about 500 per module ended a full run with thousands open).
``fail_above`` may be set higher to list modules without failing (while hunting leaks).
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from pathlib import Path

import pytest

MODULE_FD_BOUND = 24  # a session fixture first used by a module (a server, a log file) stays open legitimately
_FD_DIR = Path("/proc/self/fd")


def open_descriptors() -> dict[int, str]:
    """Each open descriptor of this process and what it points at (Linux; empty elsewhere)."""
    gc.collect()
    found: dict[int, str] = {}
    if not _FD_DIR.is_dir():
        return found
    for entry in _FD_DIR.iterdir():
        try:
            found[int(entry.name)] = str(entry.readlink())
        except OSError:  # the listing's own descriptor, closed by now
            continue
    return found


def describe(targets: list[str], limit: int = 8) -> str:
    """The most common targets, with run-specific parts (temporary folders, inode numbers) folded."""
    # a run's temporary folder: pytest-<n>/<test>, under xdist pytest-<n>/popen-gw<k>/<test>
    run_folder = re.compile(r"/pytest-\d+/(?:popen-gw\d+/)?[^/]+")
    folded = Counter(re.sub(r"\[\d+\]", "[]", run_folder.sub("/pytest-N/<test>", t)) for t in targets)
    return ", ".join(f"{count}x {target}" for target, count in folded.most_common(limit))


class FdGuard:
    """The pytest plugin: per module, the descriptors left open after its teardown."""

    def __init__(self, bound: int = MODULE_FD_BOUND, fail_above: int | None = None) -> None:
        self.bound = bound
        self.fail_above = bound if fail_above is None else fail_above
        self._module: str | None = None
        self._before: dict[int, str] = {}
        self.leaks: list[str] = []
        self.failing = False

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> object:
        module = item.nodeid.split("::", 1)[0]
        if module != self._module:
            self._module, self._before = module, open_descriptors()
        yield
        if nextitem is not None and nextitem.nodeid.split("::", 1)[0] == module:
            return
        after = open_descriptors()
        new = [target for fd, target in after.items() if self._before.get(fd) != target]
        if len(new) > self.bound:
            self.failing = self.failing or len(new) > self.fail_above
            self.leaks.append(f"{module} left {len(new)} descriptors open (bound {self.bound}): {describe(new)}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.failing and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        for leak in self.leaks:
            terminalreporter.write_line(f"descriptor leak: {leak}", red=True)
