"""``S3VersionTextStore``: each version's normalised text under ``texts/<version>/`` in the staging bucket.

Not under ``staging/``: that prefix expires after a week, while a version's text must stay
readable for citations as long as the version exists (it is deleted with the document).
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ProviderUnavailableError
from ragspine.retrieval.version_text import (
    DOCUMENT_NAME,
    PASSAGES_NAME,
    TEXT_NAME,
    VersionText,
    decode,
    encode,
    safe_version_id,
)

PREFIX = "texts/"


class S3VersionTextStore:
    """The AWS ``VersionTextStore``: ``text.txt``, ``passages.json`` (and ``document.json``) per version."""

    def __init__(self, bucket: str, *, client: Any | None = None, region: str | None = None) -> None:
        self._bucket = bucket
        self._client: LazyClient[Any] = LazyClient("s3", client=client, region=region)

    @property
    def client(self) -> Any:
        """The boto3 S3 client (injected in tests)."""
        return self._client.get()

    def _key(self, version_id: str, name: str) -> str:
        if not safe_version_id(version_id):
            raise ValueError(f"version id {version_id!r} cannot name an S3 prefix")
        return f"{PREFIX}{version_id}/{name}"

    def put(self, record: VersionText) -> None:
        """Write the text, then the passages (a reader needs both; the passages say the record is there)."""
        text, passages = encode(record)
        self._call("put_object", Bucket=self._bucket, Key=self._key(record.version_id, TEXT_NAME), Body=text,
                   ContentType="text/plain; charset=utf-8")
        self._call("put_object", Bucket=self._bucket, Key=self._key(record.version_id, PASSAGES_NAME),
                   Body=passages, ContentType="application/json")

    def get(self, version_id: str) -> VersionText | None:
        """The stored record, or None."""
        if not safe_version_id(version_id):
            return None
        passages = self._read(self._key(version_id, PASSAGES_NAME))
        text = self._read(self._key(version_id, TEXT_NAME)) if passages is not None else None
        return None if passages is None or text is None else decode(text, passages)

    def delete(self, version_id: str) -> None:
        """Remove the objects (idempotent: S3 deletes of missing keys succeed)."""
        if not safe_version_id(version_id):
            return
        self._call("delete_objects", Bucket=self._bucket, Delete={"Objects": [
            {"Key": self._key(version_id, name)} for name in (PASSAGES_NAME, TEXT_NAME, DOCUMENT_NAME)]})

    def put_document(self, version_id: str, data: bytes) -> None:
        """Write the version's parsed document (JSON)."""
        self._call("put_object", Bucket=self._bucket, Key=self._key(version_id, DOCUMENT_NAME), Body=data,
                   ContentType="application/json")

    def get_document(self, version_id: str) -> bytes | None:
        """The version's parsed document, or None."""
        return self._read(self._key(version_id, DOCUMENT_NAME)) if safe_version_id(version_id) else None

    def _read(self, key: str) -> bytes | None:
        try:
            return bytes(self.client.get_object(Bucket=self._bucket, Key=key)["Body"].read())
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise ProviderUnavailableError("S3 get_object on the version texts failed") from exc
        except BotoCoreError as exc:
            raise ProviderUnavailableError("S3 get_object on the version texts failed") from exc

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self.client, operation)(**kwargs)
        except (BotoCoreError, ClientError) as exc:
            raise ProviderUnavailableError(f"S3 {operation} on the version texts failed") from exc
