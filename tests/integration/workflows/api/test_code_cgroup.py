"""A code node's run is one control group where the host gives one: a fork bomb and a memory hog spread over many
processes end as the node's failure, and no process of the run is left behind, whatever mode the host allows."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run import code_cgroup, code_jail, code_node
from ragspine.workflows.run.code_node import CodeLimits, execute_python

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0,
                                reason="the namespace jail is built by root on Linux")


def cgroup_mode() -> str:
    """The mode a run gets on this host, read from the group the product would make for it."""
    group = code_cgroup.create_run_cgroup(code_cgroup.RunLimits(processes=4, memory_bytes=64 << 20, cpus=1.0))
    if group is None:
        return "rlimits"
    group.end()
    return group.mode


GROUPED = pytest.mark.skipif(cgroup_mode() == "rlimits", reason="this host gives code runs no control group")

FORK_BOMB = """
def main():
    import os
    while True:
        try:
            os.fork()
        except OSError:
            pass
"""

# Four processes of 150 MiB each: every one within its own 256 MiB address space, 600 MiB together.
SPREAD_HOG = """
def main():
    import os, time
    children = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            block = bytearray(150 * 1024 * 1024)
            block[::4096] = b"x" * len(block[::4096])
            time.sleep(3)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    return {}
"""


@pytest.fixture
def run_uid(monkeypatch: pytest.MonkeyPatch) -> int:
    """The uid the next jailed run gets (one of the jail's range, chosen here so its processes can be found)."""
    uid = code_jail._UID_BASE + secrets.randbelow(code_jail._UID_SPAN)
    monkeypatch.setattr(code_jail, "_UID_BASE", uid)
    monkeypatch.setattr(code_jail, "_UID_SPAN", 1)
    return uid


@pytest.fixture(params=["host", "rlimits"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The host's own mode, and rlimits alone (as on a host without cgroups)."""
    if request.param == "rlimits":
        monkeypatch.setattr(code_cgroup, "_detected", ("rlimits", {}))
    yield cgroup_mode()


def _processes_of(uid: int) -> list[int]:
    """Live processes of ``uid`` (a zombie, killed and waiting for the host's init to reap it, runs nothing)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text(encoding="ascii")
        except OSError:
            continue
        uids = next((line.split()[1:] for line in status.splitlines() if line.startswith("Uid:")), [])
        if str(uid) in uids and "State:\tZ" not in status:
            found.append(int(entry.name))
    return found


@pytest.fixture
def run_groups(monkeypatch: pytest.MonkeyPatch) -> list[code_cgroup.RunCgroup]:
    """The groups this test's runs make (the other test workers' runs make theirs beside them, at any time)."""
    made: list[code_cgroup.RunCgroup] = []

    def recorded(limits: code_cgroup.RunLimits) -> code_cgroup.RunCgroup | None:
        group = code_cgroup.create_run_cgroup(limits)
        if group is not None:
            made.append(group)
        return group

    monkeypatch.setattr(code_node, "create_run_cgroup", recorded)
    return made


def _left(groups: list[code_cgroup.RunCgroup]) -> list[Path]:
    """The folders of ``groups`` still there."""
    return [folder for group in groups for folder in group.folders if folder.exists()]


def _sample_pids(into: list[int], stop: threading.Event, groups: list[code_cgroup.RunCgroup]) -> None:
    """The largest process count of the run's group, while it runs (pids controller's ``pids.current``)."""
    while not stop.wait(0.02):
        for folder in [folder for group in list(groups) for folder in group.folders]:
            try:
                into.append(int((folder / "pids.current").read_text(encoding="ascii")))
            except (OSError, ValueError):
                continue


def test_a_fork_bomb_ends_as_the_nodes_failure_and_leaves_no_process(mode: str, run_uid: int,
                                                                     run_groups: list[code_cgroup.RunCgroup]) -> None:
    limits = CodeLimits(timeout_seconds=2.0)
    counts: list[int] = []
    stop = threading.Event()
    sampler = threading.Thread(target=_sample_pids, args=(counts, stop, run_groups), daemon=True)
    sampler.start()
    try:
        with pytest.raises(WorkflowNodeFailedError) as failed:
            execute_python(FORK_BOMB, {}, limits)
    finally:
        stop.set()
        sampler.join()
        for pid in _processes_of(run_uid):
            with contextlib.suppress(ProcessLookupError):  # it ended between the listing and the kill
                os.kill(pid, 9)
    assert "2 s time limit" in failed.value.message
    time.sleep(0.2)
    assert _processes_of(run_uid) == []
    assert len(run_groups) == (mode != "rlimits")
    assert _left(run_groups) == []  # the run's group is gone
    if mode != "rlimits":
        assert counts and max(counts) <= limits.max_processes + 2


@GROUPED
def test_a_memory_hog_spread_over_processes_ends_as_the_nodes_failure(run_uid: int,
                                                                       run_groups: list[code_cgroup.RunCgroup]) -> None:
    try:
        with pytest.raises(WorkflowNodeFailedError) as failed:
            execute_python(SPREAD_HOG, {}, CodeLimits(timeout_seconds=10.0))
    finally:
        for pid in _processes_of(run_uid):
            with contextlib.suppress(ProcessLookupError):  # it ended between the listing and the kill
                os.kill(pid, 9)
    assert failed.value.message == ("code exceeded the 256 MiB memory limit of the run (all its processes "
                                    "together)")
    assert _processes_of(run_uid) == []
    assert len(run_groups) == 1 and _left(run_groups) == []  # the run's group is gone


def test_a_memory_hog_in_one_process_ends_as_the_nodes_failure(mode: str, run_uid: int) -> None:
    source = "def main():\n    block = bytearray(1024 ** 3)\n    return {'n': len(block)}\n"
    with pytest.raises(WorkflowNodeFailedError) as failed:
        execute_python(source, {}, CodeLimits())
    assert "MemoryError" in failed.value.message or "memory" in failed.value.message
    assert _processes_of(run_uid) == []


@GROUPED
def test_a_detached_child_of_an_unjailed_run_is_killed_with_its_group() -> None:
    """``isolation=process`` has no PID namespace: the group is what ends a child that left the process group."""
    marker = f"ragspine-probe-{uuid.uuid4().hex}"
    source = f"""
def main():
    import os, sys
    if os.fork() == 0:
        os.setsid()
        quiet = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
    return {{"started": True}}
"""
    try:
        assert execute_python(source, {}, replace(CodeLimits(), isolation="process")) == {"started": True}
        time.sleep(0.3)
        assert _with_marker(marker) == []
    finally:
        for pid in _with_marker(marker):
            with contextlib.suppress(ProcessLookupError):  # it ended between the listing and the kill
                os.kill(pid, 9)


def _with_marker(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found
