"""Dify's streaming mode: a run's progress as server-sent events.

The executor runs on the workflow threads (``RunCapacity``) and reports node events through an
asyncio queue; the stream awaits them without holding a server worker thread, and turns each
into Dify's ``workflow_started``, ``node_started``, ``node_finished``, ``text_chunk`` (an llm
node's whole text) and ``workflow_finished`` events, or one ``error`` event (``{"event":
"error", "status", "code", "message"}``) if the run raises. The gate is checked and the plan
compiled before the stream starts, so a refused run is a plain 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, TypeVar

import anyio
from starlette.concurrency import run_in_threadpool

from ragspine.api.dify_shapes import run_data, sse
from ragspine.api.dify_tasks import STOP, TASKS
from ragspine.api.error_formats import dify_status
from ragspine.errors import RagspineError
from ragspine.workflows.errors import WorkflowInputError
from ragspine.workflows.run import EventKind, ExecutionPlan, RunEvent, RunResult, RunTicket
from ragspine.workflows.surfaces import (
    NodeTrace,
    RunSurface,
    StoredWorkflow,
    WorkflowComponents,
    as_recorded,
    node_trace,
    record_failure,
    record_result,
    record_start,
    record_stop,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")
# A node that never reports back (a hung provider) must not hold the connection forever.
WAIT_SECONDS = 300.0


class _Stream:
    """The ids and counters one streamed run shares between its events."""

    def __init__(self, plan: ExecutionPlan, workflow_id: str) -> None:
        self.plan, self.workflow_id = plan, workflow_id
        self.task_id, self.run_id = str(uuid.uuid4()), str(uuid.uuid4())
        self.created_at = int(time.time())
        self.executions: dict[str, tuple[str, int]] = {}
        self.traces: list[NodeTrace] = []  # finished nodes, for the record of a run that ends early

    def event(self, name: str, data: Mapping[str, Any]) -> str:
        return sse({"event": name, "task_id": self.task_id, "workflow_run_id": self.run_id, "data": data})

    def node(self, item: RunEvent) -> Iterator[str]:
        step = self.plan.step(item.node_id)
        if item.kind is EventKind.NODE_STARTED:
            self.executions[item.node_id] = (str(uuid.uuid4()), len(self.executions) + 1)
        execution_id, index = self.executions[item.node_id]
        data: dict[str, Any] = {"id": execution_id, "node_id": item.node_id, "node_type": item.node_type,
                                "title": item.title, "index": index,
                                "predecessor_node_id": step.after[0] if step.after else None,
                                "created_at": int(time.time())}
        if item.kind is EventKind.NODE_STARTED or item.run is None:
            yield self.event("node_started", data)
            return
        run = item.run
        self.traces.append(node_trace(run))
        yield self.event("node_finished", {**data, "inputs": {}, "process_data": None, "outputs": dict(run.outputs),
                                           "status": run.status.value, "error": run.error,
                                           "elapsed_time": round(run.elapsed_time, 6), "finished_at": int(time.time()),
                                           "execution_metadata": {"total_tokens": 0}})
        if item.node_type == "llm" and isinstance(run.outputs.get("text"), str):
            yield self.event("text_chunk", {"text": run.outputs["text"], "from_variable_selector": [item.node_id,
                                                                                                    "text"]})

    def finished(self, result: RunResult) -> str:
        return self.event("workflow_finished", run_data(result, workflow_id=self.workflow_id,
                                                        created_at=self.created_at, finished_at=int(time.time())))

    def stopped(self) -> str:
        finished = sum(1 for _ in self.executions)
        return self.event("workflow_finished", {
            "id": self.run_id, "workflow_id": self.workflow_id, "status": "stopped", "outputs": {},
            "error": "stopped by the user", "elapsed_time": round(time.time() - self.created_at, 6),
            "total_tokens": 0, "total_steps": finished, "created_at": self.created_at, "finished_at": int(time.time())})

    def error(self, exc: Exception) -> str:
        status, code, message = dify_status(exc)
        return sse({"event": "error", "task_id": self.task_id, "workflow_run_id": self.run_id, "status": status,
                    "code": code, "message": message or "internal error"})


async def _off_loop(work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """A short store call on a worker thread, finished even when the stream is being cancelled."""
    with anyio.CancelScope(shield=True):
        done = await run_in_threadpool(work, *args, **kwargs)
    return done


def _deliverer(loop: asyncio.AbstractEventLoop, events: asyncio.Queue[Any]) -> Callable[[object], None]:
    """Put an item on the stream's queue from any thread (dropped once the stream's loop has closed)."""

    def deliver(item: object) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody reads this stream any more
            loop.call_soon_threadsafe(events.put_nowait, item)

    return deliver


async def stream_run(plan: ExecutionPlan, inputs: Mapping[str, Any], *, workflow: StoredWorkflow,
                     components: WorkflowComponents, user: str, ticket: RunTicket) -> AsyncIterator[str]:
    """Run ``plan`` on the workflow threads under ``ticket`` and yield Dify SSE events as it progresses.

    The stream waits for events without holding a worker thread. A stream that ends without a
    result (stopped, timed out, or its client went away) is recorded stopped or failed with the
    nodes that had finished.
    """
    workflow_id = workflow.id
    stream = _Stream(plan, workflow_id)
    events: asyncio.Queue[Any] = asyncio.Queue()  # RunEvent | RunResult | Exception | STOP
    deliver = _deliverer(asyncio.get_running_loop(), events)

    def work() -> None:
        try:
            deliver(components.executor(on_event=deliver).run(plan, inputs, user=user, run_id=stream.run_id))
        except RagspineError as exc:
            deliver(exc)
        except Exception as exc:  # noqa: BLE001 - reported to the client as an opaque error event
            logger.exception("streamed run crashed", extra={"workflow_id": workflow_id})
            deliver(exc)

    try:
        record = await _off_loop(record_start, components, workflow, inputs, surface=RunSurface.DIFY, user=user,
                                 run_id=stream.run_id, task_id=stream.task_id)
    except BaseException:
        ticket.release()
        raise
    settled = False
    TASKS.register(stream.task_id, user, deliver)
    try:
        ticket.submit(work)
        yield stream.event("workflow_started", {"id": stream.run_id, "workflow_id": workflow_id,
                                                "sequence_number": 1, "inputs": dict(inputs),
                                                "created_at": stream.created_at})
        while True:
            try:
                item = await asyncio.wait_for(events.get(), WAIT_SECONDS)
            except TimeoutError:
                settled = True
                await _off_loop(record_failure, components, record, "the run did not report progress in time",
                                tuple(stream.traces))
                yield stream.error(TimeoutError("the run did not report progress in time"))
                return
            if item is STOP:
                settled = True
                await _off_loop(record_stop, components, record, "stopped by the user", tuple(stream.traces))
                yield stream.stopped()
                return
            if isinstance(item, RunEvent):
                for chunk in stream.node(item):
                    yield chunk
            elif isinstance(item, Exception):
                message = item.message if isinstance(item, RagspineError) else "internal error"
                settled = True
                await _off_loop(record_failure, components, record, message, tuple(stream.traces),
                                inputs_refused=isinstance(item, WorkflowInputError))
                yield stream.error(item)
                return
            elif isinstance(item, RunResult):
                settled = True
                recorded = await _off_loop(record_result, components, record, item)
                yield stream.finished(as_recorded(item, recorded))
                return
    finally:
        TASKS.unregister(stream.task_id)
        ticket.release()  # no-op once the run was submitted: it gives its place back when it ends
        if not settled:  # the client went away mid-stream: its result will be dropped
            await _off_loop(record_stop, components, record, "the client closed the stream", tuple(stream.traces))
