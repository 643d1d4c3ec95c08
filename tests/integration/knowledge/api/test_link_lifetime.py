"""A correctly signed link is still refused when its expiry lies further ahead than any link the service issues.

The links are signed here with the Gateway's own URL-signing key, as someone holding a leaked key would:
the signature is right, only the expiry is one the service never gives. Such a link is refused with the
reply a forged link gets, whatever its signature, so the reply tells nothing about the key.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge import downloads, files
from ragspine.knowledge.link_lifetime import CLOCK_SKEW_S
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import BASE, Gateway, check_against_contract

POLICY = (REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md").read_bytes()
THREE_YEARS_S = 3 * 365 * 24 * 3600
EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])
BOTH_BACKENDS = pytest.mark.parametrize("backend", ["embedded", "aws"], indirect=True)
AROUND_A_CAP = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def _frozen_now() -> int:
    """Stop the Gateway's clock (the tests then sign against a fixed now); that now in epoch seconds."""
    gw = get_knowledge_gateway()
    now = gw.clock()
    gw.clock = lambda: now
    return int(now.timestamp())


def _offsets(cap_s: int) -> st.SearchStrategy[int]:
    """Expiry offsets from now: around 0 and the cap, anywhere up to decades ahead."""
    return st.one_of(st.integers(-3, 3), st.integers(cap_s - 3, cap_s + 3), st.integers(-600, cap_s + 600),
                     st.integers(cap_s, 40 * 365 * 24 * 3600))


# Downloads (embedded: on AWS links are presigned S3 GETs, whose expiry S3 itself caps).

@pytest.fixture
def version_path(gateway: Gateway) -> str:
    """The local download route of a ready document's active version."""
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"], POLICY, name="Product policy", file_name="ACME_Product_Policy.md")
    gateway.settle()
    headers = {name: value for name, value in gateway.headers().items() if name != "Idempotency-Key"}  # as agents call it
    link = gateway.call("POST", f"/documents/{change['documentId']}:create-download-link", {}, headers=headers)
    assert link.status_code == 200, link.text
    return urlsplit(str(link.json()["data"]["downloadUrl"])).path


def _download(gateway: Gateway, path: str, expires: int, signature: str | None = None) -> Any:
    version_id = path.rsplit("/", 1)[1]
    signed = signature or downloads.sign(get_knowledge_gateway().config.signing_key, version_id, expires)
    return gateway.client.get(f"{path}?expires={expires}&signature={signed}", follow_redirects=False)


@EMBEDDED_ONLY
def test_a_signed_download_link_lasting_three_years_is_refused_like_a_forged_one(gateway: Gateway,
                                                                                  version_path: str) -> None:
    now = _frozen_now()
    refused = _download(gateway, version_path, now + THREE_YEARS_S)
    assert refused.status_code == 403 and refused.json()["data"] is None
    check_against_contract("GET", version_path, 403, refused.json())
    error = refused.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_FORBIDDEN" and "invalid" in error["message"]
    key = get_knowledge_gateway().config.signing_key
    assert key.hex() not in refused.text and key.decode("latin-1") not in refused.text
    forged = _download(gateway, version_path, now + THREE_YEARS_S, signature="0" * 64)
    assert (forged.status_code, forged.json()["meta"]["error"]) == (403, error)  # no oracle on the key
    normal = _download(gateway, version_path, now + downloads.EXPIRES_IN_S)
    assert normal.status_code == 200 and normal.content == POLICY


@EMBEDDED_ONLY
@AROUND_A_CAP
@given(data=st.data())
def test_a_download_link_is_served_only_between_now_and_the_issued_lifetime(gateway: Gateway, version_path: str,
                                                                            data: st.DataObject) -> None:
    now = _frozen_now()
    cap = downloads.EXPIRES_IN_S + CLOCK_SKEW_S
    offset = data.draw(_offsets(cap), label="offset")
    response = _download(gateway, version_path, now + offset)
    if 0 <= offset <= cap:
        assert response.status_code == 200 and response.content == POLICY
    else:
        assert response.status_code == 403 and response.json()["meta"]["error"]["code"] == "KNOWLEDGE_FORBIDDEN"


# Uploads: the local upload route is served on both backends, with the same check.

def _resource(gateway: Gateway) -> str:
    space = gateway.create_space()["knowledgeSpaceId"]
    ticket = gateway.ok("POST", f"/spaces/{space}/file-resources",
                        {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": 5})
    return str(ticket["fileResourceId"])


def _upload(gateway: Gateway, resource_id: str, expires: int, body: bytes) -> Any:
    signature = files.sign(get_knowledge_gateway().config.signing_key, resource_id, expires)
    return gateway.client.put(f"{BASE}/file-resources/{resource_id}/content?expires={expires}&signature={signature}",
                              content=body)


@BOTH_BACKENDS
def test_a_signed_upload_link_lasting_three_years_is_refused(gateway: Gateway) -> None:
    resource_id = _resource(gateway)
    now = _frozen_now()
    refused = _upload(gateway, resource_id, now + THREE_YEARS_S, b"hello")
    assert refused.status_code == 404 and refused.json()["data"] is None
    error = refused.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_NOT_FOUND" and "invalid" in error["message"]
    forged = gateway.client.put(f"{BASE}/file-resources/{resource_id}/content?expires={now + THREE_YEARS_S}"
                                f"&signature={'0' * 64}", content=b"hello")
    assert (forged.status_code, forged.json()["meta"]["error"]) == (404, error)  # no oracle on the key
    ttl = get_knowledge_gateway().config.upload_url_ttl_s
    accepted = _upload(gateway, resource_id, now + ttl, b"hello")  # also: the refused PUT stored nothing
    assert accepted.status_code == 200, accepted.text


@EMBEDDED_ONLY
@AROUND_A_CAP
@given(data=st.data())
def test_an_upload_link_is_accepted_only_between_now_and_the_issued_lifetime(gateway: Gateway,
                                                                             data: st.DataObject) -> None:
    resource_id = _resource(gateway)
    now = _frozen_now()
    cap = get_knowledge_gateway().config.upload_url_ttl_s + CLOCK_SKEW_S
    offset = data.draw(_offsets(cap), label="offset")
    # Three bytes where five were declared: an accepted link answers 400 and keeps the resource open.
    response = _upload(gateway, resource_id, now + offset, b"hey")
    expected = (400, "KNOWLEDGE_INVALID_INPUT") if 0 <= offset <= cap else (404, "KNOWLEDGE_NOT_FOUND")
    assert (response.status_code, response.json()["meta"]["error"]["code"]) == expected

