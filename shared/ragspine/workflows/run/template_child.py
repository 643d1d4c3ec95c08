"""Workflow templates rendered in a limited child process, so no template can take the service's memory or time.

Jinja's sandbox stops attribute tricks, not work: a template can loop, allocate and build text
until the process runs out. Each render therefore runs in a fresh child, forked from a warm
parent that imported Jinja2 once (``template_zygote``), or, where that parent cannot run,
started by the code node's machinery (``code_node.run_limited``, ``isolation="process"``).
Either way the child gets the same limits: an empty environment,
its own process group, an address-space limit, a CPU-time limit, the run's control group where
the host gives one (memory and CPU for the child as a whole), a wall clock after which the
parent kills it, and a reply that is JSON data read up to a size limit. Whatever a template
does, it ends as the node's ``template error``; the service's process never runs it.

Inside the child the step budget (``template_budget``) still runs first: it refuses the
expensive calls it knows with a message that names them, within milliseconds, long before the
child's limits are reached. The child's limits close what the budget does not list.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import logging
import signal
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.child_slots import child_slot
from ragspine.workflows.run.code_node import ChildExit, CodeLimits, exit_signal, run_limited
from ragspine.workflows.run.template_zygote import TemplateZygote, ZygoteUnavailableError

logger = logging.getLogger(__name__)
RUNNER = Path(__file__).resolve().with_name("_template_runner.py")
BUDGET_MODULE = Path(__file__).resolve().with_name("template_budget.py")


@dataclass(frozen=True, slots=True)
class TemplateLimits:
    """One render's limits: the budget's steps and time (``budgeted`` off: the child's limits alone),
    the output size, and the child's memory, wall clock and reply size."""

    max_steps: int
    max_output: int
    timeout_seconds: float
    memory_mb: int = 256
    max_reply_bytes: int = 2 * 1024 * 1024
    start_seconds: float = 3.0  # starting the interpreter and importing Jinja2, on top of the render's time
    budgeted: bool = True
    warm: bool = True  # fork from the warm parent (``template_zygote``); off, or where it cannot run: a cold child

    def child(self) -> CodeLimits:
        """The child process's limits: the render's time plus its start, one process, no jail."""
        return CodeLimits(timeout_seconds=self.timeout_seconds + self.start_seconds, memory_mb=self.memory_mb,
                          max_output_bytes=self.max_reply_bytes, max_processes=1, isolation="process")


@functools.cache
def _import_paths() -> tuple[str, ...]:
    """The folders the child imports Jinja2 and MarkupSafe from (found without importing them here)."""
    paths: list[str] = []
    for name in ("jinja2", "markupsafe"):
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise WorkflowNodeFailedError(f"template error: {name} is not installed")
        folder = str(Path(next(iter(spec.submodule_search_locations))).parent)
        if folder not in paths:
            paths.append(folder)
    return tuple(paths)


def render_in_child(template: str, variables: Mapping[str, Any], limits: TemplateLimits) -> str:
    """``template`` rendered with ``variables`` in a limited child process.

    Variables travel as JSON (a value JSON cannot hold is passed as its text).

    Raises:
        WorkflowNodeFailedError: a syntax error, a sandbox violation, a budget or limit spent, or any error the
            template raised; the message starts with ``template error``.
    """
    budget = ({"module": str(BUDGET_MODULE), "max_steps": limits.max_steps, "timeout_seconds": limits.timeout_seconds}
              if limits.budgeted else None)
    try:
        request = json.dumps({"paths": list(_import_paths()), "template": template, "variables": dict(variables),
                              "max_output": limits.max_output, "budget": budget}, default=str).encode("ascii")
    except (ValueError, RecursionError) as exc:  # a circular or too deeply nested value
        raise WorkflowNodeFailedError(f"template error: its variables cannot be sent to the render ({exc})") from exc
    child = limits.child()
    try:
        ended = _run_child(request, child, warm=limits.warm)
    except OSError as exc:
        raise WorkflowNodeFailedError(f"template error: the render process could not start ({exc})") from exc
    if ended.stopped is not None:
        reason = (f"the template ran longer than {child.timeout_seconds:g} s" if "time limit" in ended.stopped
                  else "the template's reply was too large")
        raise WorkflowNodeFailedError(f"template error: {reason}")
    if ended.out_of_memory:
        raise _memory_error(limits)
    reply = _reply(ended.out)
    if reply is None:
        if exit_signal(ended.returncode, child) == getattr(signal, "SIGXCPU", None):
            raise WorkflowNodeFailedError(f"template error: the template used more than "
                                          f"{child.rlimits()['cpu_seconds']} s of CPU")
        raise WorkflowNodeFailedError(f"template error: the render was stopped (exit status {ended.returncode})")
    if reply.get("ok") is True and isinstance(reply.get("output"), str):
        output: str = reply["output"]
        return output
    kind = reply.get("kind")
    if kind == "memory":
        raise _memory_error(limits)
    if kind == "recursion":
        raise WorkflowNodeFailedError("template error: recursion too deep")
    raise WorkflowNodeFailedError(f"template error: {reply.get('error')}"[:500])


def _run_child(request: bytes, child: CodeLimits, *, warm: bool) -> ChildExit:
    """The render in a child forked by the warm parent, or in a cold child where the warm parent cannot run."""
    parent = _warm_parent() if warm else None
    if parent is not None:
        try:
            with child_slot():
                return parent.render(request, child)
        except ZygoteUnavailableError:
            logger.warning("the warm template parent is unavailable; rendering in a cold child", exc_info=True)
    return run_limited(RUNNER, request, child)


_warm_lock = threading.Lock()
_warm: list[TemplateZygote] = []
_warm_failed: list[bool] = []


def _warm_parent() -> TemplateZygote | None:
    """The process's warm parent (started on first use), or None where it cannot start (then never tried again)."""
    with _warm_lock:
        if _warm_failed:
            return None
        if not _warm:
            parent = TemplateZygote(paths=_import_paths(), budget=BUDGET_MODULE, runner=RUNNER)
            try:
                parent.start()
            except ZygoteUnavailableError:
                logger.warning("the warm template parent cannot start here; templates render in cold children",
                               exc_info=True)
                _warm_failed.append(True)
                return None
            _warm.append(parent)
        return _warm[0]


def _memory_error(limits: TemplateLimits) -> WorkflowNodeFailedError:
    return WorkflowNodeFailedError(f"template error: the template needed more than {limits.memory_mb} MiB of memory")


def _reply(out: bytes) -> dict[str, Any] | None:
    """The child's reply, or None when it wrote nothing that is one (killed, or it died)."""
    try:
        reply = json.loads(out)
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None
