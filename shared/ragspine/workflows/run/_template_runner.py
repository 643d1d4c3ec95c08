"""Child-process entry of template rendering: read the request JSON, render in Jinja's sandbox, print JSON.

Runs as ``python -I -S _template_runner.py`` under the limits the parent set (``template_child``):
address space, CPU seconds, the run's control group where the host gives one, and a wall clock
the parent enforces by killing it. It imports the standard library, Jinja2 (from the folders the
request names) and, when asked, the step budget (``template_budget.py``, loaded by its path: the
project's packages are not imported). The reply is data only: ``{"ok": true, "output": ...}`` or
``{"ok": false, "kind": ..., "error": ...}``.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from types import ModuleType
from typing import Any


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("template_budget", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _render(request: dict[str, Any]) -> str:
    sys.path[:0] = [str(path) for path in request["paths"]]
    template, variables = str(request["template"]), dict(request["variables"])
    max_output = int(request["max_output"])
    budget = request.get("budget")
    if budget:
        rendered: str = _load(str(budget["module"])).render_bounded(
            template, variables, max_steps=int(budget["max_steps"]), max_output=max_output,
            timeout_seconds=float(budget["timeout_seconds"]))
        return rendered
    from jinja2.sandbox import SandboxedEnvironment

    text = SandboxedEnvironment(autoescape=False, keep_trailing_newline=True).from_string(template).render(**variables)
    if len(text) > max_output:
        raise ValueError(f"template output exceeds {max_output} characters")
    return text


def _kind(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, RecursionError):
        return "recursion"
    return "error"


def entry() -> None:
    """Read the request from stdin and write one JSON reply to stdout."""
    reply_to = sys.stdout
    sys.stdout = io.StringIO()
    try:
        text = json.dumps({"ok": True, "output": _render(json.loads(sys.stdin.read()))})  # ASCII: lone surrogates too
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent as JSON
        try:
            text = json.dumps({"ok": False, "kind": _kind(exc), "error": f"{type(exc).__name__}: {exc}"[:2000]})
        except BaseException:  # noqa: BLE001 - no memory left to describe it: say only what kind it was
            text = '{"ok": false, "kind": "memory", "error": "MemoryError"}'
    reply_to.write(text)
    reply_to.flush()


if __name__ == "__main__":
    entry()
