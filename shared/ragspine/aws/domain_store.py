"""The company's domain in S3: published by ``ragspine domain publish``, read by every function.

Reads go through a Powertools Parameters provider, so a function keeps what it read for
``RAGSPINE_DOMAIN_MAX_AGE_S`` and then asks again: a domain published later reaches every
function without a redeploy. Asking again is a conditional GET (the object's ETag), so an
unchanged domain costs one small request and no download.
"""

from __future__ import annotations

import re
from typing import Any

from aws_lambda_powertools.utilities.parameters.base import BaseProvider

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ConfigurationError

NOTHING_PUBLISHED = b""
_S3_URI = re.compile(r"^s3://(?P<bucket>[^/]+)/(?P<key>.+)$")
_ABSENT = {"NoSuchKey", "404", "NotFound"}
_UNCHANGED = {"304", "NotModified"}


def s3_location(uri: str) -> tuple[str, str]:
    """``(bucket, key)`` of an ``s3://bucket/key`` URI.

    Raises:
        ConfigurationError: not such a URI.
    """
    found = _S3_URI.match(uri)
    if found is None:
        raise ConfigurationError(f"{uri!r} is not an s3://bucket/key location (the stack's DomainLocation output)")
    return found["bucket"], found["key"]


class S3DomainProvider(BaseProvider):
    """Powertools Parameters over S3 objects: the object's bytes, ``NOTHING_PUBLISHED`` while it is absent."""

    def __init__(self, *, client: Any = None, region: str | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._s3: LazyClient[Any] = LazyClient("s3", client=client, region=region)
        self._seen: dict[str, tuple[str, bytes]] = {}  # uri -> (ETag, body) of the last download

    def _get(self, name: str, **sdk_options: Any) -> bytes:
        from botocore.exceptions import ClientError

        bucket, key = s3_location(name)
        seen = self._seen.get(name)
        conditional = {"IfNoneMatch": seen[0]} if seen else {}
        try:
            found = self._s3.get().get_object(Bucket=bucket, Key=key, **conditional)
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", ""))
            if code in _UNCHANGED and seen is not None:
                return seen[1]
            if code in _ABSENT:
                self._seen.pop(name, None)
                return NOTHING_PUBLISHED
            raise
        body: bytes = found["Body"].read()
        self._seen[name] = (str(found["ETag"]), body)
        return body

    def _get_multiple(self, path: str, **sdk_options: Any) -> dict[str, str]:
        raise NotImplementedError("a published domain is one object")


_provider: list[S3DomainProvider] = []


def published_domain(uri: str, *, max_age: int) -> bytes:
    """The published domain document at ``uri`` (``NOTHING_PUBLISHED`` when none), at most ``max_age`` s old.

    Raises:
        ConfigurationError: the store could not be read (permissions, bucket, network).
    """
    from aws_lambda_powertools.utilities.parameters.exceptions import GetParameterError

    if not _provider:
        _provider.append(S3DomainProvider())
    try:
        found = _provider[0].get(uri, max_age=max_age)
    except GetParameterError as exc:
        raise ConfigurationError(f"cannot read the published domain at {uri}: {exc} (the function needs "
                                 "s3:GetObject on it and s3:ListBucket on its bucket)") from exc
    assert isinstance(found, bytes)
    return found


def forget_published_domain() -> None:
    """Drop what this process read, so its next read asks the store (after publishing, a new stack)."""
    _provider.clear()


def publish_domain(uri: str, document: bytes, *, client: Any = None) -> str | None:
    """Store ``document`` at ``uri``; the new object version (None when the bucket keeps no versions).

    Raises:
        ConfigurationError: the store refused it or could not be reached (credentials, permission, bucket).
    """
    from botocore.exceptions import BotoCoreError, ClientError

    bucket, key = s3_location(uri)
    try:
        s3: Any = LazyClient("s3", client=client).get()
        stored = s3.put_object(Bucket=bucket, Key=key, Body=document, ContentType="application/json")
    except (BotoCoreError, ClientError) as exc:
        raise ConfigurationError(f"cannot publish to {uri}: {exc} (publishing needs s3:PutObject on it, "
                                 "with the credentials of the account that holds the stack)") from exc
    version: str | None = stored.get("VersionId")
    return version
