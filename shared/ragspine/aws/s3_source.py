"""Read an uploaded document from S3 for the ingestion ``fetch`` step (``s3://bucket/key``)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import new_client
from ragspine.ingestion.errors import DocumentTooLargeError, SourceNotFoundError, SourceUnavailableError

_MISSING = {"NoSuchKey", "NoSuchBucket", "404", "AccessDenied", "403"}


def read_object(uri: str, *, max_bytes: int, client: Any | None = None) -> tuple[bytes, dict[str, str]]:
    """The object's bytes and its user metadata (``x-amz-meta-*`` without the prefix).

    Raises:
        SourceNotFoundError: no such bucket or key, or no permission (permanent).
        DocumentTooLargeError: the object is over ``max_bytes``.
        SourceUnavailableError: any other S3 failure (transient, retried).
    """
    bucket, _, key = uri.removeprefix("s3://").partition("/")
    s3 = client or new_client("s3")
    try:
        head = s3.head_object(Bucket=bucket, Key=key)
        if int(head["ContentLength"]) > max_bytes:
            raise DocumentTooLargeError(f"{key.rsplit('/', 1)[-1]} is {int(head['ContentLength']):,} bytes, over "
                                        f"the {max_bytes:,}-byte limit; split it or upload a smaller file.")
        found = s3.get_object(Bucket=bucket, Key=key)
        return bytes(found["Body"].read()), {str(k): str(v) for k, v in found.get("Metadata", {}).items()}
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        if code in _MISSING:
            raise SourceNotFoundError(f"{uri}: cannot open the object ({code})") from exc
        raise SourceUnavailableError(f"{uri}: reading failed ({code or exc})") from exc
    except BotoCoreError as exc:
        raise SourceUnavailableError(f"{uri}: reading failed ({exc})") from exc

