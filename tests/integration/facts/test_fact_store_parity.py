"""One behaviour suite over both fact stores: SQLite (embedded) and DynamoDB (moto), same assertions."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.errors import MissingLineageError
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import execute_query_metric
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerStatus
from tests.conftest import FACTS_TABLE
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.support.samples import load_sample_facts

TODAY = date(2026, 11, 30)


@pytest.fixture(params=["embedded", "aws"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FactStore]:
    """An empty store of each backend."""
    if request.param == "embedded":
        yield SqliteFactStore(tmp_path / "facts.db")
    else:
        client: Any = request.getfixturevalue("aws")
        yield DynamoFactStore(FACTS_TABLE, client=client)


@pytest.fixture
def loaded(store: FactStore) -> FactStore:
    """The store holding the ACME sample facts."""
    load_sample_facts(store)
    return store


def ask(question: str, store: FactStore):
    return answer_question(question, qa=make_qa(store))


class TestStructuredAnswers:
    def test_seed_001_example_answers_1320_with_its_locator(self, loaded: FactStore) -> None:
        result = ask("中国内地FY2024的REVENUE是多少", loaded)
        assert "1320 USD_M（来源：ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024）" in result.answer
        assert result.sources == ({"doc": "ACME_FY2024_Review.pptx",
                                   "locator": "slide=2,table=1,row=REVENUE,col=FY2024"},)

    def test_japan_gross_margin_2024_is_36_point_0(self, loaded: FactStore) -> None:
        result = ask("2024年日本的毛利率是多少", loaded)
        assert "36.0 PCT（来源：ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024）" in result.answer
        assert result.status is AnswerStatus.FOUND

    def test_quarterly_revenue_cites_the_workbook_cell(self, loaded: FactStore) -> None:
        result = ask("What was Hong Kong revenue in Q2 2024?", loaded)
        assert "82 USD_M（来源：ACME_Quarterly_Revenue.xlsx · sheet=2024,cell=C3,row=ACME_HK,col=2024Q2）" in result.answer

    def test_fy2025_fact_cites_the_chinese_row_label_of_the_2025_deck(self, loaded: FactStore) -> None:
        result = ask("日本の2025年度の売上高はいくらですか", loaded)
        assert result.sources == ({"doc": "ACME_FY2025_Review.pptx", "locator": "slide=4,table=1,row=营业收入,col=FY2025"},)
        assert "672 USD_M" in result.answer

    def test_channel_revenue_is_found_per_channel(self, loaded: FactStore) -> None:
        result = ask("日本2024年线上营收", loaded)
        assert "170.3 USD_M" in result.answer

    def test_missing_year_is_not_found_and_says_so(self, loaded: FactStore) -> None:
        result = ask("日本FY2030的营业收入是多少", loaded)
        assert result.status is AnswerStatus.NOT_FOUND and result.sources == ()

    def test_tool_call_returns_the_same_tristate(self, loaded: FactStore) -> None:
        found = execute_query_metric({"metric": "毛利率", "entity": "Japan", "period": "FY2024"},
                                     facts=loaded, glossary=default_glossary())
        assert found.to_dict()["value"] == 36.0 and isinstance(found.to_dict()["value"], float)
        assert execute_query_metric({"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"},
                                    facts=loaded, glossary=default_glossary()).to_dict()["value"] == 1320


class TestStoreContract:
    def test_values_round_trip_in_their_source_form(self, loaded: FactStore) -> None:
        fact = loaded.get(FactKey("GROSS_PROFIT", "ACME_CN", "TOTAL", "FY", "2023"))
        assert fact is not None and repr(fact.value) == "472.0"
        revenue = loaded.get(FactKey("REVENUE", "ACME_CN", "TOTAL", "FY", "2024"))
        assert revenue is not None and type(revenue.value) is int

    def test_lineage_v2_fields_are_kept(self, loaded: FactStore) -> None:
        fact = loaded.get(FactKey("REVENUE", "ACME_CN", "TOTAL", "FY", "2024"))
        assert fact is not None and fact.source_file_hash and fact.source_file_hash.startswith("sha256:")
        assert (fact.extractor_version, fact.mapping_version) == ("curated-1", "glossary-1")

    def test_sample_load_is_idempotent(self, loaded: FactStore) -> None:
        assert loaded.count() == 114
        load_sample_facts(loaded)
        assert loaded.count() == 114

    def test_find_lists_every_period_and_channel_of_a_metric(self, loaded: FactStore) -> None:
        facts = loaded.find(metric_code="REVENUE", entity="ACME_HK")
        assert len(facts) == 3 * 3 + 8  # three channels x three years, plus eight quarters
        assert facts == sorted(facts, key=lambda f: (f.channel, f.period_type, f.period))

    def test_a_fact_without_lineage_is_refused_and_nothing_is_written(self, store: FactStore) -> None:
        good = Fact("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1320, "USD_M", "doc.pptx", "slide=2")
        bad = Fact("REVENUE", "ACME_CN", "CN", "TOTAL", "FY", "2023", 1180, "USD_M", "doc.pptx", "")
        with pytest.raises(MissingLineageError, match="source_locator"):
            store.put_many([good, bad])
        assert store.count() == 0

    def test_delete_by_source_retires_one_document(self, loaded: FactStore) -> None:
        removed = loaded.delete_by_source("ACME_Quarterly_Revenue.xlsx")
        assert removed == 24
        assert loaded.count() == 90
        assert loaded.get(FactKey("REVENUE", "ACME_HK", "TOTAL", "Q", "2024Q2")) is None

    def test_delete_by_source_can_keep_the_keys_a_new_version_just_wrote(self, loaded: FactStore) -> None:
        kept = FactKey("REVENUE", "ACME_HK", "TOTAL", "Q", "2024Q2")
        removed = loaded.delete_by_source("ACME_Quarterly_Revenue.xlsx", keep={kept})
        assert removed == 23 and loaded.count() == 91
        assert loaded.get(kept) is not None
        assert loaded.get(FactKey("REVENUE", "ACME_HK", "TOTAL", "Q", "2024Q1")) is None
        assert loaded.delete_by_source("ACME_FY2024_Review.pptx", keep={kept}) == 60  # a key of another document

    def test_by_source_lists_one_documents_facts_sorted_without_its_differing_figures(self, loaded: FactStore) -> None:
        differing = Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "Q", "2024Q2", 83, "USD_M",
                         "ACME_Quarterly_Revenue.xlsx", "sheet=2024,cell=Z3")
        loaded.put_conflicts([differing])
        listed = loaded.by_source("ACME_Quarterly_Revenue.xlsx")  # type: ignore[attr-defined]
        assert len(listed) == 24 and all(f.source_doc_id == "ACME_Quarterly_Revenue.xlsx" for f in listed)
        assert listed == sorted(listed, key=lambda f: (f.metric_code, f.entity, f.channel, f.period_type, f.period))
        assert differing not in listed and loaded.by_source("nothing.xlsx") == []  # type: ignore[attr-defined]


def test_sqlite_refuses_blank_lineage_even_below_python(tmp_path: Path) -> None:
    import sqlite3

    SqliteFactStore(tmp_path / "f.db")
    conn = sqlite3.connect(tmp_path / "f.db")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO fact_metric (metric_code, entity, geography, channel, period_type, period, value, "
                     "unit, source_doc_id, source_locator) VALUES ('R','E','G','T','FY','2024',1,'U','doc',' ')")


def test_dynamo_refuses_a_key_part_containing_the_separator(aws) -> None:
    from ragspine.errors import InvalidInputError

    store = DynamoFactStore(FACTS_TABLE, client=aws)
    with pytest.raises(InvalidInputError, match="'#'"):
        store.put_many([Fact("REV#X", "ACME_CN", "CN", "TOTAL", "FY", "2024", 1, "USD_M", "d", "l")])
    assert store.count() == 0


class TestConflicts:
    KEY = FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2024")

    def _fact(self, value: int, doc: str, locator: str = "table=1,row=2,col=2") -> Fact:
        return Fact("REVENUE", "ACME_JP", "JP", "TOTAL", "FY", "2024", value, "USD_M", doc, locator,
                    "sha256:ab", "table-1", "glossary-1")

    def test_a_differing_figure_is_kept_beside_the_fact_and_never_found_as_one(self, store: FactStore) -> None:
        store.put_many([self._fact(655, "a.md")])
        assert store.put_conflicts([self._fact(700, "b.md"), self._fact(701, "b.md", "table=2,row=2,col=2")]) == 2
        assert store.get(self.KEY) == self._fact(655, "a.md")
        assert store.find(metric_code="REVENUE", entity="ACME_JP") == [self._fact(655, "a.md")]
        assert store.count() == 1
        assert store.conflicts(self.KEY) == [self._fact(700, "b.md"), self._fact(701, "b.md", "table=2,row=2,col=2")]
        assert store.conflicts(FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2025")) == []

    def test_the_fact_and_its_differing_figures_are_read_together(self, store: FactStore) -> None:
        other_channel = Fact("REVENUE", "ACME_JP", "JP", "TOTAL_ONLINE", "FY", "2024", 90, "USD_M", "d.md",
                             "table=1,row=3,col=2")  # its sort key starts like the asked key's on DynamoDB
        store.put_many([self._fact(655, "a.md"), other_channel])
        store.put_conflicts([self._fact(650, "c.md"), self._fact(700, "b.md", "table=2,row=2,col=2"),
                             self._fact(701, "b.md"), dataclasses.replace(other_channel, value=91, source_doc_id="e.md")])
        fact, differing = store.get_with_conflicts(self.KEY)
        assert fact == store.get(self.KEY) == self._fact(655, "a.md")
        assert differing == store.conflicts(self.KEY) == [
            self._fact(701, "b.md"), self._fact(700, "b.md", "table=2,row=2,col=2"), self._fact(650, "c.md")]
        assert store.get_with_conflicts(FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2025")) == (None, [])

    def test_differing_figures_outlive_the_fact_they_differed_from(self, store: FactStore) -> None:
        store.put_many([self._fact(655, "a.md")])
        store.put_conflicts([self._fact(700, "b.md")])
        store.delete_by_source("a.md")
        assert store.get_with_conflicts(self.KEY) == (None, [self._fact(700, "b.md")])

    def test_deleting_a_document_removes_its_differing_figures_whatever_is_kept(self, store: FactStore) -> None:
        store.put_many([self._fact(655, "a.md")])
        store.put_conflicts([self._fact(700, "b.md"), self._fact(650, "c.md")])
        assert store.delete_by_source("b.md", keep={self.KEY}) == 0  # no fact of b.md; its figure goes all the same
        assert store.conflicts(self.KEY) == [self._fact(650, "c.md")]
        assert store.get(self.KEY) == self._fact(655, "a.md")

    def test_a_differing_figure_without_lineage_is_refused(self, store: FactStore) -> None:
        with pytest.raises(MissingLineageError):
            store.put_conflicts([self._fact(700, " ")])
        assert store.conflicts(self.KEY) == []

    def test_the_answer_shows_both_on_either_store(self, store: FactStore) -> None:
        store.put_many([self._fact(655, "a.md")])
        store.put_conflicts([self._fact(700, "b.md")])
        result = ask("What was Japan's revenue in FY2024?", store)
        assert "655 USD_M（来源：a.md · table=1,row=2,col=2）" in result.answer
        assert "700 USD_M（来源：b.md · table=1,row=2,col=2）" in result.answer
        assert "The sources differ" in result.answer
        assert result.results[0].to_dict()["conflicts"] == [
            {"value": 700, "unit": "USD_M", "source": {"doc": "b.md", "locator": "table=1,row=2,col=2"}}]


class TestOpenCodes:
    """The metric and entity pairs coded from documents' words, which a starting service adds to its glossary."""

    def _fact(self, metric: str, entity: str, doc: str, period: str = "2024") -> Fact:
        return Fact(metric, entity, "GLOBAL", "TOTAL", "FY", period, 1, "USD_M", doc, f"table=1,row={metric},col=2")

    def test_open_pairs_are_listed_once_and_glossary_pairs_never(self, store: FactStore) -> None:
        store.put_many([self._fact("label:capex", "ACME_JP", "a.md"), self._fact("label:capex", "ACME_JP", "a.md", "2023"),
                        self._fact("REVENUE", "company:boeing", "b.md"), self._fact("REVENUE", "ACME_JP", "a.md")])
        assert store.open_codes() == [("REVENUE", "company:boeing"), ("label:capex", "ACME_JP")]
        assert store.count() == 4  # the pairs' index (DynamoDB) is no fact

    def test_a_pair_goes_with_the_last_fact_that_names_it(self, store: FactStore) -> None:
        store.put_many([self._fact("label:capex", "ACME_JP", "a.md"), self._fact("label:capex", "ACME_JP", "b.md", "2023"),
                        self._fact("label:rent", "ACME_JP", "a.md")])
        store.put_conflicts([self._fact("label:rent", "ACME_JP", "c.md")])  # a differing figure keeps no pair
        store.delete_by_source("a.md")
        assert store.open_codes() == [("label:capex", "ACME_JP")]
        store.delete_by_source("b.md")
        assert store.open_codes() == []
        store.put_many([self._fact("label:rent", "ACME_JP", "d.md")])
        assert store.open_codes() == [("label:rent", "ACME_JP")]


class TestOpenCodesOnDynamo:
    def _requests(self, client: Any) -> list[str]:
        seen: list[str] = []
        client.meta.events.register("before-call.dynamodb.*", lambda model, **_: seen.append(model.name))
        return seen

    def test_a_starting_service_reads_the_index_with_one_query_not_a_scan(self, aws: Any) -> None:
        DynamoFactStore(FACTS_TABLE, client=aws).put_many(
            [Fact("label:capex", "ACME_JP", "JP", "TOTAL", "FY", "2024", 1, "USD_M", "a.md", "row=capex")])
        seen = self._requests(aws)
        assert DynamoFactStore(FACTS_TABLE, client=aws).open_codes() == [("label:capex", "ACME_JP")]
        assert seen == ["Query"]

    def test_a_table_written_before_the_index_is_scanned_by_readers_and_indexed_by_the_next_writer(
            self, aws: Any) -> None:
        fact = Fact("REVENUE", "company:boeing", "US", "TOTAL", "FY", "2018", 101127, "USD_M", "b.md", "row=Revenue")
        item = {name: {"S": getattr(fact, name)} for name in ("metric_code", "entity", "geography", "channel",
                                                               "period_type", "period", "unit", "source_doc_id",
                                                               "source_locator")}
        aws.put_item(TableName=FACTS_TABLE, Item={**item, "pk": {"S": "company:boeing#REVENUE"},
                                                  "sk": {"S": "FY#2018#TOTAL"}, "value": {"N": "101127"}})
        seen = self._requests(aws)
        reader = DynamoFactStore(FACTS_TABLE, client=aws)
        assert reader.open_codes() == [("REVENUE", "company:boeing")]
        assert seen == ["Query", "Scan"]  # read only: the answering functions may not write the table
        DynamoFactStore(FACTS_TABLE, client=aws).put_many(
            [Fact("label:capex", "ACME_JP", "JP", "TOTAL", "FY", "2024", 1, "USD_M", "a.md", "row=capex")])
        seen.clear()
        assert reader.open_codes() == [("REVENUE", "company:boeing"), ("label:capex", "ACME_JP")]
        assert seen == ["Query"]
        assert reader.count() == 2

    def test_the_index_is_kept_with_the_calls_the_writers_roles_grant(self, aws: Any) -> None:
        # The worker and Knowledge roles grant BatchWriteItem and Query on the fact table, not DeleteItem.
        store = DynamoFactStore(FACTS_TABLE, client=aws)
        store.put_many([Fact("label:capex", "ACME_JP", "JP", "TOTAL", "FY", "2024", 1, "USD_M", "a.md", "row=capex")])
        seen = self._requests(aws)
        store.put_many([Fact("label:rent", "ACME_JP", "JP", "TOTAL", "FY", "2024", 2, "USD_M", "a.md", "row=rent")])
        store.delete_by_source("a.md")
        assert set(seen) <= {"Query", "BatchWriteItem"}
        assert store.open_codes() == []
