"""``StepFunctionsOperationRunner``: starts the ingestion state machine for an operation, once."""

from __future__ import annotations

import json
import logging
from typing import Any

from ragspine.aws.boto3_client import LazyClient

logger = logging.getLogger(__name__)


class StepFunctionsOperationRunner:
    """Starts one execution per operation; the execution is named after the operation id.

    Step Functions refuses a second execution with the same name, so replaying an S3 event
    (or retrying the trigger) never runs the pipeline twice for one operation.
    """

    def __init__(self, state_machine_arn: str, *, client: Any | None = None, region: str | None = None) -> None:
        self._arn = state_machine_arn
        self._client: LazyClient[Any] = LazyClient("stepfunctions", client=client, region=region)

    def start(self, operation_id: str, *, attempt: str | None = None) -> bool:
        """Start the execution for ``operation_id``; False when it was already started.

        ``attempt`` names a manual retry (the execution ``<operation id>-<attempt>``): execution
        names stay unique for 90 days, so a retry of the same operation needs its own.
        """
        client = self._client.get()
        name = f"{operation_id}-{attempt}" if attempt else operation_id
        try:
            client.start_execution(stateMachineArn=self._arn, name=name,
                                   input=json.dumps({"operation_id": operation_id}))
        except client.exceptions.ExecutionAlreadyExists:
            logger.info("ingestion execution already started", extra={"operation_id": operation_id})
            return False
        return True
