"""The execution gate: a server-side switch in front of every workflow run, off by default.

The flag comes from settings (``RAGSPINE_DIFY_RUN_ENABLED``) through the composition root; this
module never reads the environment. While it is off, every run request is refused with
:class:`WorkflowRunDisabledError` before anything is parsed or executed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.workflows.errors import WorkflowRunDisabledError

if TYPE_CHECKING:
    from ragspine.workflows.run.compile import ExecutionPlan
    from ragspine.workflows.run.execute import RunResult, WorkflowExecutor

DISABLED_MESSAGE = ("workflow execution is disabled on this server; an operator can enable it by setting "
                    "RAGSPINE_DIFY_RUN_ENABLED=true (see docs/security.md for what a run may reach)")


@dataclass(frozen=True, slots=True)
class ExecutionGate:
    """Allows runs only when ``enabled``; checked before any run."""

    enabled: bool = False

    def check(self) -> None:
        """Raise unless execution is enabled.

        Raises:
            WorkflowRunDisabledError: the gate is closed (HTTP 403).
        """
        if not self.enabled:
            raise WorkflowRunDisabledError(DISABLED_MESSAGE)

    def run(self, plan: ExecutionPlan, inputs: Mapping[str, Any], *, executor: WorkflowExecutor,
            user: str = "", query: str | None = None, run_id: str | None = None) -> RunResult:
        """Check the gate, then run the plan with the executor.

        Raises:
            WorkflowRunDisabledError: the gate is closed.
            WorkflowNodeUnsupportedError: the plan has a node the executor cannot run.
            WorkflowInputError: the inputs do not match the start node.
        """
        self.check()
        return executor.run(plan, inputs, user=user, query=query, run_id=run_id)
