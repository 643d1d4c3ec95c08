"""S3 file resources: the uploaded bytes are sealed once, and every seal records the hash of the stored bytes.

A presigned PUT accepts every PUT until it expires. Ten writers PUT different bytes while ten
callers seal the resource at the same time, round after round: exactly one version of the
bytes ends at the resource's location, every seal returns its hash, and later PUTs change nothing.

S3 serves each request atomically (a conditional write included); moto's in-process backend does
not when threads overwrite one key, so the client here takes a lock around each request: the
seals still interleave request by request, as they do against S3.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ragspine.aws.s3_files import S3FileStorage

BUCKET = "ragspine-seal-test"
ROUNDS = 20
PARALLEL = 10
SIZE = 48


class _OneRequestAtATime:
    """A boto3 client whose requests are each atomic (what S3 guarantees and moto's memory backend lacks)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._client, name)

        def atomic(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                result = method(*args, **kwargs)
                if isinstance(result, dict) and "Body" in result:  # read the stream inside the request
                    result = {**result, "Body": io.BytesIO(result["Body"].read())}
                return result

        return atomic


@pytest.fixture
def storage(aws: Any) -> Iterator[S3FileStorage]:
    import boto3

    client = boto3.client("s3", region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield S3FileStorage(BUCKET, client=_OneRequestAtATime(client))


def _put_to_link(storage: S3FileStorage, resource_id: str, data: bytes) -> None:
    """What the presigned PUT does: write the link's key, unconditionally."""
    key = storage.upload_url(resource_id, ".md", expires_s=60, mime_type="text/markdown")
    assert key is not None and f"/knowledge/incoming/{resource_id}.md" in key
    storage.client.put_object(Bucket=BUCKET, Key=f"knowledge/incoming/{resource_id}.md", Body=data)


def _stored(storage: S3FileStorage, resource_id: str) -> bytes:
    return bytes(storage.client.get_object(Bucket=BUCKET, Key=f"knowledge/{resource_id}.md")["Body"].read())


def test_concurrent_puts_and_seals_agree_on_one_version_every_round(storage: S3FileStorage) -> None:
    with ThreadPoolExecutor(max_workers=2 * PARALLEL) as pool:
        for round_no in range(ROUNDS):
            resource = f"fr-{round_no}"
            contents = [f"round {round_no} writer {i}\n".encode().ljust(SIZE, b"x") for i in range(PARALLEL)]
            _put_to_link(storage, resource, contents[0])  # the upload a caller confirms
            puts = [pool.submit(_put_to_link, storage, resource, data) for data in contents[1:]]
            seals = [pool.submit(storage.seal, resource, ".md", size=SIZE) for _ in range(PARALLEL)]
            for put in puts:
                put.result()
            digests = {seal.result() for seal in seals}
            stored = _stored(storage, resource)
            assert stored in contents
            assert digests == {"sha256:" + hashlib.sha256(stored).hexdigest()}, (round_no, digests)
            _put_to_link(storage, resource, b"late\n".ljust(SIZE, b"z"))
            assert _stored(storage, resource) == stored
            assert storage.seal(resource, ".md", size=SIZE) == digests.pop()


def test_nothing_or_the_wrong_size_is_not_sealed(storage: S3FileStorage) -> None:
    assert storage.seal("fr-none", ".md", size=SIZE) is None
    _put_to_link(storage, "fr-short", b"short")
    assert storage.seal("fr-short", ".md", size=SIZE) is None
    _put_to_link(storage, "fr-long", b"y" * (SIZE + 5))
    assert storage.seal("fr-long", ".md", size=SIZE) is None
    assert storage.size("fr-long", ".md") == SIZE + 5


def test_put_once_is_a_conditional_write(storage: S3FileStorage) -> None:
    assert storage.put_once("fr-1", ".md", b"first")
    assert not storage.put_once("fr-1", ".md", b"second")
    assert _stored(storage, "fr-1") == b"first"
