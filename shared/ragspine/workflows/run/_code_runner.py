"""Child-process entry of the code node: read ``{code, inputs}`` JSON, call ``main``, print JSON.

Runs as ``python -I -S _code_runner.py`` with rlimits set by the parent; imports nothing from
the project. What the code prints, and what its own child processes write to their standard
output, goes nowhere (``sys.stdout`` is swapped, file descriptor 1 points at ``/dev/null``), so
it cannot corrupt the reply by accident. The code runs in this process and could still write a
reply of its own on purpose: the service reads the reply as the code's word only.
"""

from __future__ import annotations

import io
import json
import os
import sys


def _run(payload: dict[str, object]) -> dict[str, object]:
    namespace: dict[str, object] = {"__name__": "__dify_code__"}
    exec(compile(str(payload["code"]), "<code-node>", "exec"), namespace)  # noqa: S102 - the point of this node
    main = namespace.get("main")
    if not callable(main):
        raise TypeError("the code must define main()")
    inputs = payload.get("inputs")
    result = main(**inputs) if isinstance(inputs, dict) else main()
    if not isinstance(result, dict):
        raise TypeError(f"main() must return a dict, not {type(result).__name__}")
    return result


def entry() -> None:
    """Read the request from stdin and write one JSON reply to stdout."""
    reply_to = os.dup(1)  # not inheritable: a process the code starts gets /dev/null as its stdout
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    sys.stdout = io.StringIO()
    try:
        reply = {"ok": True, "result": _run(json.loads(sys.stdin.read()))}
        text = json.dumps(reply, ensure_ascii=False, allow_nan=False)
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent as JSON
        text = json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:2000]})
    data = text.encode("utf-8", "surrogatepass")  # the service's json.loads reads lone surrogates back the same
    while data:
        data = data[os.write(reply_to, data):]


if __name__ == "__main__":
    entry()
