"""On OpenSearch too, a number written onto its counter (16世) tells two Japanese passages apart.

The embedded index reads "ルイ16世" with the join "16世" (``ragspine.text``); the mapping's
``number_joins`` sub-fields give the lexical leg the same token, so the passage about Louis XVI
outranks the one about Louis XVIII that shares every other term of the question.
"""

from __future__ import annotations

import pytest

from ragspine.aws.opensearch_index import OpenSearchChunkIndex
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.sensitivity import Sensitivity
from tests.integration.aws.opensearch.conftest import MakeIndex

LOUIS_16 = Chunk(chunk_id="louis16", doc_id="louis16.txt", source_locator="para=1", title="フランス王",
                 text="ルイ16世の即位は1774年である。王妃はマリー・アントワネットで、のちに革命を迎えた。",
                 sensitivity=Sensitivity.PUBLIC)
LOUIS_18 = Chunk(chunk_id="louis18", doc_id="louis18.txt", source_locator="para=1", title="フランス王",
                 text="ルイ18世の即位は1814年、16年に及ぶ亡命ののちである。", sensitivity=Sensitivity.PUBLIC)


@pytest.fixture
def reigns(make_index: MakeIndex) -> OpenSearchChunkIndex:
    index = make_index()
    index.ensure_index()
    index.add([LOUIS_16, LOUIS_18])
    return index


def test_the_join_sub_field_holds_the_number_with_its_counter(reigns: OpenSearchChunkIndex) -> None:
    analyzed = reigns.client.indices.analyze(index=reigns._index,
                                             body={"field": "text.joins", "text": "ルイ１６世の即位は1774年"})
    assert [token["token"] for token in analyzed["tokens"]] == ["16世"]  # a year is not joined (ragspine.text)
    analyzed = reigns.client.indices.analyze(index=reigns._index, body={"field": "text.joins", "text": "１９４５年９月"})
    assert [token["token"] for token in analyzed["tokens"]] == ["9月"]


@pytest.mark.parametrize("question", ["ルイ16世の即位", "ルイ１６世の即位は？"])
def test_the_reign_named_by_its_number_ranks_first(reigns: OpenSearchChunkIndex, question: str) -> None:
    hits = reigns.search(question, top_k=5, filters=SearchFilters())
    assert [hit.chunk.chunk_id for hit in hits] == ["louis16", "louis18"]
