"""Background work lowers its own thread to the lowest CPU and I/O priority, and only its own."""

from __future__ import annotations

import os
import threading

import pytest

from ragspine.background_priority import Lowered, lower_this_thread


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_a_thread_lowered_runs_at_sched_idle_and_the_others_keep_their_priority() -> None:
    seen: list[tuple[Lowered, int, int]] = []

    def background() -> None:
        lowered = lower_this_thread()
        started: list[int] = []
        inner = threading.Thread(target=lambda: started.append(os.sched_getscheduler(0)))
        inner.start()
        inner.join()
        seen.append((lowered, os.sched_getscheduler(0), started[0]))

    thread = threading.Thread(target=background)
    thread.start()
    thread.join()
    lowered, policy, inherited = seen[0]
    assert lowered.cpu == "SCHED_IDLE" and policy == os.SCHED_IDLE
    assert inherited == os.SCHED_IDLE  # a thread it starts inherits it
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # this thread (the routes') is untouched
    assert lowered.io in ("idle", "unchanged")
