"""The company's domain in S3: published by ``ragspine domain publish``, read by every function.

A function keeps what it read for ``RAGSPINE_DOMAIN_MAX_AGE_S`` and then asks again: a domain
published later reaches every function without a redeploy. Asking again is a conditional GET (the
object's ETag), so an unchanged domain costs one small request and no download.

The read is one SigV4-signed ``GetObject`` (botocore's signer, the process's botocore session and its
credentials) sent over botocore's HTTP session, not an S3 client: building S3's client loads its
service model and endpoint rules, about a fifth of the ask function's cold start, for one GET.
The request passes botocore's ``before-send`` hook as a client's would, and shows in a trace as an
S3 subsegment when the X-Ray SDK records.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient, shared_botocore_session
from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyPattern

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

NOTHING_PUBLISHED = b""
_S3_URI = re.compile(r"^s3://(?P<bucket>[^/]+)/(?P<key>.+)$")
_ERROR_CODE = re.compile(rb"<Code>([^<]+)</Code>")
_DNS_BUCKET = LazyPattern(r"^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$")  # addressable as <bucket>.s3.<region>...
_ATTEMPTS = 3  # a dropped connection or a 5xx is tried again, as botocore's standard retries would
_TIMEOUT_S = 10


def s3_location(uri: str) -> tuple[str, str]:
    """``(bucket, key)`` of an ``s3://bucket/key`` URI.

    Raises:
        ConfigurationError: not such a URI.
    """
    found = _S3_URI.match(uri)
    if found is None:
        raise ConfigurationError(f"{uri!r} is not an s3://bucket/key location (the stack's DomainLocation output)")
    return found["bucket"], found["key"]


def object_url(bucket: str, key: str, *, region: str, endpoint_url: str | None) -> str:
    """Where ``GetObject`` of ``bucket/key`` goes: path style under a configured endpoint (an emulator,
    a VPC endpoint), else S3's regional endpoint, virtual-hosted when the bucket name allows it."""
    path = quote(key, safe="/~")
    if endpoint_url:
        return f"{endpoint_url.rstrip('/')}/{bucket}/{path}"
    suffix = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    if _DNS_BUCKET.match(bucket):
        return f"https://{bucket}.s3.{region}.{suffix}/{path}"
    return f"https://s3.{region}.{suffix}/{bucket}/{path}"


class DomainReadError(ConfigurationError):
    """S3 refused the read or could not be reached (permissions, bucket, network)."""


@dataclass(frozen=True)
class _Copy:
    etag: str
    body: bytes
    read_at: float


class S3ObjectReader:
    """Conditional reads of S3 objects, each copy kept for ``max_age`` seconds."""

    def __init__(self, *, region: str | None = None) -> None:
        self._region = region
        self._http: Any = None
        self._copies: dict[str, _Copy] = {}
        self._lock = threading.Lock()

    def get(self, uri: str, *, max_age: int) -> bytes:
        """The object's bytes (``NOTHING_PUBLISHED`` while it is absent), at most ``max_age`` s old.

        Raises:
            DomainReadError: S3 answered with an error other than "no such key", or could not be reached.
        """
        with self._lock:
            copy = self._copies.get(uri)
            if copy is not None and time.monotonic() - copy.read_at < max_age:
                return copy.body
            status, headers, body = self._get_object(uri, etag=(copy.etag or None) if copy else None)
            if status == 304 and copy is not None:
                self._copies[uri] = _Copy(copy.etag, copy.body, time.monotonic())
                return copy.body
            if status == 200:
                self._copies[uri] = _Copy(str(headers.get("ETag", "")), body, time.monotonic())
                return body
            code = _error_code(body) or str(status)
            if status == 404 and code == "NoSuchKey":
                # Absence is an answer too: kept as long as a copy, or every read of one request asks again.
                self._copies[uri] = _Copy("", NOTHING_PUBLISHED, time.monotonic())
                return NOTHING_PUBLISHED
            raise DomainReadError(f"S3 answered {status} {code}")

    def close(self) -> None:
        """Close the HTTP connections and forget every copy."""
        with self._lock:
            if self._http is not None:
                self._http.close()
                self._http = None
            self._copies.clear()

    def _get_object(self, uri: str, *, etag: str | None) -> tuple[int, Any, bytes]:
        from botocore.exceptions import BotoCoreError

        bucket, key = s3_location(uri)
        session = shared_botocore_session()
        region = self._region or session.get_config_variable("region")
        if not region:
            raise DomainReadError("no AWS region: set AWS_REGION (Lambda sets it) or RAGSPINE_AWS_REGION")
        credentials = session.get_credentials()
        if credentials is None:
            raise DomainReadError("no AWS credentials found")
        url = object_url(bucket, key, region=region, endpoint_url=_endpoint_url())
        for attempt in range(_ATTEMPTS):
            request = AWSRequest(method="GET", url=url, headers={"If-None-Match": etag} if etag else {})
            S3SigV4Auth(credentials.get_frozen_credentials(), "s3", region).add_auth(request)
            prepared = request.prepare()
            try:
                with _traced(region):
                    response = (session.emit_first_non_none_response("before-send.s3.GetObject", request=prepared)
                                or self._session(session, url).send(prepared))
                    content = response.content
            except BotoCoreError as exc:  # no connection, a dropped one, a timeout
                if attempt + 1 == _ATTEMPTS:
                    raise DomainReadError(f"S3 could not be reached: {exc}") from exc
            else:
                if response.status_code < 500 or attempt + 1 == _ATTEMPTS:
                    return response.status_code, response.headers, content
            time.sleep(0.1 * 2 ** attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _session(self, session: Any, url: str) -> Any:
        if self._http is None:
            from botocore.httpsession import URLLib3Session
            from botocore.utils import get_environ_proxies

            self._http = URLLib3Session(verify=session.get_config_variable("ca_bundle") or True,
                                        proxies=get_environ_proxies(url), timeout=_TIMEOUT_S)
        return self._http


def _endpoint_url() -> str | None:
    """The S3 endpoint configured in the environment as botocore reads it (``AWS_ENDPOINT_URL_S3``, else
    ``AWS_ENDPOINT_URL``), if any."""
    if os.environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true":
        return None
    return os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or None


def _error_code(body: bytes) -> str | None:
    found = _ERROR_CODE.search(body or b"")
    return found.group(1).decode("utf-8", "replace") if found else None


def _traced(region: str) -> AbstractContextManager[Any]:
    """An X-Ray subsegment for the GET when the X-Ray SDK is loaded (the Lambda handlers' Tracer)."""
    core, sdk = sys.modules.get("aws_xray_sdk.core"), sys.modules.get("aws_xray_sdk")
    if core is None or sdk is None or not sdk.global_sdk_config.sdk_enabled():
        return nullcontext()
    return _subsegment(core.xray_recorder, region)


class _subsegment:  # noqa: N801 (used as a context manager)
    def __init__(self, recorder: Any, region: str) -> None:
        self._recorder, self._region, self._entity = recorder, region, None

    def __enter__(self) -> None:
        if self._recorder.context.get_trace_entity() is not None:
            self._entity = self._recorder.begin_subsegment("S3", namespace="aws")
            if self._entity is not None:
                self._entity.set_aws({"operation": "GetObject", "region": self._region})

    def __exit__(self, *exc: object) -> None:
        if self._entity is not None:
            if exc[1] is not None:
                self._entity.add_exception(exc[1], [])
            self._recorder.end_subsegment()


_reader: list[S3ObjectReader] = []


def published_domain(uri: str, *, max_age: int) -> bytes:
    """The published domain document at ``uri`` (``NOTHING_PUBLISHED`` when none), at most ``max_age`` s old.

    Raises:
        ConfigurationError: the store could not be read (permissions, bucket, network).
    """
    if not _reader:
        _reader.append(S3ObjectReader())
    try:
        return _reader[0].get(uri, max_age=max_age)
    except DomainReadError as exc:
        raise ConfigurationError(f"cannot read the published domain at {uri}: {exc} (the function needs "
                                 "s3:GetObject on it and s3:ListBucket on its bucket)") from exc


def forget_published_domain() -> None:
    """Drop what this process read (and its connections), so its next read asks the store (after
    publishing, a new stack)."""
    while _reader:
        _reader.pop().close()


def publish_domain(uri: str, document: bytes, *, client: Any = None) -> str | None:
    """Store ``document`` at ``uri``; the new object version (None when the bucket keeps no versions).

    Raises:
        ConfigurationError: the store refused it or could not be reached (credentials, permission, bucket).
    """
    bucket, key = s3_location(uri)
    try:
        s3: Any = LazyClient("s3", client=client).get()
        stored = s3.put_object(Bucket=bucket, Key=key, Body=document, ContentType="application/json")
    except (BotoCoreError, ClientError) as exc:
        raise ConfigurationError(f"cannot publish to {uri}: {exc} (publishing needs s3:PutObject on it, "
                                 "with the credentials of the account that holds the stack)") from exc
    version: str | None = stored.get("VersionId")
    return version
