"""The chunk index mapping (``ragspine/aws/chunks-index.json``) matches what the adapter writes and filters on."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import pytest

from ragspine.aws.opensearch_index import DEFAULT_INDEX_BODY
from ragspine.aws.opensearch_queries import EXTRA_FILTER_FIELDS, LEXICAL_FIELDS, TERMS_FILTERS, chunk_to_document
from ragspine.retrieval.model import Chunk
from ragspine.sensitivity import Sensitivity
from ragspine.text import document_tokens


@pytest.fixture(scope="module")
def body() -> dict[str, Any]:
    return json.loads(DEFAULT_INDEX_BODY.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def properties(body: dict[str, Any]) -> dict[str, Any]:
    return body["mappings"]["properties"]  # type: ignore[no-any-return]


def test_the_index_is_a_strict_knn_index(body: dict[str, Any]) -> None:
    assert body["settings"]["index"]["knn"] is True
    assert body["mappings"]["dynamic"] == "strict"


def test_the_embedding_is_a_384_dimension_hnsw_inner_product_field(body: dict[str, Any]) -> None:
    embedding = properties(body)["embedding"]
    assert embedding["type"] == "knn_vector" and embedding["dimension"] == 384
    assert embedding["method"] == {"name": "hnsw", "engine": "faiss", "space_type": "innerproduct",
                                   "parameters": {"m": 16, "ef_construction": 128}}


@pytest.mark.parametrize("field", ["text", "title", "context"])
def test_text_fields_use_cjk_bigrams_with_standard_and_number_join_sub_fields(body: dict[str, Any],
                                                                             field: str) -> None:
    assert properties(body)[field] == {"type": "text", "analyzer": "cjk",
                                       "fields": {"en": {"type": "text", "analyzer": "standard"},
                                                  "joins": {"type": "text", "analyzer": "number_joins"}}}


def _joins(body: dict[str, Any], text: str) -> list[str]:
    """What the ``number_joins`` analyzer gives, read with Python's regex (the same pattern syntax).

    Its tokenizer, then its filters in order: ``cjk_width`` and ``lowercase`` (NFKC and lower
    case here), each ``pattern_replace`` and the ``length`` filter that drops what they emptied.
    """
    analysis = body["settings"]["analysis"]
    tokens = [unicodedata.normalize("NFKC", m).lower()
              for m in re.findall(analysis["tokenizer"]["number_joins"]["pattern"], text)]
    for name in analysis["analyzer"]["number_joins"]["filter"]:
        spec = analysis.get("filter", {}).get(name, {})
        if spec.get("type") == "pattern_replace":
            tokens = [re.sub(spec["pattern"], spec["replacement"], t) for t in tokens]
        elif spec.get("type") == "length":
            tokens = [t for t in tokens if len(t) >= spec["min"]]
    return tokens


@pytest.mark.parametrize("text", ["ルイ16世の即位は1774年", "１９４５年９月２日", "第5共和政", "FY2024年度 7.4%増",
                                  "3.5倍", "ACME_JP事業 16 世", "2ちゃんねる・12カ月・4ヶ国", "香港2024财年",
                                  "12024年と2024.5年と８０年代"])
def test_the_join_analyzer_gives_the_embedded_indexs_number_joins(body: dict[str, Any], text: str) -> None:
    joined = [t for t in document_tokens(text) if t[:1].isdigit() and not t[-1].isdigit() and not t[-1].isascii()]
    assert _joins(body, text) == joined


def test_a_year_is_not_a_join_on_either_index(body: dict[str, Any]) -> None:
    text = "１９４５年９月、2024年度"
    assert _joins(body, text) == ["9月"]
    assert "1945年" not in document_tokens(text) and "9月" in document_tokens(text)


def test_every_filterable_field_is_a_keyword(body: dict[str, Any]) -> None:
    filterable = set(TERMS_FILTERS.values()) | EXTRA_FILTER_FIELDS | {"sensitivity", "doc_id", "version_id"}
    assert {properties(body)[field]["type"] for field in filterable} == {"keyword"}
    assert properties(body)["sensitivity_level"]["type"] == "integer"


def test_lexical_fields_exist(body: dict[str, Any]) -> None:
    for field in LEXICAL_FIELDS:
        name, _, sub = field.split("^")[0].partition(".")
        assert name in properties(body) and (not sub or sub in properties(body)[name]["fields"])


def test_the_strict_mapping_accepts_every_field_the_adapter_writes(body: dict[str, Any]) -> None:
    chunk = Chunk(chunk_id="c", doc_id="d", source_locator="l", text="t", entity="e", period="p",
                  sensitivity=Sensitivity.PUBLIC, parent_id="p", prev_id="a", next_id="b", space_id="s",
                  document_id="k", version_id="v", category="c", tags=("t",), version_label="1", product_code="x")
    assert set(chunk_to_document(chunk, [1.0])) <= set(properties(body))


def test_the_mapping_ships_as_package_data_of_the_engine() -> None:
    # the built layer carries the package, not the repository: the mapping must live in it and be declared
    import fnmatch
    import tomllib
    from pathlib import Path

    import ragspine

    package = Path(ragspine.__file__).resolve().parent
    relative = DEFAULT_INDEX_BODY.relative_to(package).as_posix()
    pyproject = tomllib.loads((package.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["ragspine"]
    assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), (relative, patterns)
