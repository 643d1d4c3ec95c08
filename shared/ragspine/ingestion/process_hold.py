"""A process-wide setting held while any of several threads needs it, put back when the last lets go.

Ingestion steps run on worker threads side by side; an interpreter setting they change (the thread
switch interval, the collector's thresholds) belongs to the whole process, so the first holder
applies it and the last one restores what was there before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class CountedHold:
    """``apply()`` changes the setting and returns the function that puts the previous value back."""

    def __init__(self, apply: Callable[[], Callable[[], None]]) -> None:
        self._apply = apply
        self._lock = threading.Lock()
        self._holders = 0
        self._restore: Callable[[], None] | None = None

    @contextmanager
    def held(self) -> Iterator[None]:
        """Run the body with the setting applied; concurrent bodies share one application."""
        with self._lock:
            if self._holders == 0:
                self._restore = self._apply()
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0 and self._restore is not None:
                    self._restore()
                    self._restore = None
