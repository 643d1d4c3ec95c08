"""moto's DynamoDB answers one request at a time, as the real service does for each item it touches.

moto's backend is plain Python state shared by every thread (in-process ``mock_aws`` and the threaded
HTTP server alike). ``TransactWriteItems`` deep-copies each table it names so it can roll back, and
checks its conditions before it writes: a second thread writing meanwhile either breaks the copy
("dictionary changed size during iteration") or slips between a check and its write. DynamoDB itself
applies a request atomically, so one lock around moto's DynamoDB dispatch is the faithful model; it
costs nothing to a test that calls from one thread, and a test of concurrent writers keeps its race
(the threads still interleave between requests, only never inside one).
"""

from __future__ import annotations

import functools
import threading
from typing import Any

_LOCK = threading.RLock()
_MARK = "_ragspine_serialized"


def serialize_dynamodb_calls() -> None:
    """Make every moto DynamoDB request atomic with respect to the others (idempotent, process-wide)."""
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.call_action
    if getattr(original, _MARK, False):
        return

    @functools.wraps(original)
    def call_action(self: Any) -> Any:
        with _LOCK:
            return original(self)

    setattr(call_action, _MARK, True)
    DynamoHandler.call_action = call_action  # type: ignore[method-assign]
