"""The in-process executor: runs a compiled plan for the node types it supports.

Supported: start, llm (through the injected ``LLMProvider``), knowledge-retrieval (through an
injected :class:`KnowledgeRetriever`), template-transform (Jinja2 sandbox with a step, time and
size budget), if-else, http-request (allowlist, timeouts, public addresses only), code (python3
in a jail of Linux namespaces, or in the code-runner Lambda function on AWS; refused when
neither is available), end and answer.

Nodes other than code run in this process: their limits are budgets, not an OS boundary (see
docs/security.md). Runs happen only behind :class:`ragspine.workflows.run.gate.ExecutionGate`,
which is off by default.
"""

from __future__ import annotations

import enum
import logging
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ragspine.errors import RagspineError
from ragspine.workflows.errors import WorkflowInputError, WorkflowNodeFailedError, WorkflowNodeUnsupportedError
from ragspine.workflows.run.code_node import CodeLimits
from ragspine.workflows.run.handlers import HANDLERS
from ragspine.workflows.run.http_node import HttpPolicy
from ragspine.workflows.run.nodes import NodeCall, VariablePool
from ragspine.workflows.run.valid_text import valid_text, valid_value

if TYPE_CHECKING:
    from ragspine.llm.ports import LLMProvider
    from ragspine.workflows.run.compile import ExecutionPlan, Step
    from ragspine.workflows.run.ports import KnowledgeRetriever

logger = logging.getLogger(__name__)


class RunStatus(enum.StrEnum):
    """Final state of a run (Dify's names)."""

    SUCCEEDED = "succeeded"
    FAILED = "failed"


class EventKind(enum.StrEnum):
    """Progress events, named as Dify's streaming API names them."""

    NODE_STARTED = "node_started"
    NODE_FINISHED = "node_finished"


@dataclass(frozen=True, slots=True)
class NodeRun:
    """What one executed node produced."""

    node_id: str
    node_type: str
    title: str
    status: RunStatus
    outputs: Mapping[str, Any]
    elapsed_time: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class RunEvent:
    """A progress event for streaming surfaces."""

    kind: EventKind
    node_id: str
    node_type: str
    title: str
    run: NodeRun | None = None


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one run, shaped after Dify's blocking response ``data``."""

    run_id: str
    status: RunStatus
    outputs: Mapping[str, Any]
    node_runs: tuple[NodeRun, ...]
    elapsed_time: float
    error: str | None = None
    error_code: str | None = None

    @property
    def total_steps(self) -> int:
        """How many nodes ran."""
        return len(self.node_runs)


@dataclass(frozen=True, slots=True)
class WorkflowExecutor:
    """Runs plans; every dependency is injected and optional ones disable their node type."""

    llm: LLMProvider | None = None
    retriever: KnowledgeRetriever | None = None
    http: HttpPolicy = field(default_factory=HttpPolicy)
    code: CodeLimits | None = None
    on_event: Callable[[RunEvent], None] | None = None

    def unsupported(self, plan: ExecutionPlan) -> tuple[str, ...]:
        """Ids of steps this executor cannot run (unknown type or a missing dependency)."""
        missing = {"llm": self.llm is None, "knowledge-retrieval": self.retriever is None, "code": self.code is None}
        bad = []
        for step in plan.steps:
            language = step.config.get("code_language", "python3")
            if step.node_type not in HANDLERS or missing.get(step.node_type, False) or (
                    step.node_type == "code" and language != "python3"):
                bad.append(step.node_id)
        return tuple(bad)

    def run(self, plan: ExecutionPlan, inputs: Mapping[str, Any], *, user: str = "",
            query: str | None = None, run_id: str | None = None) -> RunResult:
        """Run a plan to the end, or to the first failing node.

        Raises:
            WorkflowNodeUnsupportedError: the plan has a step this executor cannot run (checked first).
            WorkflowInputError: ``inputs`` do not match the start node's variables.
        """
        bad = self.unsupported(plan)
        if bad:
            kinds = sorted({plan.step(b).node_type for b in bad})
            raise WorkflowNodeUnsupportedError(f"cannot execute node type(s): {', '.join(kinds)}", node_ids=bad)
        run_id = run_id or str(uuid.uuid4())
        system = {"query": query or "", "user_id": user, "files": [], "workflow_run_id": run_id,
                  "conversation_id": "", "dialogue_count": 0}
        pool, began = VariablePool(system), time.perf_counter()
        taken: set[tuple[str, str]] = set()
        runs: list[NodeRun] = []
        outputs: dict[str, Any] = {}
        for step in plan.steps:
            if step is not plan.start and not any((src, step.node_id) in taken for src in step.after):
                continue
            node_run, handle = self._run_step(step, self._call(step, pool, inputs))
            runs.append(node_run)
            if node_run.status is RunStatus.FAILED:
                return RunResult(run_id, RunStatus.FAILED, outputs, tuple(runs), time.perf_counter() - began,
                                 error=node_run.error, error_code=node_run.outputs.get("error_code"))
            pool.set(step.node_id, node_run.outputs)
            _merge_outputs(step, node_run.outputs, outputs)
            taken.update((step.node_id, target) for h, target in step.next if h == handle)
        return RunResult(run_id, RunStatus.SUCCEEDED, outputs, tuple(runs), time.perf_counter() - began)

    def _call(self, step: Step, pool: VariablePool, inputs: Mapping[str, Any]) -> NodeCall:
        return NodeCall(step=step, pool=pool, inputs=inputs, http=self.http, llm=self.llm, retriever=self.retriever,
                        code=self.code)

    def _emit(self, event: RunEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def _run_step(self, step: Step, call: NodeCall) -> tuple[NodeRun, str]:
        self._emit(RunEvent(EventKind.NODE_STARTED, step.node_id, step.node_type, step.title))
        began = time.perf_counter()
        try:
            produced, handle = HANDLERS[step.node_type](call)
            # Outputs enter the run's variables, its record and its events here: once, as valid Unicode.
            node_run = NodeRun(step.node_id, step.node_type, step.title, RunStatus.SUCCEEDED, valid_value(produced),
                               time.perf_counter() - began)
        except RagspineError as exc:
            if isinstance(exc, WorkflowInputError):
                raise
            handle = ""
            node_run = NodeRun(step.node_id, step.node_type, step.title, RunStatus.FAILED, {"error_code": exc.code},
                               time.perf_counter() - began, error=valid_text(exc.message))
        except Exception as exc:  # noqa: BLE001 - a node's crash is its run's failure, not the caller's 500
            logger.exception("workflow node crashed", extra={"node_id": step.node_id, "node_type": step.node_type})
            handle = ""
            node_run = NodeRun(step.node_id, step.node_type, step.title, RunStatus.FAILED,
                               {"error_code": WorkflowNodeFailedError.code}, time.perf_counter() - began,
                               error=f"node {step.node_id} failed unexpectedly ({type(exc).__name__}); "
                                     "this is a fault in the service: report it to the operator")
        self._emit(RunEvent(EventKind.NODE_FINISHED, step.node_id, step.node_type, step.title, node_run))
        return node_run, handle


def _merge_outputs(step: Step, produced: Mapping[str, Any], outputs: dict[str, Any]) -> None:
    if step.node_type == "end":
        outputs.update(produced)
    elif step.node_type == "answer":
        previous = outputs.get("answer")
        outputs["answer"] = f"{previous}{produced['answer']}" if previous else produced["answer"]
