"""Reading the published domain over HTTP: a signed GET against moto in server mode, no S3 client built.

moto runs as a server on loopback (``tests.support.moto_server``) and the reader reaches it through
``AWS_ENDPOINT_URL``, as the deployed functions reach S3: what is tested is the request on the wire
(SigV4 headers, the conditional ``If-None-Match``, S3's XML error codes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.aws.domain_store import (
    NOTHING_PUBLISHED,
    DomainReadError,
    S3ObjectReader,
    forget_published_domain,
    object_url,
    published_domain,
)
from ragspine.errors import ConfigurationError
from tests.support.aws_session import forget_shared_session
from tests.support.moto_server import moto_server

BUCKET = "ragspine-domainbucket"
URI = f"s3://{BUCKET}/company-domain.json"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with moto_server() as url:
        yield url


@pytest.fixture
def s3(server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """An empty bucket on the server; the process's boto3 session pointed at it."""
    import boto3

    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": "us-east-1",
                        "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": server}.items():
        monkeypatch.setenv(name, value)
    forget_shared_session()  # a session that reads this environment
    client = boto3.client("s3", region_name="us-east-1", endpoint_url=server)
    client.create_bucket(Bucket=BUCKET)
    forget_published_domain()
    yield client
    forget_published_domain()
    forget_shared_session()
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])
    client.delete_bucket(Bucket=BUCKET)


def _count_gets(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """(status, conditional) of each GET the reader sends."""
    from botocore.httpsession import URLLib3Session

    seen: list[tuple[int, bool]] = []
    send = URLLib3Session.send

    def counted(self: Any, request: Any) -> Any:
        response = send(self, request)
        seen.append((response.status_code, "If-None-Match" in request.headers))
        return response

    monkeypatch.setattr(URLLib3Session, "send", counted)
    return seen


def test_nothing_published_reads_as_nothing(s3: Any) -> None:
    assert published_domain(URI, max_age=0) == NOTHING_PUBLISHED


def test_nothing_published_is_remembered_as_long_as_a_copy(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold start asks for the domain from several places: absence costs one GET per ``max_age``, not one each."""
    seen = _count_gets(monkeypatch)
    reader = S3ObjectReader()
    try:
        assert [reader.get(URI, max_age=300) for _ in range(5)] == [NOTHING_PUBLISHED] * 5
        assert seen == [(404, False)]
        s3.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b"{}")
        seen.clear()  # the client's PUT
        assert reader.get(URI, max_age=0) == b"{}"  # older than max_age: asked again, unconditionally
        assert seen == [(200, False)]
    finally:
        reader.close()


def test_a_published_object_is_read_then_asked_for_again_conditionally(
        s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    s3.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b'{"format": "ragspine-domain/1"}')
    gets = _count_gets(monkeypatch)
    reader = S3ObjectReader()
    try:
        # WHEN read three times with a cache age of 0, then within a long cache age
        bodies = [reader.get(URI, max_age=0) for _ in range(3)] + [reader.get(URI, max_age=300)]
    finally:
        reader.close()
    # THEN the first GET downloads it, the next two are answered "not modified", the last asks nothing
    assert bodies == [b'{"format": "ragspine-domain/1"}'] * 4
    assert gets == [(200, False), (304, True), (304, True)]


def test_a_changed_object_is_downloaded_again(s3: Any) -> None:
    reader = S3ObjectReader()
    try:
        s3.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b"first")
        assert reader.get(URI, max_age=0) == b"first"
        s3.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b"second")
        assert reader.get(URI, max_age=0) == b"second"
        s3.delete_object(Bucket=BUCKET, Key="company-domain.json")
        assert reader.get(URI, max_age=0) == NOTHING_PUBLISHED
    finally:
        reader.close()


def test_a_bucket_that_does_not_exist_is_an_error_not_an_empty_store(s3: Any) -> None:
    with pytest.raises(ConfigurationError, match=r"cannot read the published domain at s3://no-such-bucket-here/"
                                                 r".*S3 answered 404 NoSuchBucket"):
        published_domain("s3://no-such-bucket-here/company-domain.json", max_age=0)


def test_a_server_error_is_tried_again(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from botocore.awsrequest import AWSResponse
    from botocore.compat import HTTPHeaders
    from botocore.httpsession import URLLib3Session

    s3.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b"doc")
    send = URLLib3Session.send
    failures = [503]

    def flaky(self: Any, request: Any) -> Any:
        if failures:
            return AWSResponse(request.url, failures.pop(), HTTPHeaders(), _Raw(b"<Error><Code>SlowDown</Code></Error>"))
        return send(self, request)

    monkeypatch.setattr(URLLib3Session, "send", flaky)
    monkeypatch.setattr("ragspine.aws.domain_store.time.sleep", lambda s: None)
    assert published_domain(URI, max_age=0) == b"doc"


def test_no_region_is_a_configuration_error(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    forget_shared_session()
    with pytest.raises(DomainReadError, match="no AWS region"):
        S3ObjectReader().get(URI, max_age=0)


def test_the_read_builds_no_s3_client(s3: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """S3's service model is what made the read cost a fifth of the ask function's cold start."""
    from botocore.loaders import Loader

    loaded: list[str] = []
    load = Loader.load_service_model

    def recorded(self: Any, service_name: str, *args: Any, **kwargs: Any) -> Any:
        loaded.append(service_name)
        return load(self, service_name, *args, **kwargs)

    monkeypatch.setattr(Loader, "load_service_model", recorded)
    forget_shared_session()
    assert published_domain(URI, max_age=0) == NOTHING_PUBLISHED
    assert "s3" not in loaded


class _Raw:
    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, **_kwargs: Any) -> Iterator[bytes]:
        yield self._body


@given(bucket=st.from_regex(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", fullmatch=True),
       key=st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40))
def test_object_urls_keep_the_key_and_choose_the_addressing_the_bucket_allows(bucket: str, key: str) -> None:
    from urllib.parse import unquote, urlsplit

    url = urlsplit(object_url(bucket, key, region="eu-west-1", endpoint_url=None))
    assert url.scheme == "https"
    if "." in bucket:  # a dotted name breaks the wildcard certificate: path style
        assert url.netloc == "s3.eu-west-1.amazonaws.com" and unquote(url.path) == f"/{bucket}/{key}"
    else:
        assert url.netloc == f"{bucket}.s3.eu-west-1.amazonaws.com" and unquote(url.path) == f"/{key}"
    emulated = urlsplit(object_url(bucket, key, region="eu-west-1", endpoint_url="http://127.0.0.1:5000/"))
    assert emulated.netloc == "127.0.0.1:5000" and unquote(emulated.path) == f"/{bucket}/{key}"


def test_china_regions_use_their_own_domain() -> None:
    assert object_url("b-1", "k", region="cn-north-1", endpoint_url=None) == "https://b-1.s3.cn-north-1.amazonaws.com.cn/k"
