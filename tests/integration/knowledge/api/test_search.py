"""knowledge_search over HTTP, documents uploaded through the Gateway: on the embedded default (the real
embedded index) and on the AWS adapters (the Knowledge Lambda's app, DynamoDB and S3 on moto, the state
machine, the chunk index on osmem-server, whose missing k-NN leaves the lexical leg)."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.knowledge.model import Action
from tests.support.knowledge_api import Gateway, grant

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)

RETURNS = ("# Returns\n\n" + "\n\n".join(
    f"Rule {n}: customers may return item group {word} within 30 days of purchase with the receipt."
    for n, word in enumerate(("alpha", "bravo", "charlie", "delta", "echo", "foxtrot"), start=1)) + "\n")
HOTELS = "# Hotels\n\nStaff hotels cost up to 150 EUR a night in every city.\n"


def search(client: Gateway, body: dict[str, Any]) -> Any:
    return client.call("POST", "/search", body, headers=client.headers(key=False))


def hits(client: Gateway, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = search(client, body)
    assert response.status_code == 200, response.text
    return response.json()["data"]["hits"]  # type: ignore[no-any-return]


def uploaded(gateway: Gateway, space_id: str, text: str, name: str, metadata: dict[str, Any] | None = None,
             file_name: str = "policy.md") -> str:
    change = gateway.upload(space_id, text.encode(), name=name, metadata=metadata, file_name=file_name)
    gateway.settle()
    assert gateway.document(change["documentId"])["searchable"]
    return str(change["documentId"])


@pytest.fixture
def space(gateway: Gateway) -> str:
    return str(gateway.create_space()["knowledgeSpaceId"])


class TestInput:
    def test_limit_8_is_accepted_and_9_refused_with_a_field_error(self, gateway: Gateway, space: str) -> None:
        uploaded(gateway, space, RETURNS, "Returns")
        assert hits(gateway, {"query": "return item", "limit": 8})
        refused = search(gateway, {"query": "return item", "limit": 9})
        assert refused.status_code == 400
        error = refused.json()["meta"]["error"]
        assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and error["fieldErrors"][0]["field"] == "limit"

    @pytest.mark.parametrize("body", [
        {"query": "x", "rerank": True}, {"query": "x", "datasetId": "d"}, {"query": "x", "limit": 0},
        {"knowledgeSpaceIds": []}, {"query": "   "},
    ])
    def test_the_schema_is_closed(self, gateway: Gateway, body: dict[str, Any]) -> None:
        refused = search(gateway, body)
        assert refused.status_code == 400 and refused.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"

    def test_empty_document_ids_mean_no_document_chosen(self, gateway: Gateway, space: str) -> None:
        uploaded(gateway, space, RETURNS, "Returns")
        assert hits(gateway, {"query": "return item", "documentIds": []})


class TestRetrieval:
    def test_a_document_with_six_relevant_passages_gives_four(self, gateway: Gateway, space: str) -> None:
        document_id = uploaded(gateway, space, RETURNS, "Returns")
        found = hits(gateway, {"query": "customers return item group within 30 days", "limit": 8})
        assert len(found) == 4 and {h["documentId"] for h in found} == {document_id}
        assert len({h["citationId"] for h in found}) == 4  # one passage never twice

    def test_a_hit_carries_the_citation_handle(self, gateway: Gateway, space: str) -> None:
        document_id = uploaded(gateway, space, HOTELS, "Hotels")
        (hit,) = hits(gateway, {"query": "hotel a night"})
        detail = gateway.document(document_id)
        assert hit["knowledgeSpaceId"] == space and hit["documentId"] == document_id
        assert hit["versionId"] == detail["activeVersion"]["versionId"] and hit["documentName"] == "Hotels"
        assert hit["page"] is None and hit["chapterPath"] == ["Hotels"] and "150 EUR" in hit["text"]
        assert hit["truncated"] is False and hit["score"] > 0

    def test_hits_are_merged_across_spaces(self, gateway: Gateway, space: str) -> None:
        other = str(gateway.create_space()["knowledgeSpaceId"])
        first = uploaded(gateway, space, HOTELS, "Hotels A")
        second = uploaded(gateway, other, HOTELS.replace("Staff", "Guests"), "Hotels B")
        found = hits(gateway, {"query": "hotels a night", "knowledgeSpaceIds": [space, other]})
        assert {h["documentId"] for h in found} == {first, second}
        only = hits(gateway, {"query": "hotels a night", "knowledgeSpaceIds": [other]})
        assert {h["documentId"] for h in only} == {second}
        chosen = hits(gateway, {"query": "hotels a night", "documentIds": [first]})
        assert {h["documentId"] for h in chosen} == {first}

    def test_nothing_relevant_is_the_no_evidence_success(self, gateway: Gateway, space: str) -> None:
        uploaded(gateway, space, HOTELS, "Hotels")
        response = search(gateway, {"query": "zebra quantum"})
        assert response.status_code == 200
        assert response.json()["data"] == {"hits": [], "reason": "NO_AUTHORIZED_RELEVANT_EVIDENCE"}


class TestAccess:
    def test_two_users_with_different_grants_on_one_space_see_different_hits(self, gateway: Gateway,
                                                                              space: str) -> None:
        uploaded(gateway, space, HOTELS, "Hotels")
        grant(space, "USER", "searcher", Action.KNOWLEDGE_SEARCH)
        grant(space, "USER", "viewer", Action.SPACE_VIEW, Action.DOCUMENT_VIEW)
        assert hits(gateway.as_user("searcher"), {"query": "hotels a night"})
        viewer = search(gateway.as_user("viewer"), {"query": "hotels a night"}).json()["data"]
        assert viewer == {"hits": [], "reason": "NO_AUTHORIZED_RELEVANT_EVIDENCE"}

    def test_no_grant_or_a_missing_security_domain_gives_no_evidence(self, gateway: Gateway, space: str) -> None:
        uploaded(gateway, space, HOTELS, "Hotels")
        for client in (gateway.as_user("stranger"), gateway.as_user("admin2", ("knowledge-admin",), ("public",))):
            found = search(client, {"query": "hotels a night", "knowledgeSpaceIds": [space]}).json()["data"]
            assert found == {"hits": [], "reason": "NO_AUTHORIZED_RELEVANT_EVIDENCE"}

    def test_a_disabled_document_disappears_at_once_and_returns_when_enabled(self, gateway: Gateway,
                                                                             space: str) -> None:
        document_id = uploaded(gateway, space, HOTELS, "Hotels")
        assert hits(gateway, {"query": "hotels a night"})
        version = gateway.document(document_id)["lockVersion"]
        gateway.ok("POST", f"/documents/{document_id}:disable", {"expectedVersion": version})
        assert hits(gateway, {"query": "hotels a night"}) == []
        gateway.ok("POST", f"/documents/{document_id}:enable", {"expectedVersion": version + 1})
        assert hits(gateway, {"query": "hotels a night"})

    def test_a_retired_version_disappears_when_its_replacement_is_active(self, gateway: Gateway,
                                                                         space: str) -> None:
        document_id = uploaded(gateway, space, HOTELS, "Hotels")
        (old,) = hits(gateway, {"query": "hotels a night"})
        resource = gateway.file_resource(space, b"# Hotels\n\nStaff hotels now cost up to 180 EUR a night.\n")
        version = gateway.document(document_id)["lockVersion"]
        gateway.ok("POST", f"/documents/{document_id}:replace", {"expectedVersion": version,
                                                                  "fileResourceId": resource})
        gateway.settle()
        found = hits(gateway, {"query": "hotels a night"})
        assert [h["versionId"] for h in found] == [gateway.document(document_id)["activeVersion"]["versionId"]]
        assert old["versionId"] not in {h["versionId"] for h in found} and "180 EUR" in found[0]["text"]


class TestMetadataFilter:
    @pytest.fixture
    def library(self, gateway: Gateway, space: str) -> dict[str, str]:
        return {
            "a": uploaded(gateway, space, HOTELS, "A", {"category": "policy", "tags": ["travel", "hotel"],
                                                        "versionLabel": "2025", "productCode": "P1"}),
            "b": uploaded(gateway, space, HOTELS.replace("Staff", "Guests"), "B",
                          {"category": "memo", "tags": ["hotel"], "versionLabel": "2024"}),
            "c": uploaded(gateway, space, HOTELS.replace("Staff", "Teams"), "C", {"tags": ["travel"]}),
        }

    @pytest.mark.parametrize(("metadata_filter", "expected"), [
        ({"category": ["policy"]}, {"a"}),
        ({"category": ["policy", "memo"]}, {"a", "b"}),
        ({"tagsAny": ["travel"]}, {"a", "c"}),
        ({"tagsAll": ["travel", "hotel"]}, {"a"}),
        ({"versionLabel": ["2024"]}, {"b"}),
        ({"productCode": ["P1"]}, {"a"}),
        ({"category": ["memo"], "tagsAny": ["travel"]}, set()),
        ({"tagsAny": ["  travel "]}, {"a", "c"}),
    ])
    def test_and_across_fields_or_within_and_tags_all_needs_every_value(
            self, gateway: Gateway, library: dict[str, str], metadata_filter: dict[str, Any],
            expected: set[str]) -> None:
        found = hits(gateway, {"query": "hotels a night", "limit": 8, "metadataFilter": metadata_filter})
        names = {name for name, document_id in library.items() if document_id in {h["documentId"] for h in found}}
        assert names == expected

    @pytest.mark.parametrize(("metadata_filter", "code", "field"), [
        ({"owner": ["x"]}, "KNOWLEDGE_METADATA_FILTER_FIELD_NOT_ALLOWED", "metadataFilter.owner"),
        ({"tags": ["x"]}, "KNOWLEDGE_METADATA_FILTER_FIELD_NOT_ALLOWED", "metadataFilter.tags"),
        ({"category": []}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.category"),
        ({"category": "policy"}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.category"),
        ({"tagsAny": ["a", " a"]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.tagsAny"),
        ({"tagsAll": [""]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.tagsAll[0]"),
        ({"versionLabel": [7]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.versionLabel[0]"),
        ({"productCode": ["x" * 65]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.productCode[0]"),
        ({"tagsAny": ["x" * 33]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.tagsAny[0]"),
        ({"category": ["a\u0007"]}, "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter.category[0]"),
        ({"tagsAny": [f"t{i}" for i in range(21)]}, "KNOWLEDGE_METADATA_TOO_LARGE", "metadataFilter.tagsAny"),
        (["category"], "KNOWLEDGE_METADATA_VALUE_INVALID", "metadataFilter"),
    ])
    def test_each_rule_has_its_code(self, gateway: Gateway, metadata_filter: Any, code: str, field: str) -> None:
        refused = search(gateway, {"query": "hotels", "metadataFilter": metadata_filter})
        assert refused.status_code == 400
        error = refused.json()["meta"]["error"]
        assert error["code"] == code and field in {f["field"] for f in error["fieldErrors"]}

    def test_twenty_values_are_accepted(self, gateway: Gateway, library: dict[str, str]) -> None:
        values = ["travel", *(f"t{i}" for i in range(19))]
        assert hits(gateway, {"query": "hotels a night", "metadataFilter": {"tagsAny": values}})

    def test_a_patch_of_metadata_reaches_the_index_before_the_next_search(self, gateway: Gateway,
                                                                          library: dict[str, str]) -> None:
        document_id = library["c"]
        version = gateway.document(document_id)["lockVersion"]
        gateway.ok("PATCH", f"/documents/{document_id}", {"expectedVersion": version,
                                                         "metadata": {"tags": ["archive"], "category": "memo"}})
        found = hits(gateway, {"query": "hotels a night", "metadataFilter": {"tagsAny": ["archive"]}})
        assert [h["documentId"] for h in found] == [document_id]
        assert document_id not in {h["documentId"] for h in hits(
            gateway, {"query": "hotels a night", "limit": 8, "metadataFilter": {"tagsAny": ["travel"]}})}

    def test_the_filter_runs_inside_the_index_query(self, gateway: Gateway, library: dict[str, str]) -> None:
        from ragspine.bootstrap import get_services

        index = get_services().retrieval.index  # type: ignore[union-attr]
        calls: list[Any] = []
        original = index.search

        def recording(query: str, **kwargs: Any) -> Any:
            calls.append(kwargs["filters"])
            return original(query, **kwargs)

        index.search = recording  # type: ignore[method-assign]
        try:
            hits(gateway, {"query": "hotels a night", "metadataFilter": {"tagsAll": ["travel"], "productCode": ["P1"]}})
        finally:
            index.search = original  # type: ignore[method-assign]
        assert calls and all(f.tags_all == ("travel",) and f.product_codes == ("P1",) for f in calls)
        assert all(set(f.document_ids) == {library["a"]} and len(f.version_ids) == 1 for f in calls)


# One grapheme cluster each: CJK, an emoji ZWJ sequence, a flag, a skin tone, combining marks, Hangul jamo.
UNITS = ["酒", "店", "住", "宿", "\U0001F469\u200D\U0001F4BB", "\U0001F1EF\U0001F1F5", "\U0001F44D\U0001F3FD",
         "e\u0301", "a\u0308\u0323", "\u1100\u1161\u11A8", "夜", "价"]


def long_text(seed: int, length: int = 3000) -> str:
    import random

    pick = random.Random(seed)
    text = f"hotel night {seed} "
    while len(text) < length:
        text += pick.choice(UNITS)
    return text


class TestBudgets:
    def test_each_hit_at_most_2500_and_all_at_most_16000_code_points_cut_between_clusters(
            self, gateway: Gateway, space: str) -> None:
        """Passages longer than our chunker makes (another chunker, another provider), in the real index."""
        import regex

        from ragspine.bootstrap import get_services
        from ragspine.retrieval.model import Chunk

        index = get_services().retrieval.index  # type: ignore[union-attr]
        stored: dict[str, str] = {}
        for d in range(2):
            document_id = uploaded(gateway, space, HOTELS, f"Long {d}")
            version_id = gateway.document(document_id)["activeVersion"]["versionId"]
            chunks = [Chunk(f"long-{d}-{i}", doc_id=document_id, source_locator=f"page={i + 1}", text=long_text(10 * d + i),
                            library=space, space_id=space, document_id=document_id, version_id=version_id)
                      for i in range(4)]
            index.add(chunks)
            stored.update({c.chunk_id: c.text for c in chunks})
        found = hits(gateway, {"query": "hotel night", "limit": 8})
        long_hits = [h for h in found if h["citationId"] in stored]
        assert len(long_hits) == 7  # 6 x 2,500 + 1,000: the budget is spent before the eighth
        assert all(len(h["text"]) <= 2500 and h["truncated"] for h in found if h["citationId"] in stored)
        assert len(long_hits[0]["text"]) >= 2490 and sum(len(h["text"]) for h in found) <= 16000
        for hit in long_hits:
            whole = regex.findall(r"\X", stored[hit["citationId"]])
            kept = regex.findall(r"\X", hit["text"])
            assert kept == whole[:len(kept)]  # never a split surrogate pair, ZWJ sequence or combining mark
        assert {h["page"] for h in long_hits} <= {1, 2, 3, 4}


class TestMetadataDuringARun:
    def test_a_patch_while_the_run_is_in_flight_is_stamped_when_the_version_activates(
            self, gateway: Gateway, space: str, runs: Any) -> None:
        runs.hold.clear()  # the run waits before fetch: its chunks will be stamped with the upload's tags
        change = gateway.upload(space, HOTELS.encode(), name="Hotels", metadata={"tags": ["draft"]})
        document_id = change["documentId"]
        gateway.ok("PATCH", f"/documents/{document_id}", {"expectedVersion": gateway.document(document_id)["lockVersion"],
                                                         "metadata": {"tags": ["final"], "category": "e\u0301t\u00e9"}})
        runs.hold.set()
        gateway.settle()
        assert gateway.document(document_id)["searchable"]
        final = hits(gateway, {"query": "hotels a night", "metadataFilter": {"tagsAll": ["final"]}})
        assert [h["documentId"] for h in final] == [document_id]
        assert hits(gateway, {"query": "hotels a night", "metadataFilter": {"tagsAny": ["draft"]}}) == []
        # a filter value typed decomposed matches the NFC value stored
        nfd = hits(gateway, {"query": "hotels a night", "metadataFilter": {"category": ["e\u0301te\u0301"]}})
        assert [h["documentId"] for h in nfd] == [document_id]
