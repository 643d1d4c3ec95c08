"""``S3FileStorage``: Gateway file resources in S3 under ``knowledge/``, uploaded through presigned PUT URLs.

The prefix is not ``uploads/``: those objects start the S3-triggered ingestion, while a Gateway
file becomes a document only through ``knowledge_document_upload``.
"""

from __future__ import annotations

from typing import Any

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ProviderUnavailableError

PREFIX = "knowledge/"


class S3FileStorage:
    """The AWS ``FileStorage``: the caller PUTs the bytes to S3 itself; ingestion reads ``s3://``."""

    def __init__(self, bucket: str, *, client: Any | None = None, region: str | None = None) -> None:
        self._bucket = bucket
        # SigV4 presigning: the expiry (at most 7 days) is inside the signed request.
        self._client: LazyClient[Any] = LazyClient("s3", client=client, region=region,
                                                  config={"signature_version": "s3v4"})

    @property
    def client(self) -> Any:
        """The boto3 S3 client (injected in tests)."""
        return self._client.get()

    def _key(self, resource_id: str, suffix: str) -> str:
        return f"{PREFIX}{resource_id}{suffix}"

    def location(self, resource_id: str, suffix: str) -> str:
        """``s3://bucket/knowledge/<id><suffix>`` (what the ingestion fetch step reads)."""
        return f"s3://{self._bucket}/{self._key(resource_id, suffix)}"

    def put(self, resource_id: str, suffix: str, data: bytes) -> str:
        """Write the bytes (used by tests and tools; callers upload through the presigned URL)."""
        self._call("put_object", Bucket=self._bucket, Key=self._key(resource_id, suffix), Body=data)
        return self.location(resource_id, suffix)

    def upload_url(self, resource_id: str, suffix: str, *, expires_s: int, mime_type: str) -> str | None:
        """A presigned PUT of exactly this object (it names no other key and expires)."""
        return str(self._call("generate_presigned_url", ClientMethod="put_object", ExpiresIn=expires_s,
                              Params={"Bucket": self._bucket, "Key": self._key(resource_id, suffix),
                                      "ContentType": mime_type}))

    def download_url(self, resource_id: str, suffix: str, *, expires_s: int, file_name: str,
                     mime_type: str) -> str | None:
        """A presigned GET of exactly this object, expiring after ``expires_s``, saved under ``file_name``."""
        from urllib.parse import quote

        disposition = f"attachment; filename*=UTF-8''{quote(file_name, safe='')}"
        return str(self._call("generate_presigned_url", ClientMethod="get_object", ExpiresIn=expires_s,
                              Params={"Bucket": self._bucket, "Key": self._key(resource_id, suffix),
                                      "ResponseContentType": mime_type,
                                      "ResponseContentDisposition": disposition}))

    def size(self, resource_id: str, suffix: str) -> int | None:
        """The uploaded object's size, or None while nothing was put."""
        from botocore.exceptions import ClientError

        try:
            head = self.client.head_object(Bucket=self._bucket, Key=self._key(resource_id, suffix))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise ProviderUnavailableError("S3 head_object on the knowledge files failed") from exc
        return int(head["ContentLength"])

    def _call(self, operation: str, **kwargs: Any) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self.client, operation)(**kwargs)
        except (BotoCoreError, ClientError) as exc:
            raise ProviderUnavailableError(f"S3 {operation} on the knowledge files failed") from exc
