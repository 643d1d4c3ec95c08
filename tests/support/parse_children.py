"""Signals sent to the child process parsing a document, as a crash or the system's out-of-memory killer would."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def signal_next_parse_child() -> Iterator[list[signal.Signals]]:
    """Each signal appended to the yielded list goes to the next parse child, 0.2 s into its parse."""
    signals: list[signal.Signals] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.005):
            children = [c for c in multiprocessing.active_children() if c.name == "ragspine-parse"]
            if children and signals and children[0].pid is not None:
                time.sleep(0.2)
                os.kill(children[0].pid, signals.pop(0))

    watcher = threading.Thread(target=watch, name="signal-parse-child", daemon=True)
    watcher.start()
    try:
        yield signals
    finally:
        done.set()
        watcher.join()


def parse_children() -> list[multiprocessing.process.BaseProcess]:
    """The parse children of this process still running."""
    return [c for c in multiprocessing.active_children() if c.name == "ragspine-parse"]
