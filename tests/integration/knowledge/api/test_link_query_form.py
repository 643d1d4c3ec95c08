"""A signed link works only in the form the service wrote it: an altered query is refused like a forged link.

The signature covers the expiry's value, not its spelling: ``expires=0<issued>`` and a repeated parameter
(of which the checker and another reader may take different ones) are links the service never issued, so
they get the reply a forged link gets (403 for a download, 404 for an upload), as issued they work.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_knowledge_gateway
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import BASE, Gateway, check_against_contract

POLICY = (REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md").read_bytes()
EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])
A_FEW = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def _frozen() -> None:
    """Stop the Gateway's clock, so a link issued in the test stays unexpired however slow the machine."""
    gw = get_knowledge_gateway()
    now = gw.clock()
    gw.clock = lambda: now


@st.composite
def _altered(draw: st.DrawFn, query: str) -> str:
    """The issued query with a leading zero on ``expires``, or a parameter repeated (same or other value)."""
    pairs = parse_qsl(query)
    if draw(st.booleans()):
        zeros = "0" * draw(st.integers(1, 4))
        return urlencode([(k, zeros + v if k == "expires" else v) for k, v in pairs])
    name = draw(st.sampled_from([k for k, _ in pairs]))
    value = dict(pairs)[name]
    extra = draw(st.sampled_from([value, "1", "0" * 64, str(int(value) - 1) if name == "expires" else value + "0"]))
    position = draw(st.integers(0, len(pairs)))
    return urlencode([*pairs[:position], (name, extra), *pairs[position:]])


@pytest.fixture
def download_url(gateway: Gateway) -> tuple[str, str]:
    """(path, query) of an issued download link of a ready document."""
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"], POLICY, name="Product policy", file_name="ACME_Product_Policy.md")
    gateway.settle()
    _frozen()
    headers = {name: value for name, value in gateway.headers().items() if name != "Idempotency-Key"}
    link = gateway.call("POST", f"/documents/{change['documentId']}:create-download-link", {}, headers=headers)
    assert link.status_code == 200, link.text
    url = urlsplit(str(link.json()["data"]["downloadUrl"]))
    return url.path, url.query


def _forged_download(gateway: Gateway, path: str, query: str) -> dict[str, Any]:
    signature = dict(parse_qsl(query))["signature"]
    forged = gateway.client.get(f"{path}?{query.replace(signature, '0' * len(signature))}")
    assert forged.status_code == 403
    return forged.json()["meta"]["error"]  # type: ignore[no-any-return]


@EMBEDDED_ONLY
def test_a_download_link_with_a_leading_zero_or_a_repeated_expiry_is_refused_like_a_forged_one(
        gateway: Gateway, download_url: tuple[str, str]) -> None:
    path, query = download_url
    expires = dict(parse_qsl(query))["expires"]
    forged = _forged_download(gateway, path, query)
    for altered in (query.replace(f"expires={expires}", f"expires=0{expires}"), f"expires=1&{query}"):
        refused = gateway.client.get(f"{path}?{altered}")
        assert refused.status_code == 403, (altered, refused.status_code)
        check_against_contract("GET", path, 403, refused.json())
        assert refused.json()["meta"]["error"] == forged
    issued = gateway.client.get(f"{path}?{query}")
    assert issued.status_code == 200 and issued.content == POLICY


@EMBEDDED_ONLY
@A_FEW
@given(data=st.data())
def test_any_altered_form_of_a_download_link_is_refused(gateway: Gateway, download_url: tuple[str, str],
                                                         data: st.DataObject) -> None:
    path, query = download_url
    altered = data.draw(_altered(query), label="query")
    refused = gateway.client.get(f"{path}?{altered}")
    assert refused.status_code == 403 and refused.json()["meta"]["error"]["code"] == "KNOWLEDGE_FORBIDDEN", altered


@pytest.fixture
def upload_url(gateway: Gateway) -> tuple[str, str]:
    """(path, query) of an issued upload URL for a 5-byte Markdown file."""
    space = gateway.create_space()["knowledgeSpaceId"]
    _frozen()
    ticket = gateway.ok("POST", f"/spaces/{space}/file-resources",
                        {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": 5})
    url = urlsplit(str(ticket["uploadUrl"]))
    assert url.path.startswith(BASE)
    return url.path, url.query


@EMBEDDED_ONLY
@A_FEW
@given(data=st.data())
def test_any_altered_form_of_an_upload_link_is_refused_and_stores_nothing(gateway: Gateway,
                                                                          upload_url: tuple[str, str],
                                                                          data: st.DataObject) -> None:
    path, query = upload_url
    altered = data.draw(_altered(query), label="query")
    refused = gateway.client.put(f"{path}?{altered}", content=b"hello")
    assert refused.status_code == 404, (altered, refused.text)
    assert refused.json()["meta"]["error"]["code"] == "KNOWLEDGE_NOT_FOUND" and "invalid" in refused.text


@EMBEDDED_ONLY
def test_an_upload_link_as_issued_still_works_after_altered_forms_were_refused(gateway: Gateway,
                                                                               upload_url: tuple[str, str]) -> None:
    path, query = upload_url
    expires = dict(parse_qsl(query))["expires"]
    for altered in (query.replace(f"expires={expires}", f"expires=00{expires}"), f"{query}&expires={expires}"):
        assert gateway.client.put(f"{path}?{altered}", content=b"hello").status_code == 404
    accepted = gateway.client.put(f"{path}?{query}", content=b"hello")
    assert accepted.status_code == 200, accepted.text
