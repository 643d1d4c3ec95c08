"""The parse cache over the embedded SQLite store: a fact written between two asks shows at once."""

from __future__ import annotations

from pathlib import Path

from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.qa.answer import answer_question
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact

QUESTION = "What was Mainland China's revenue in FY2024?"


def test_a_fact_rewritten_in_sqlite_shows_on_the_next_cached_ask(tmp_path: Path) -> None:
    # GIVEN a question already answered (and its parse cached) from a SQLite fact file
    store = SqliteFactStore(tmp_path / "facts.db")
    store.put_many([make_fact()])
    qa = make_qa(store)
    assert "1320 USD_M" in answer_question(QUESTION, qa=qa).answer
    # WHEN the fact is re-extracted with a new value, through another connection
    SqliteFactStore(tmp_path / "facts.db").put_many([make_fact(value=1321)])
    # THEN the very next ask, a parse-cache hit, reads the new value
    result = answer_question(QUESTION, qa=qa)
    assert qa.parse_cache.hits == 1
    assert "1321 USD_M" in result.answer and "1320" not in result.answer
    store.close()
