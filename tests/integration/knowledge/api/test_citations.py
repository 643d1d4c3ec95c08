"""knowledge_source_read over HTTP: exact offsets, context budgets in code points, re-authorisation, retired versions;
on the embedded default and on the AWS adapters (texts in S3 and the chunk index on osmem-server)."""

from __future__ import annotations

from typing import Any

import pytest
import regex

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.model import Action, PrincipalType
from ragspine.retrieval.version_text import Passage, VersionText
from tests.support.cfn import REPO_ROOT
from tests.support.citations import citation_for, indexed_text
from tests.support.knowledge_api import Gateway, grant

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)

POLICY = (REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md").read_bytes()
PHRASE = "Items can be returned within 30 days"


@pytest.fixture
def doc(gateway: Gateway) -> dict[str, Any]:
    """The sample corpus's product policy, uploaded through the Gateway and READY."""
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"], POLICY, name="Product policy", file_name="ACME_Product_Policy.md")
    gateway.settle()
    detail = gateway.document(change["documentId"])
    assert detail["activeVersion"]["status"] == "READY"
    return detail


def _read(client: Gateway, document_id: str, citation_id: str, **params: Any) -> Any:
    return client.call("GET", f"/documents/{document_id}/citations/{citation_id}", params=params,
                       headers=client.headers(key=False))


def _error(response: Any) -> dict[str, Any]:
    return response.json()["meta"]["error"]  # type: ignore[no-any-return]


def test_a_citation_reads_back_exactly_with_its_context(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    response = _read(gateway, doc["documentId"], citation, versionId=version_id)
    assert response.status_code == 200, response.text
    read = response.json()["data"]
    assert read["matchedContent"] == indexed_text(citation)  # what the hit showed, exactly
    assert read["locatorPrecision"] == "EXACT_OFFSET" and read["versionId"] == version_id
    assert read["chapterPath"] == ["ACME Product Policy", "Returns"]
    assert (read["pageStart"], read["pageEnd"]) == (None, None)  # Markdown has no pages
    assert read["contextBeforeRequested"] == read["contextAfterRequested"] == 1000
    # The whole document is shorter than the context: everything before and after it, untruncated.
    assert read["beforeContent"].startswith("ACME Product Policy\nThis policy applies")
    assert read["beforeContent"].endswith("Returns\n") and "Membership" in read["afterContent"]
    assert read["contextBeforeActual"] == len(read["beforeContent"]) < 1000
    assert not (read["beforeTruncated"] or read["matchedTruncated"] or read["afterTruncated"])
    stored = get_knowledge_gateway().texts.get(version_id)
    assert stored is not None
    joined = read["beforeContent"] + read["matchedContent"] + read["afterContent"]
    assert stored.text[read["startOffset"] - read["contextBeforeActual"]:][:len(joined)] == joined
    assert read["totalLength"] == len(joined)


def test_context_counts_in_code_points_and_stops_at_the_request(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    read = _read(gateway, doc["documentId"], citation, versionId=version_id, contextBefore=10,
                 contextAfter=0).json()["data"]
    stored = get_knowledge_gateway().texts.get(version_id)
    assert stored is not None and read["beforeContent"] == stored.text[read["startOffset"] - 10:read["startOffset"]]
    assert read["contextBeforeActual"] == 10 and read["afterContent"] == "" and read["contextAfterActual"] == 0


@pytest.mark.parametrize("value", [0, 5000])
def test_a_context_of_5000_is_accepted(gateway: Gateway, doc: dict[str, Any], value: int) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    response = _read(gateway, doc["documentId"], citation, versionId=version_id, contextBefore=value,
                     contextAfter=value)
    assert response.status_code == 200
    assert response.json()["data"]["contextAfterRequested"] == value


@pytest.mark.parametrize(("name", "value"), [("contextBefore", "5001"), ("contextAfter", "5001"),
                                             ("contextBefore", "-1"), ("contextAfter", "ten")])
def test_a_context_outside_0_to_5000_is_invalid_input(gateway: Gateway, doc: dict[str, Any], name: str,
                                                      value: str) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    response = _read(gateway, doc["documentId"], citation, versionId=version_id, **{name: value})
    assert response.status_code == 400
    error = _error(response)
    assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and "0–5000" in error["message"]
    assert [f["field"] for f in error["fieldErrors"]] == [name]


def test_the_version_is_required_and_other_parameters_refused(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    missing = _read(gateway, doc["documentId"], citation)
    assert missing.status_code == 400 and _error(missing)["fieldErrors"][0]["field"] == "versionId"
    extra = _read(gateway, doc["documentId"], citation, versionId=version_id, chunkId=citation)
    assert extra.status_code == 400 and _error(extra)["fieldErrors"][0]["field"] == "chunkId"


def test_a_removed_grant_refuses_the_read_as_not_found(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    grant(doc["spaceId"], "USER", "bob", Action.SPACE_VIEW, Action.DOCUMENT_VIEW, Action.KNOWLEDGE_SEARCH)
    bob = gateway.as_user("bob")
    assert _read(bob, doc["documentId"], citation, versionId=version_id).status_code == 200
    assert get_knowledge_gateway().store.delete_grant(doc["spaceId"], PrincipalType.USER.value, "bob")
    refused = _read(bob, doc["documentId"], citation, versionId=version_id)
    missing = _read(bob, "doc-does-not-exist", citation, versionId=version_id)
    assert refused.status_code == missing.status_code == 404
    assert _error(refused)["code"] == "KNOWLEDGE_NOT_FOUND"
    assert _error(refused)["message"].replace(doc["documentId"], "ID") == \
        _error(missing)["message"].replace("doc-does-not-exist", "ID")  # nothing tells them apart


def test_an_unknown_citation_or_another_documents_version_is_not_found(gateway: Gateway,
                                                                        doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    assert _read(gateway, doc["documentId"], "0" * 24, versionId=version_id).status_code == 404
    assert _read(gateway, doc["documentId"], citation, versionId="ver-unknown").status_code == 404
    other = gateway.upload(doc["spaceId"])
    gateway.settle()
    assert _read(gateway, other["documentId"], citation, versionId=version_id).status_code == 404


def test_a_retired_versions_citation_still_reads_from_its_own_text(gateway: Gateway, doc: dict[str, Any]) -> None:
    first = doc["activeVersion"]["versionId"]
    old_citation = citation_for(doc["documentId"], first, PHRASE)
    old_text = indexed_text(old_citation)
    changed = POLICY.replace(b"within 30 days", b"within 45 days")
    resource = gateway.file_resource(doc["spaceId"], changed, "ACME_Product_Policy.md")
    gateway.ok("POST", f"/documents/{doc['documentId']}:replace", {"expectedVersion": 0, "fileResourceId": resource})
    gateway.settle()
    detail = gateway.document(doc["documentId"])
    second = detail["activeVersion"]["versionId"]
    assert second != first
    read = _read(gateway, doc["documentId"], old_citation, versionId=first)
    assert read.status_code == 200, read.text
    assert read.json()["data"]["matchedContent"] == old_text and "30 days" in old_text
    assert read.json()["data"]["locatorPrecision"] == "EXACT_OFFSET"
    new_citation = citation_for(doc["documentId"], second, "Items can be returned within 45 days")
    assert "45 days" in _read(gateway, doc["documentId"], new_citation, versionId=second).json()["data"][
        "matchedContent"]
    assert _read(gateway, doc["documentId"], old_citation, versionId=second).status_code == 404


def test_deleting_the_document_deletes_its_versions_texts(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id = doc["activeVersion"]["versionId"]
    citation = citation_for(doc["documentId"], version_id, PHRASE)
    texts = get_knowledge_gateway().texts
    assert texts.get(version_id) is not None
    gateway.ok("DELETE", f"/documents/{doc['documentId']}", {"expectedVersion": 0})
    assert texts.get(version_id) is None
    assert _read(gateway, doc["documentId"], citation, versionId=version_id).status_code == 404


# --- budgets: 2,500 / 5,000 / 12,500 code points, never cutting a grapheme ------------------------------------

FAMILY = "👩\u200d👧"  # three code points, one grapheme
ACCENTED = "e\u0301"  # two code points, one grapheme
FLAGGED = "漢🇯🇵"  # three code points, two graphemes


def _craft(doc: dict[str, Any], before: str, passage: str, after: str) -> tuple[str, str]:
    """Replace the version's stored text with one passage between ``before`` and ``after`` (a real version, real ACL)."""
    version_id = doc["activeVersion"]["versionId"]
    text = before + passage + after
    record = VersionText(version_id, doc["documentId"], text,
                         {"c" * 24: Passage(len(before), len(before) + len(passage), 3, 4, ("第一章", "Café"), True)})
    get_knowledge_gateway().texts.put(record)
    return version_id, "c" * 24


def _graphemes_whole(part: str, whole: str, at: int) -> None:
    """``part`` starts and ends on grapheme boundaries of ``whole`` (it sits at offset ``at``)."""
    boundaries = {m.start() for m in regex.finditer(r"\X", whole)} | {len(whole)}
    assert at in boundaries and at + len(part) in boundaries


def test_the_budgets_hold_and_cuts_fall_between_graphemes(gateway: Gateway, doc: dict[str, Any]) -> None:
    before, passage, after = FAMILY * 2000, "x" + ACCENTED * 1500, FLAGGED * 2000  # 6,000 / 3,001 / 6,000
    version_id, citation = _craft(doc, before, passage, after)
    response = _read(gateway, doc["documentId"], citation, versionId=version_id, contextBefore=5000,
                     contextAfter=5000)
    assert response.status_code == 200, response.text
    read = response.json()["data"]
    whole = before + passage + after
    assert read["contextBeforeActual"] == 4998 and read["beforeContent"].startswith("👩")  # 5,000 is mid-grapheme
    assert read["matchedContentLength"] == 2499 and read["matchedContent"].endswith(ACCENTED)
    # 5,000 falls inside a flag (two regional indicators): the flag is left out whole, 漢 stays.
    assert read["contextAfterActual"] == 4999 and read["afterContent"].endswith("🇯🇵漢")
    assert read["beforeTruncated"] and read["matchedTruncated"] and read["afterTruncated"]
    assert read["totalLength"] == 4998 + 2499 + 4999 <= 12500
    _graphemes_whole(read["beforeContent"], whole, len(before) - 4998)
    _graphemes_whole(read["matchedContent"], whole, len(before))
    _graphemes_whole(read["afterContent"], whole, len(before) + len(passage))
    assert read["pageStart"] == 3 and read["pageEnd"] == 4 and read["chapterPath"] == ["第一章", "Café"]


def test_the_three_budgets_add_up_to_12500_exactly(gateway: Gateway, doc: dict[str, Any]) -> None:
    version_id, citation = _craft(doc, "漢" * 7000, "字" * 4000, "文" * 7000)
    read = _read(gateway, doc["documentId"], citation, versionId=version_id, contextBefore=5000,
                 contextAfter=5000).json()["data"]
    assert (len(read["beforeContent"]), len(read["matchedContent"]), len(read["afterContent"])) == (5000, 2500, 5000)
    assert read["totalLength"] == 12500 and read["matchedTruncated"]
