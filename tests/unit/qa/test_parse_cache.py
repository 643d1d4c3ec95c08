"""The parse cache: a repeated question skips parsing, never the facts."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest

from ragspine.bootstrap import domain_dir
from ragspine.domain.glossary_file import read_glossary
from ragspine.qa import answer as answer_module
from ragspine.qa import language, year_end_dates
from ragspine.qa.answer import REJECTED, QAComponents, answer_question
from ragspine.qa.clarification import Clarification, Option
from ragspine.qa.language import Lang
from ragspine.qa.parse_cache import ParseCache, ParsedQuestion
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import Slots
from ragspine.qa.structured import Lookup, plan_lookups
from ragspine.qa.table_dates import with_table_dates_read
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.unit.facts.test_fact_model import make_fact

QUESTION = "中国内地FY2024的REVENUE是多少"
STABLE_TRACE = ("route", "status", "slots", "fact_ids", "chunk_ids", "question_chars", "question_sha256")


def _store() -> InMemoryFactStore:
    return InMemoryFactStore([make_fact()])


class TestRepeatedQuestions:
    @pytest.mark.parametrize("question", [
        QUESTION,
        "What was Hong Kong revenue in Q3 2024?",
        "日本の2025年度の売上高はいくらですか",
        "中国内地的营业收入是多少",  # no period: an assumption and refinements
        "ACME的股价明天会涨吗",  # refused
        "中国内地2024年是多少",  # asked back for the metric
        "Wayne Enterprises revenue FY2024",  # unrecognized entity
    ])
    def test_a_cache_hit_answers_exactly_as_a_fresh_parse(self, question: str) -> None:
        # GIVEN one engine that caches and one that never does
        cached, uncached = make_qa(_store()), dataclasses.replace(make_qa(_store()), parse_cache_size=0)
        # WHEN the question is asked twice of each
        answer_question(question, qa=cached)
        hit = answer_question(question, qa=cached)
        fresh = answer_question(question, qa=uncached)
        answer_question(question, qa=uncached)
        # THEN the second ask hit the cache and says exactly what a fresh parse says
        assert (cached.parse_cache.hits, uncached.parse_cache.hits) == (1, 0)
        assert dataclasses.replace(hit, trace={}) == dataclasses.replace(fresh, trace={})
        assert {k: hit.trace[k] for k in STABLE_TRACE} == {k: fresh.trace[k] for k in STABLE_TRACE}
        assert hit.trace["decisions"] == ["parse_cache:hit", *fresh.trace["decisions"]]  # type: ignore[misc]
        assert set(hit.trace["timings_ms"]) == set(fresh.trace["timings_ms"])  # type: ignore[call-overload]

    def test_a_fact_update_shows_on_the_very_next_ask(self) -> None:
        store = _store()
        qa = make_qa(store)
        assert "1320 USD_M" in answer_question(QUESTION, qa=qa).answer
        store.put_many([make_fact(value=1400, source_locator="slide=9,table=1,row=REVENUE,col=FY2024")])
        result = answer_question(QUESTION, qa=qa)
        assert qa.parse_cache.hits == 1
        assert "1400 USD_M（来源：ACME_FY2024_Review.pptx · slide=9,table=1,row=REVENUE,col=FY2024）" in result.answer
        assert result.results[0].fact is not None and result.results[0].fact.value == 1400

    def test_a_deleted_fact_is_not_found_on_the_next_ask(self) -> None:
        store = _store()
        qa = make_qa(store)
        answer_question(QUESTION, qa=qa)
        store.delete_by_source("ACME_FY2024_Review.pptx")
        result = answer_question(QUESTION, qa=qa)
        assert qa.parse_cache.hits == 1
        assert (result.status, result.sources) == (AnswerStatus.NOT_FOUND, ())

    @pytest.mark.parametrize("change", [
        {"value": 1400},  # a new value
        {"source_locator": "slide=9,table=1,row=REVENUE,col=FY2024"},  # the same value from another cell
        {"source_file_hash": "sha256:" + "e" * 64},  # the same cell of a new file version
    ])
    def test_a_reused_answer_is_rebuilt_when_its_fact_changes_in_any_field(self, change: dict[str, object]) -> None:
        # GIVEN a question asked often enough that its rendered answer is reused
        store = _store()
        qa = make_qa(store)
        answers = [answer_question(QUESTION, qa=qa) for _ in range(4)]
        assert answers[3] == dataclasses.replace(answers[2], trace=answers[3].trace)
        assert answers[3].trace["decisions"][-1] == "provenance:pass"  # type: ignore[index]
        # WHEN the fact changes in the store
        store.put_many([make_fact(**change)])
        result = answer_question(QUESTION, qa=qa)
        # THEN the next ask renders from the new fact
        fact = result.results[0].fact
        assert fact is not None and all(getattr(fact, name) == value for name, value in change.items())
        assert f"{fact.value} USD_M（来源：ACME_FY2024_Review.pptx · {fact.source_locator}）" in result.answer

    def test_every_ask_reads_the_store(self) -> None:
        store = _store()
        qa = make_qa(store)
        for _ in range(5):  # parse, plan, render, then reuse the rendering twice
            answer_question(QUESTION, qa=qa)
        assert len(store.lookups) == 5 and qa.parse_cache.hits == 4


def _planned_with_a_number_no_source_holds(question: str) -> QAComponents:
    """An engine that has planned ``question`` (asked twice), its cached plan changed to add 999 to a lookup."""
    qa = make_qa(_store())
    key = (question, qa.clock())
    for _ in range(2):
        answer_question(question, qa=qa)
    planned = qa.parse_cache.get(key)
    assert planned is not None and planned.plan is not None
    lookup = planned.plan[0]
    qa.parse_cache.put(key, dataclasses.replace(planned, plan=(Lookup(lookup.query, f"{lookup.what} 999"),),
                                           rendered=None))
    return qa


class TestWarmAsk:
    """What a repeated question must not redo: read its own words again (counted on the glossary that reads them)."""

    @pytest.mark.parametrize(("question", "reads_facts", "reads_words"), [
        # one named year: is a change or "the 2024 average" asked? No change word: no names blanked to look
        ("2024年中国内地的营业收入是多少", True, False),
        ("2024年中国内地的营业收入变化是多少", True, True),  # a change word left once the names are blanked?
        ("What was the change in revenue of Mainland China?", True, True),  # no year named: every stated year?
        ("中国内地FY2024的营业收入增长率是多少", False, True),  # a growth over one year: cannot be computed
        ("How many years did Mainland China revenue exceed 1000 million?", True, False),  # a count over a threshold
    ])
    def test_a_repeated_question_reads_its_facts_but_not_its_words_again(self, question: str, reads_facts: bool,
                                                                          reads_words: bool) -> None:
        # GIVEN an engine whose glossary counts every reading of a question's words
        store = _store()
        glossary = read_glossary(domain_dir() / "glossary.yaml")  # its own object: the counters stay in this test
        qa = dataclasses.replace(make_qa(store), glossary=glossary)
        read: list[str] = []

        def counted(name: str) -> Callable[..., object]:
            real = getattr(glossary, name)

            def reading(*args: object) -> object:
                read.append(name)
                return real(*args)
            return reading

        for name in ("scan", "leftover"):
            object.__setattr__(glossary, name, counted(name))  # the real method, counted (frozen: set once, here)
        other = "What was Hong Kong revenue in Q3 2024?"  # asked in between, so no last-question memo answers
        asked = [answer_question(q, qa=qa) for q in (question, other, question, other)]
        assert bool(read) is reads_words  # the first two asks read its words where a reader needs them
        # WHEN it is asked again, the other question in between
        read.clear()
        lookups = len(store.lookups)
        again = answer_question(question, qa=qa)
        looked_up = len(store.lookups) > lookups
        answer_question(other, qa=qa)
        # THEN neither reads its words, the question reads its facts as before, and its answer is the same
        assert read == []
        assert looked_up is reads_facts
        assert again.answer == asked[2].answer == asked[0].answer

    @pytest.mark.parametrize("question", [QUESTION, "What was the gross margin of Mainland China in FY2024?",
                                          "日本の2025年度の売上高はいくらですか"])
    def test_a_repeated_question_writing_no_date_is_not_searched_for_one_nor_its_language_read(
            self, question: str, monkeypatch: pytest.MonkeyPatch) -> None:
        # GIVEN an engine that has answered a question writing no date ("margin" holds a month's letters) twice
        qa = make_qa(_store())
        before = [answer_question(question, qa=qa) for _ in range(2)]
        # WHEN it is asked again, with the date readings and the language reading counted
        read: list[str] = []

        def counted(name: str, real: Callable[..., object]) -> Callable[..., object]:
            def reading(*args: object, **kwargs: object) -> object:
                read.append(name)
                return real(*args, **kwargs)
            return reading

        monkeypatch.setattr(answer_module, "with_table_dates_read", counted("table dates", with_table_dates_read))
        monkeypatch.setattr(answer_module, "_MONTH_WORD", SimpleNamespace(
            search=counted("month word", answer_module._MONTH_WORD.search)))
        for module in (answer_module, year_end_dates):
            monkeypatch.setattr(module, "detect_language", counted("language", language.detect_language),
                                raising=False)
        again = answer_question(question, qa=qa)
        # THEN its words are not searched for a date, nor its language read, and its answer is the same
        assert read == []
        assert dataclasses.replace(again, trace={}) == dataclasses.replace(before[1], trace={})


class TestInvalidation:
    def test_a_new_day_parses_again_because_assumed_periods_move(self) -> None:
        today = [date(2026, 11, 30)]
        # two years stated, so the year assumed is the last completed one, never the one year stated
        store = InMemoryFactStore([make_fact(), make_fact(period="2023", value=1210,
                                                          source_locator="slide=2,table=1,row=REVENUE,col=FY2023")])
        qa = dataclasses.replace(make_qa(store), clock=lambda: today[0])
        first = answer_question("中国内地的营业收入是多少", qa=qa)
        today[0] = date(2025, 3, 1)
        second = answer_question("中国内地的营业收入是多少", qa=qa)
        assert qa.parse_cache.hits == 0
        assert (first.slots.periods[0].label, second.slots.periods[0].label) == ("FY2025", "FY2024")
        assert second.status is AnswerStatus.FOUND

    def test_a_new_configuration_starts_with_an_empty_cache(self) -> None:
        qa = make_qa(_store())
        answer_question(QUESTION, qa=qa)
        reloaded = read_glossary(domain_dir() / "glossary.yaml")  # e.g. after an edit: a new object
        changed = dataclasses.replace(qa, glossary=reloaded)
        assert len(qa.parse_cache) == 1 and len(changed.parse_cache) == 0 and changed.parse_cache is not qa.parse_cache
        answer_question(QUESTION, qa=changed)
        assert (changed.parse_cache.hits, changed.parse_cache.misses) == (0, 1)

    def test_the_setting_sizes_the_cache_of_the_wired_services(self, monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
        from ragspine.bootstrap import build_services
        from ragspine.settings import load_settings

        monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("RAGSPINE_EMBEDDER", "none")
        monkeypatch.setenv("RAGSPINE_PARSE_CACHE_SIZE", "0")
        qa = build_services(load_settings()).qa
        answer_question(QUESTION, qa=qa)
        answer_question(QUESTION, qa=qa)
        assert qa.parse_cache.maxsize == 0 and qa.parse_cache.hits == 0 and len(qa.parse_cache) == 0

    def test_size_zero_never_caches(self) -> None:
        qa = dataclasses.replace(make_qa(_store()), parse_cache_size=0)
        for _ in range(2):
            answer_question(QUESTION, qa=qa)
        assert (len(qa.parse_cache), qa.parse_cache.hits, qa.parse_cache.misses) == (0, 0, 2)


class TestParseCache:
    def test_it_is_bounded_and_evicts_the_least_recently_used(self) -> None:
        cache = ParseCache(2)
        shapes = {name: _shape(name) for name in "abc"}
        day = date(2026, 1, 1)
        cache.put(("a", day), shapes["a"])
        cache.put(("b", day), shapes["b"])
        assert cache.get(("a", day)) is shapes["a"]  # a is now the most recent
        cache.put(("c", day), shapes["c"])
        assert len(cache) == 2
        assert cache.get(("b", day)) is None
        assert cache.get(("a", day)) is shapes["a"] and cache.get(("c", day)) is shapes["c"]

    def test_a_negative_size_is_refused(self) -> None:
        with pytest.raises(ValueError, match=">= 0"):
            ParseCache(-1)

    def test_a_refused_shape_has_no_intent(self) -> None:
        with pytest.raises(ValueError, match="refused"):
            _shape("x").parsed()


class TestPlan:
    def test_a_question_asked_once_is_not_planned_and_the_first_reuse_plans_it(self) -> None:
        # GIVEN a question answered once: its shape is cached without a plan (nothing reused it yet)
        qa = make_qa(_store())
        question = "2024年中国内地的营业收入是多少"
        key = (question, qa.clock())
        first = answer_question(question, qa=qa)
        unplanned = qa.parse_cache.get(key)
        assert unplanned is not None and unplanned.plan is None
        # WHEN it is asked again
        second = answer_question(question, qa=qa)
        # THEN that ask planned the lookups and kept them with the question's own numbers
        planned = qa.parse_cache.get(key)
        assert planned is not None and planned.plan is not None and planned is not unplanned
        assert [lookup.query for lookup in planned.plan] == [r.query for r in second.results]
        assert planned.question_numbers == {"2024"}
        # AND every answer, planned or not, says the same
        third = answer_question(question, qa=qa)
        assert first.answer == second.answer == third.answer and "1320 USD_M" in first.answer
        assert qa.parse_cache.get(key) is planned  # planned once, reused after

    def test_a_planned_answer_still_checks_every_number(self) -> None:
        # GIVEN a planned question whose cached plan would put a number no source holds in the answer
        qa = _planned_with_a_number_no_source_holds(QUESTION)
        # WHEN it is asked again
        result = answer_question(QUESTION, qa=qa)
        # THEN the provenance check still reads the whole answer and rejects it
        assert result.trace["decisions"][-1] == "provenance:rejected"  # type: ignore[index]
        assert "999" not in result.answer

    @pytest.mark.parametrize(("question", "lang"), [
        (QUESTION, Lang.ZH), ("What was the REVENUE of Mainland China in FY2024?", Lang.EN),
        ("中国内地のFY2024のREVENUEはいくらですか", Lang.JA),
    ])
    def test_an_answer_withheld_says_so_in_the_questions_language(self, question: str, lang: Lang) -> None:
        # GIVEN a planned question whose plan would put a number no source holds in the answer
        qa = _planned_with_a_number_no_source_holds(question)
        # WHEN it is asked again, THEN the refusal is in the question's language
        result = answer_question(question, qa=qa)
        assert result.trace["decisions"][-1] == "provenance:rejected"  # type: ignore[index]
        assert result.answer == REJECTED[lang]

    def test_the_plan_describes_each_lookup_once(self) -> None:
        glossary = default_glossary()
        answer = answer_question(QUESTION, qa=make_qa(_store()))
        plan = plan_lookups(answer.slots, glossary=glossary)
        assert [lookup.query for lookup in plan] == [r.query for r in answer.results]
        assert answer.answer.startswith(plan[0].what)


def test_with_trace_copies_every_field() -> None:
    option = Option("FY2023", "2023年中国内地的营业收入是多少", "period", "FY2023")
    full = AnswerResult("a", ({"doc": "d", "locator": "l"},), Route.COMPOSITE, AnswerStatus.PARTIAL,
                        Slots(("REVENUE",), ("ACME_CN",), (), ("TOTAL",)), (), (option,),
                        Clarification("q", (option,)), "reason", AnswerStatus.ANSWERED, {"old": 1})
    assert full.with_trace({"new": 2}) == dataclasses.replace(full, trace={"new": 2})


def _shape(name: str) -> ParsedQuestion:
    return ParsedQuestion(name, Lang.ZH)
