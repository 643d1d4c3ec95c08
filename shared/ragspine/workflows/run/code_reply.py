"""A code runner's reply, read as untrusted data: ``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": ...}``.

The runner shares its process with the code it runs, so nothing it writes can be told apart
from what that code writes (the code may write to any file descriptor and exit at will). Its
reply therefore only ever says what the code did: any text of another shape is the code's
failure, "the code node's output was not a valid result", never a fault of the service and
never a statement about the service itself (whether the jail was built is read elsewhere).
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from ragspine.workflows.errors import WorkflowNodeFailedError

NOT_A_RESULT = "the code node's output was not a valid result"
_SUCCESS_KEYS = frozenset({"ok", "result"})
_ERROR_KEYS = frozenset({"ok", "error"})
_ERROR_CODE_KEYS = frozenset({"ok", "error", "code"})  # the code-runner Lambda also names the error's code


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def read_code_reply(out: bytes, *, error_prefix: str = "code failed: ") -> dict[str, Any]:
    """The ``result`` object of a successful reply; an error reply's text follows ``error_prefix`` in the failure.

    Raises:
        WorkflowNodeFailedError: the reply is the code's error, or is not exactly one of the two shapes.
    """
    try:
        reply = json.loads(out, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
        raise WorkflowNodeFailedError(NOT_A_RESULT) from None
    if not isinstance(reply, dict):
        raise WorkflowNodeFailedError(NOT_A_RESULT)
    keys = frozenset(reply)
    if reply.get("ok") is True and keys == _SUCCESS_KEYS and isinstance(reply["result"], dict):
        result: dict[str, Any] = reply["result"]
        return result
    if (reply.get("ok") is False and keys in (_ERROR_KEYS, _ERROR_CODE_KEYS) and isinstance(reply["error"], str)
            and isinstance(reply.get("code", ""), str)):
        raise WorkflowNodeFailedError(error_prefix + reply["error"])
    raise WorkflowNodeFailedError(NOT_A_RESULT)
