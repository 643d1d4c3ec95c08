"""Ingest trigger Lambda: an S3 ``ObjectCreated`` upload becomes an operation and one state-machine execution.

Keys arrive URL-encoded in S3 events and are decoded here. Replaying an event finds the same
operation (bucket, key and version id or ETag) and the same execution name, so nothing runs twice.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from aws_lambda_powertools.utilities.data_classes import S3Event, event_source

from ragspine.aws.lambda_telemetry import metrics, record_submissions, tracer
from ragspine.bootstrap import build_ingest_trigger
from ragspine.ingestion.submission import submit_object
from ragspine.settings import get_settings

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)


@logger.inject_lambda_context
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
@event_source(data_class=S3Event)
def handler(event: S3Event, context: Any) -> dict[str, Any]:
    """Record one operation per uploaded object and start its execution."""
    operations, runner = build_ingest_trigger(get_settings())  # no engine services: the trigger only records
    results = []
    for record in event.records:
        obj = record.s3.get_object
        bucket, key = record.s3.bucket.name, unquote_plus(obj.key)
        operation, created = submit_object(bucket, key, version=obj.version_id or obj.etag or "",
                                           operations=operations)
        started = runner.start(operation.id)
        logger.info("ingestion submitted", extra={"operation_id": operation.id, "operation_created": created,
                                                  "execution_started": started})
        results.append({"operation_id": operation.id, "created": created, "started": started})
    new = sum(1 for result in results if result["created"])
    record_submissions(created=new, replayed=len(results) - new)
    return {"operations": results}
