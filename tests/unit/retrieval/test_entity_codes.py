"""The lexical query carries the glossary codes of the entities a question names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import SlotKind
from ragspine.retrieval.entity_codes import entity_code_words, entity_codes, glossary_entity_codes
from ragspine.retrieval.expansion import ExpansionMode
from ragspine.retrieval.model import ScoredChunk, SearchFilters
from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
from ragspine.retrieval.query_terms import default_expander
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()
ENTITY_ALIASES = sorted((alias, code) for alias, (kind, code) in GLOSSARY.aliases.items()
                        if kind is SlotKind.ENTITY and alias != code.lower())


def test_a_name_gives_its_code_and_a_written_code_gives_none() -> None:
    assert entity_codes(GLOSSARY, "Mainland China revenue 2024") == ("ACME_CN",)
    assert entity_codes(GLOSSARY, "ACME_CN revenue 2024") == ()
    assert entity_codes(GLOSSARY, "香港和日本的收入，香港为什么下降") == ("ACME_HK", "ACME_JP")
    assert entity_codes(GLOSSARY, "What were the capital expenditures?") == ()


@given(st.sampled_from(ENTITY_ALIASES), st.sampled_from(["{} revenue 2024", "2024年{}的收入", "how did {} do?"]),
       st.sampled_from([str, str.upper, str.title]))
def test_every_entity_alias_in_any_case_gives_its_code(alias_code: tuple[str, str], template: str,
                                                       case: object) -> None:
    alias, code = alias_code
    question = template.format(case(alias))  # type: ignore[operator]
    assert entity_codes(GLOSSARY, question) == (code,)
    assert entity_codes(GLOSSARY, f"{question} ({code})") == ()


def test_only_the_words_that_tell_a_code_apart_are_added() -> None:
    # every sample code starts with ACME_: that word would lift every passage of the company
    assert entity_code_words(GLOSSARY, "Mainland China revenue 2024") == ("cn",)
    assert entity_code_words(GLOSSARY, "group revenue and Japan") == ("jp",)  # "group" is said already
    assert entity_code_words(GLOSSARY, "HK revenue") == ()  # the question says "hk" itself
    assert entity_code_words(GLOSSARY, "capital expenditures") == ()


@dataclass
class QueryRecordingIndex:
    """A ``ChunkIndex`` that finds nothing and keeps every lexical query it was sent."""

    queries: list[str] = field(default_factory=list)

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        self.queries.append(query)
        return []


def _lexical(question: str, **config: int) -> str:
    index = QueryRecordingIndex()
    retriever = HybridRetriever(index, config=RetrievalConfig(expansion=ExpansionMode.NONE, **config),  # type: ignore[arg-type]
                                entity_codes=glossary_entity_codes(GLOSSARY), expander=default_expander())
    retriever.retrieve(question, filters=SearchFilters(libraries=("any",)))
    return index.queries[0]


def test_the_codes_follow_the_question_and_the_analyst_words_follow_them() -> None:
    assert _lexical("Mainland China revenue 2024") == "Mainland China revenue 2024\ncn"
    query = _lexical("Hong Kong capex in 2024")
    assert query.startswith("Hong Kong capex in 2024\nhk\n") and "purchases of property" in query


def test_codes_that_would_pass_the_query_limit_are_left_out() -> None:
    question = "Mainland China revenue " + "x" * 40
    assert _lexical(question, max_query_chars=len(question) + 2) == question
    assert _lexical(question, max_query_chars=len(question) + 3) == question + "\ncn"
