"""The text toolkit returns exactly what the three tokenizers it replaced returned.

Retrieval (document and query tokens), the extractive provider and catalog search each keep
their rankings only if their tokens are unchanged; ``golden_tokens.json`` was written from the
old implementations (see ``golden.py``) and is compared run by run. The index's joins (a number
or word read with the CJK character after it, added for JSQuAD) came later: they are switched
off here, and ``test_toolkit.py`` checks that they only ever add tokens.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest

from ragspine import text
from ragspine.llm.extractive import tokens as extractive_tokens
from ragspine.text import document_tokens, normalize, query_tokens
from ragspine.workflows.scaffold.catalog.search import is_cjk, tokenize
from tests.unit.text.golden import GOLDEN, chunks, corpus_texts, digest, random_strings, repo_texts

TOKENIZERS: dict[str, Callable[[str], object]] = {
    "document": dataclasses.replace(text._DOCUMENT, joins=False).tokens,
    "query": dataclasses.replace(text._QUERY, joins=False).tokens,
    "extractive": extractive_tokens,
    "catalog_normalize": lambda t: normalize(t, casefold=True, replacements=(("q&a", "qa"),), collapse_spaces=True),
    "catalog": lambda t: [(tok, is_cjk(tok)) for tok in tokenize(t)],
}
EXPECTED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def _check(group: str, texts: list[str]) -> None:
    runs = chunks(texts)
    assert len(runs) == len(EXPECTED[group]["document"]), "the inputs changed; the golden file no longer applies"
    for name, tokenizer in TOKENIZERS.items():
        for run, expected in zip(runs, EXPECTED[group][name], strict=True):
            if digest([tokenizer(t) for t in run]) != expected:
                pytest.fail(f"{name} tokens changed for one of: {run!r}")


@pytest.mark.parametrize("group", ["random", "repo"])
def test_tokens_match_the_old_tokenizers_on_mixed_scripts_and_repository_text(group: str) -> None:
    _check(group, random_strings() if group == "random" else repo_texts())


@pytest.mark.corpus
def test_tokens_match_the_old_tokenizers_on_the_quick_evaluation_corpora() -> None:
    texts = corpus_texts()
    if not texts:
        pytest.skip("../shared/corpus/qa is absent (CMRC2018 and TAT-QA dev)")
    _check("corpus", texts)


def test_the_comparison_can_fail() -> None:
    assert digest([document_tokens("香港收入")]) != digest([query_tokens("香港收入")])
