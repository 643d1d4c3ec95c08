"""``S3FileStorage``: Gateway file resources in S3 under ``knowledge/``, uploaded through presigned PUT URLs.

The prefix is not ``uploads/``: those objects start the S3-triggered ingestion, while a Gateway
file becomes a document only through ``knowledge_document_upload``.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ProviderUnavailableError

PREFIX = "knowledge/"
# Where presigned PUTs land. A presigned URL accepts every PUT until it expires, so the bytes a
# document uses are sealed from here once (``seal``): a later PUT changes nothing ingestion reads.
INCOMING = f"{PREFIX}incoming/"


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

    def _incoming(self, resource_id: str, suffix: str) -> str:
        return f"{INCOMING}{resource_id}{suffix}"

    def location(self, resource_id: str, suffix: str) -> str:
        """``s3://bucket/knowledge/<id><suffix>`` (what the ingestion fetch step reads)."""
        return f"s3://{self._bucket}/{self._key(resource_id, suffix)}"

    def put(self, resource_id: str, suffix: str, data: bytes) -> str:
        """Write the bytes (used by tests and tools; callers upload through the presigned URL)."""
        self._call("put_object", Bucket=self._bucket, Key=self._key(resource_id, suffix), Body=data)
        return self.location(resource_id, suffix)

    def put_once(self, resource_id: str, suffix: str, data: bytes) -> bool:
        """Write the bytes unless the object exists (an S3 conditional write); whether this call wrote them."""
        try:
            self.client.put_object(Bucket=self._bucket, Key=self._key(resource_id, suffix), Body=data,
                                   IfNoneMatch="*")
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("PreconditionFailed", "ConditionalRequestConflict"):
                return False
            raise ProviderUnavailableError("S3 put_object on the knowledge files failed") from exc
        except BotoCoreError as exc:
            raise ProviderUnavailableError("S3 put_object on the knowledge files failed") from exc
        return True

    def upload_url(self, resource_id: str, suffix: str, *, expires_s: int, mime_type: str) -> str | None:
        """A presigned PUT of exactly this object (it names no other key and expires)."""
        return str(self._call("generate_presigned_url", ClientMethod="put_object", ExpiresIn=expires_s,
                              Params={"Bucket": self._bucket, "Key": self._incoming(resource_id, suffix),
                                      "ContentType": mime_type}))

    def seal(self, resource_id: str, suffix: str, *, size: int) -> str | None:
        """Fix the resource's bytes once and return their ``sha256:<hex>``; None while no ``size`` bytes were PUT.

        The first seal copies the uploaded object to the resource's location with a conditional
        write (``If-None-Match: *``); a concurrent or later seal finds it there and hashes what it
        holds, so every caller records the hash of the stored bytes, whatever was PUT since.
        """
        sealed = self._read(self._key(resource_id, suffix), size)
        if sealed is None:
            uploaded = self._read(self._incoming(resource_id, suffix), size)
            if uploaded is None or len(uploaded) != size:
                return None
            sealed = uploaded if self.put_once(resource_id, suffix, uploaded) else self._read(
                self._key(resource_id, suffix), size)
        if sealed is None or len(sealed) != size:
            return None
        return "sha256:" + hashlib.sha256(sealed).hexdigest()

    def _read(self, key: str, size: int) -> bytes | None:
        """The object's bytes (at most ``size`` + 1 read: a larger object is as good as a wrong one), or None."""
        try:
            body = self.client.get_object(Bucket=self._bucket, Key=key, Range=f"bytes=0-{size}")["Body"]
            return bytes(body.read())
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise ProviderUnavailableError("S3 get_object on the knowledge files failed") from exc
        except BotoCoreError as exc:
            raise ProviderUnavailableError("S3 get_object on the knowledge files failed") from exc

    def download_url(self, resource_id: str, suffix: str, *, expires_s: int, file_name: str,
                     mime_type: str) -> str | None:
        """A presigned GET of exactly this object, expiring after ``expires_s``, saved under ``file_name``."""
        disposition = f"attachment; filename*=UTF-8''{quote(file_name, safe='')}"
        return str(self._call("generate_presigned_url", ClientMethod="get_object", ExpiresIn=expires_s,
                              Params={"Bucket": self._bucket, "Key": self._key(resource_id, suffix),
                                      "ResponseContentType": mime_type,
                                      "ResponseContentDisposition": disposition}))

    def size(self, resource_id: str, suffix: str) -> int | None:
        """The uploaded object's size (sealed, else as PUT), or None while nothing was put."""
        from botocore.exceptions import ClientError

        for key in (self._key(resource_id, suffix), self._incoming(resource_id, suffix)):
            try:
                return int(self.client.head_object(Bucket=self._bucket, Key=key)["ContentLength"])
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") not in ("404", "NoSuchKey", "NotFound"):
                    raise ProviderUnavailableError("S3 head_object on the knowledge files failed") from exc
        return None

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self.client, operation)(**kwargs)
        except (BotoCoreError, ClientError) as exc:
            raise ProviderUnavailableError(f"S3 {operation} on the knowledge files failed") from exc
