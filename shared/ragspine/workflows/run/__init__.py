"""Running a workflow: compile a plan, the gate, the executor, and its node handlers and egress policy."""

from __future__ import annotations

from ragspine.workflows.run.code_node import CodeLimits
from ragspine.workflows.run.code_reply import NOT_A_RESULT, read_code_reply
from ragspine.workflows.run.compile import Binding, ExecutionPlan, Step, compile_plan
from ragspine.workflows.run.conditions import normalized_cases
from ragspine.workflows.run.egress import host_allowed
from ragspine.workflows.run.execute import EventKind, RunEvent, RunResult, RunStatus, WorkflowExecutor
from ragspine.workflows.run.gate import ExecutionGate
from ragspine.workflows.run.http_node import HttpPolicy, body_text
from ragspine.workflows.run.ports import KnowledgeRetriever
from ragspine.workflows.run.run_capacity import RunCapacity, RunTicket

__all__ = [
    "NOT_A_RESULT", "Binding", "CodeLimits", "EventKind", "ExecutionGate", "ExecutionPlan", "HttpPolicy",
    "KnowledgeRetriever", "RunCapacity", "RunEvent", "RunResult", "RunStatus", "RunTicket", "Step",
    "WorkflowExecutor", "body_text", "compile_plan", "host_allowed", "normalized_cases", "read_code_reply",
]
