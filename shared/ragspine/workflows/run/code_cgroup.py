"""A control group per code-node run: one limit on processes, memory and CPU for everything the code starts.

rlimits bound each process on its own (16 processes of 256 MiB each may hold 4 GiB together);
a control group bounds the run as a whole, and lists every process of it, so the run's end can
kill them all. This module finds what the host allows and makes one group per run:

- ``cgroup-v2``: the service's own cgroup v2 group lists ``pids`` and ``memory`` in its
  ``cgroup.subtree_control`` (a delegated subtree, or the root of a container's cgroup
  namespace): a child group with ``pids.max``, ``memory.max``, ``memory.swap.max`` and ``cpu.max``;
- ``cgroup-v1``: the ``pids`` and ``memory`` hierarchies (and ``cpu`` where mounted) are mounted
  and the service's group in each is writable: a child group in each, with ``pids.max``,
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``: no swap) and the CFS quota;
- ``rlimits``: neither; the run keeps the per-process rlimits alone.

The jail's launcher moves itself into the group before it creates anything (``_code_jail.py``),
so every process of the run is in it from its first instruction; the code itself sees no
``/sys`` and runs as another user, so it cannot move out.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

logger = logging.getLogger(__name__)

Mode = Literal["cgroup-v2", "cgroup-v1", "rlimits"]
_CPU_PERIOD_US = 100_000
_REQUIRED = ("pids", "memory")
_detect_lock = threading.Lock()
_detected: tuple[Mode, dict[str, Path]] | None = None


# How long ending a run waits for its processes to leave the group, and again for the group to be removed.
_REAP_WITHIN_S = 10.0


@dataclass(frozen=True, slots=True)
class RunLimits:
    """What one run may use in total: processes (the launcher and the jail's PID 1 included), memory, CPUs."""

    processes: int
    memory_bytes: int
    cpus: float


@dataclass(frozen=True, slots=True)
class RunCgroup:
    """One run's group: a directory per hierarchy (one under cgroup v2)."""

    mode: Mode
    folders: tuple[Path, ...]

    @property
    def procs_files(self) -> list[str]:
        """Where a process writes its pid to join the group (every hierarchy)."""
        return [str(folder / "cgroup.procs") for folder in self.folders]

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the run for passing the group's memory limit."""
        for folder in self.folders:
            for name in ("memory.events", "memory.oom_control"):
                with contextlib.suppress(OSError, ValueError):
                    for line in (folder / name).read_text(encoding="ascii").splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and int(value) > 0:
                            return True
        return False

    def end(self) -> int:
        """Kill every process left in the group, then remove it. The number of processes it found left.

        Each step waits up to ``_REAP_WITHIN_S``: processes killed under memory pressure, or many at once on a
        busy host, can take more than a second to leave the group, and its folder is busy until they have.
        """
        left: set[int] = set()
        deadline = time.monotonic() + _REAP_WITHIN_S
        while (pids := self._pids()) and time.monotonic() < deadline:
            left |= pids
            kill = self.folders[0] / "cgroup.kill"
            if kill.exists():
                with contextlib.suppress(OSError):
                    kill.write_text("1", encoding="ascii")
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)
        deadline = time.monotonic() + _REAP_WITHIN_S
        for folder in self.folders:
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # the last processes are still being reaped
                    if time.monotonic() >= deadline:
                        logger.warning("code run cgroup not removed", extra={"cgroup": str(folder)})
                        break
                    time.sleep(0.01)
        return len(left)

    def _pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                found |= {int(line) for line in (folder / "cgroup.procs").read_text(encoding="ascii").split()}
        return found


def create_run_cgroup(limits: RunLimits) -> RunCgroup | None:
    """A new group for one run with ``limits`` set, or None where the host gives none (rlimits alone).

    A group that cannot be completed is removed and the run falls back to rlimits, with a warning.
    """
    mode, parents = _detect()
    if mode == "rlimits":
        return None
    name = f"ragspine-code-{secrets.token_hex(8)}"
    made: list[Path] = []
    try:
        for controller, parent in parents.items():
            folder = parent / name
            if folder in made:
                continue
            folder.mkdir()
            made.append(folder)
            _set_limits(mode, controller, folder, limits)
    except OSError as exc:
        logger.warning("code run cgroup could not be made; rlimits only", extra={"error": str(exc)})
        RunCgroup(mode, tuple(made)).end()
        return None
    return RunCgroup(mode, tuple(made))


def _set_limits(mode: Mode, controller: str, folder: Path, limits: RunLimits) -> None:
    quota = max(1000, int(limits.cpus * _CPU_PERIOD_US))
    if mode == "cgroup-v2":
        _write(folder / "pids.max", limits.processes)
        _write(folder / "memory.max", limits.memory_bytes)
        _write(folder / "memory.swap.max", 0, optional=True)
        _write(folder / "cpu.max", f"{quota} {_CPU_PERIOD_US}", optional=True)
    elif controller == "pids":
        _write(folder / "pids.max", limits.processes)
    elif controller == "memory":
        _write(folder / "memory.limit_in_bytes", limits.memory_bytes)
        _write(folder / "memory.memsw.limit_in_bytes", limits.memory_bytes, optional=True)
    elif controller == "cpu":
        _write(folder / "cpu.cfs_period_us", _CPU_PERIOD_US)
        _write(folder / "cpu.cfs_quota_us", quota)


def _write(path: Path, value: object, *, optional: bool = False) -> None:
    if optional and not path.exists():
        return
    path.write_text(str(value), encoding="ascii")


def _detect() -> tuple[Mode, dict[str, Path]]:
    global _detected  # noqa: PLW0603 - the host's cgroup layout does not change while the service runs
    with _detect_lock:
        if _detected is None:
            _detected = _find()
            logger.info("code run limits", extra={"mode": _detected[0]})
        return _detected


def _find() -> tuple[Mode, dict[str, Path]]:
    try:
        memberships = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()
        mounts = Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines()
    except OSError:  # not Linux, or no /proc
        return "rlimits", {}
    groups: dict[str, str] = {}  # controller ("" for cgroup v2) -> the service's group path
    for line in memberships:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    roots: dict[str, Path] = {}  # controller ("" for cgroup v2) -> mount point of its hierarchy
    for line in mounts:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        if tail[0] == "cgroup2" and fields[3] == "/":
            roots.setdefault("", Path(fields[4]))
        elif tail[0] == "cgroup" and fields[3] == "/":
            for option in tail[2].split(","):
                roots.setdefault(option, Path(fields[4]))
    v2 = _group_folder(roots.get(""), groups.get(""))
    if v2 is not None and _delegated_v2(v2):
        return "cgroup-v2", {"": v2}
    v1 = {c: _group_folder(roots.get(c), groups.get(c)) for c in (*_REQUIRED, "cpu")}
    if all(v1[c] is not None and os.access(v1[c], os.W_OK) for c in _REQUIRED):  # type: ignore[arg-type]
        return "cgroup-v1", {c: f for c, f in v1.items() if f is not None and os.access(f, os.W_OK)}
    return "rlimits", {}


def _group_folder(root: Path | None, path: str | None) -> Path | None:
    if root is None or path is None:
        return None
    folder = root / path.lstrip("/")
    return folder if folder.is_dir() else None


def _delegated_v2(folder: Path) -> bool:
    try:
        enabled = (folder / "cgroup.subtree_control").read_text(encoding="ascii").split()
    except OSError:
        return False
    return all(c in enabled for c in _REQUIRED) and os.access(folder, os.W_OK)
