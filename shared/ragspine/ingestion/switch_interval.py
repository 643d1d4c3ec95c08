"""Switch the interpreter between threads more often while an ingestion step runs beside the routes.

An ingestion step of a large document runs Python code for seconds in the service's process
(activation decodes the staged chunks and writes the index). A route's thread that wants the
interpreter lock meanwhile waits for the switch interval (5 ms by default) before the step's
thread is asked to let go, and an ask takes the lock again after every SQLite call and every
hand-over between the server's threads: each of those waits added up to 5 ms to the ask. While a
step runs, the interval is 0.5 ms, so an ask waits a tenth as long at each of them; the step pays
a few more switches. When the last running step ends the process's own interval comes back.
Concurrent steps share one hold, counted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ragspine.ingestion.process_hold import CountedHold

STEP_SWITCH_INTERVAL_S = 0.0005

def _shorten() -> Callable[[], None]:
    restored = sys.getswitchinterval()
    sys.setswitchinterval(min(restored, STEP_SWITCH_INTERVAL_S))
    return lambda: sys.setswitchinterval(restored)


_HOLD = CountedHold(_shorten)


@contextmanager
def short_switch_interval() -> Iterator[None]:
    """Run the body with the interpreter's switch interval at most ``STEP_SWITCH_INTERVAL_S``."""
    with _HOLD.held():
        yield
