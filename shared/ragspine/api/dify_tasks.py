"""Dify's stop for streamed runs: ``POST /v1/workflows/tasks/{task_id}/stop`` ends a stream this process serves.

Each streamed run registers its task id, its user and how to put an item on the queue its stream
reads; a stop by the same user puts a sentinel on that queue, so the stream answers ``workflow_finished`` with status
``stopped`` at once and closes. The node running at that moment finishes in its worker thread and
its result is dropped. Like Dify, a stop answers success whether or not the task is still running
(blocking runs have finished before their task id is known). The registry is per process: on AWS
a stop reaches only the Lambda instance that serves the stream.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

STOP = object()


class StreamTasks:
    """The streamed runs in flight in this process, by task id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: dict[str, tuple[str, Callable[[object], None]]] = {}

    def register(self, task_id: str, user: str, deliver: Callable[[object], None]) -> None:
        """A stream started; ``user`` may stop it; ``deliver`` puts an item on its queue (from any thread)."""
        with self._lock:
            self._tasks[task_id] = (user, deliver)

    def unregister(self, task_id: str) -> None:
        """The stream ended (finished, failed, stopped or the client went away)."""
        with self._lock:
            self._tasks.pop(task_id, None)

    def stop(self, task_id: str, user: str) -> bool:
        """Stop the task if it runs here for ``user``; whether one was stopped."""
        with self._lock:
            found = self._tasks.get(task_id)
        if found is None or found[0] != user:
            return False
        found[1](STOP)
        return True


TASKS = StreamTasks()
