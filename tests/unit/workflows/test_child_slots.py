"""The process-wide bound on concurrent template and code children."""

from __future__ import annotations

import threading

import pytest

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowNodeBusyError
from ragspine.workflows.run import child_slots
from ragspine.workflows.run.compile import ExecutionPlan, compile_plan
from ragspine.workflows.run.execute import RunStatus, WorkflowExecutor
from tests.unit.workflows.samples import dsl, edge, end, start, template


@pytest.fixture
def one_slot(monkeypatch: pytest.MonkeyPatch) -> threading.BoundedSemaphore:
    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(child_slots, "_slots", slots)
    monkeypatch.setattr(child_slots, "WAIT_SECONDS", 0.05)
    return slots


def _plan() -> ExecutionPlan:
    return compile_plan(read_dsl(dsl([start(), template("t", "{{ 'a' ~ 'b' }}"), end(("out", ["t", "output"]))],
                                     [edge("start", "t"), edge("t", "end")])))


def test_a_render_waits_for_a_slot_then_fails_its_node_busy_with_a_retry_hint(
        one_slot: threading.BoundedSemaphore) -> None:
    assert one_slot.acquire(timeout=1)  # another child holds the only slot
    try:
        result = WorkflowExecutor().run(_plan(), {})
    finally:
        one_slot.release()
    assert result.status is RunStatus.FAILED and result.error_code == WorkflowNodeBusyError.code
    assert result.error is not None and "busy" in result.error and "retry" in result.error


def test_a_free_slot_renders_and_is_given_back(one_slot: threading.BoundedSemaphore) -> None:
    result = WorkflowExecutor().run(_plan(), {})
    assert result.status is RunStatus.SUCCEEDED and result.outputs == {"out": "ab"}
    assert one_slot.acquire(timeout=0)  # the render gave its slot back
    one_slot.release()
