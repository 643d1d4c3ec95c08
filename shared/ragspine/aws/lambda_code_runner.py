"""``LambdaCodeRunner``: code nodes run in their own Lambda function (``functions/code_runner``).

That function holds no IAM permission, no secret and no VPC attachment, so the code it runs
reaches nothing of the service; the workflow and webhook functions only invoke it. The reply
is ``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": "...", "code": "..."}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.workflows.errors import WorkflowCodeIsolationError, WorkflowNodeBusyError, WorkflowNodeFailedError
from ragspine.workflows.run import read_code_reply

if TYPE_CHECKING:
    from ragspine.workflows.run.code_node import CodeLimits


# Lambda's answer past the function's reserved concurrency (CodeRunnerConcurrency): busy, not broken.
THROTTLED = "TooManyRequestsException"


class LambdaCodeRunner:
    """Invokes the code-runner function synchronously, once per code node."""

    def __init__(self, function_name: str, *, client: Any = None, region: str | None = None,
                 endpoint_url: str | None = None) -> None:
        self.function_name = function_name
        # The runner's own time limit is enforced inside it; the read timeout leaves it room to answer.
        self._client: LazyClient[Any] = LazyClient("lambda", client=client, region=region, endpoint_url=endpoint_url,
                                                   config={"read_timeout": 60, "retries": {"max_attempts": 1}})

    def run(self, code: str, inputs: Mapping[str, Any], limits: CodeLimits) -> dict[str, Any]:
        """``main(**inputs)`` of ``code``, run in the code-runner function.

        Raises:
            WorkflowNodeFailedError: the code failed or hit a limit.
            WorkflowNodeBusyError: the runner is at its concurrency limit; the code did not run (503).
            WorkflowCodeIsolationError: the runner could not be invoked; the code did not run.
        """
        event = {"code": code, "inputs": dict(inputs),
                 "limits": {"timeout_seconds": limits.timeout_seconds, "memory_mb": limits.memory_mb,
                            "max_output_bytes": limits.max_output_bytes}}

        try:
            reply = self._client.get().invoke(FunctionName=self.function_name, InvocationType="RequestResponse",
                                              Payload=json.dumps(event, ensure_ascii=False, default=str).encode())
            payload = reply["Payload"].read(limits.max_output_bytes + 65536)
        except (BotoCoreError, ClientError) as exc:
            if isinstance(exc, ClientError) and exc.response.get("Error", {}).get("Code") == THROTTLED:
                raise WorkflowNodeBusyError(
                    f"the code runner function {self.function_name} is at its concurrency limit; the code was not "
                    "run: retry the run in a few seconds") from exc
            raise WorkflowCodeIsolationError(
                f"the code runner function {self.function_name} could not be invoked ({type(exc).__name__}); "
                "the code was not run") from exc
        if reply.get("FunctionError"):
            raise WorkflowNodeFailedError("the code runner stopped before answering (time or memory limit)")
        if not payload:
            raise WorkflowNodeFailedError("the code runner gave no answer")
        # Read as strictly as the local runner's reply: another shape is the code's failure, never a service fault.
        return read_code_reply(payload, error_prefix="")
