"""Child-process entry of the code node: read ``{code, inputs}`` JSON, call ``main``, print JSON.

Runs as ``python -I -S _code_runner.py`` with rlimits set by the parent; imports nothing from
the project. Output that user code prints is swallowed so it cannot corrupt the reply.
"""

from __future__ import annotations

import io
import json
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
    reply_to = sys.stdout
    sys.stdout = io.StringIO()
    try:
        reply = {"ok": True, "result": _run(json.loads(sys.stdin.read()))}
        text = json.dumps(reply, ensure_ascii=False, allow_nan=False)
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent as JSON
        text = json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:2000]})
    reply_to.write(text)
    reply_to.flush()


if __name__ == "__main__":
    entry()
