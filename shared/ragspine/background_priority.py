"""Run background work (parsing, background embedding) at the lowest CPU and I/O priority the OS gives.

The ask routes and the background work share the machine's cores: at the lowest priority the
background work gets a core only when nothing at normal priority wants it, so an ask is not
queued behind a parse. On Linux the calling thread gets the ``SCHED_IDLE`` scheduling policy
(below every nice level; allowed without privileges), else nice 19, and the ``idle`` I/O class
(disk time only when no other process wants the disk). Each is applied where the platform
allows it and left as it is elsewhere; ``Lowered`` says what was applied. On Linux the policy,
nice value and I/O class are each thread's own, so lowering a thread leaves the process's
other threads (the routes) where they were; a thread or process it starts inherits them.
"""

from __future__ import annotations

import ctypes
import logging
import os
import platform
from dataclasses import dataclass

logger = logging.getLogger(__name__)

# ioprio_set(2) has no libc wrapper and no Python binding: its number on each architecture.
_IOPRIO_SET = {"x86_64": 251, "aarch64": 30, "i686": 289, "i386": 289, "armv7l": 314, "ppc64le": 273,
               "s390x": 282, "riscv64": 30}
_IOPRIO_WHO_PROCESS = 1  # with id 0: the calling thread
_IOPRIO_CLASS_IDLE = 3
_IOPRIO_CLASS_SHIFT = 13


@dataclass(frozen=True, slots=True)
class Lowered:
    """What ``lower_this_thread`` applied: ``cpu`` is ``SCHED_IDLE``, ``nice 19`` or ``unchanged``;
    ``io`` is ``idle`` or ``unchanged``."""

    cpu: str
    io: str


def lower_this_thread() -> Lowered:
    """Give the calling thread (and what it starts later) the lowest CPU and I/O priority allowed here."""
    lowered = Lowered(_lower_cpu(), _lower_io())
    logger.debug("background priority", extra={"cpu_priority": lowered.cpu, "io_priority": lowered.io})
    return lowered


def _lower_cpu() -> str:
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "SCHED_IDLE"
        except OSError:  # a kernel or sandbox that refuses the policy: nice is next best
            pass
    if hasattr(os, "nice"):
        try:
            os.nice(19)  # the kernel caps it at 19
            return "nice 19"
        except OSError:
            pass
    return "unchanged"


def _lower_io() -> str:
    number = _IOPRIO_SET.get(platform.machine()) if platform.system() == "Linux" else None
    if number is None:
        return "unchanged"
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.syscall(number, _IOPRIO_WHO_PROCESS, 0, _IOPRIO_CLASS_IDLE << _IOPRIO_CLASS_SHIFT)
    except (OSError, AttributeError):
        return "unchanged"
    return "idle" if done == 0 else "unchanged"
