"""Warm, in-process latency of the structured ask against a bare SQLite primary-key lookup."""

from __future__ import annotations

import cProfile
import pstats
import sqlite3
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.support.glossary import default_glossary
from timing import sample_after_each, sample_interleaved, summarize_ns

from ragspine.bootstrap import domain_dir
from ragspine.facts.query_metric import QueryStatus, execute_query_metric
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.llm.extractive import ExtractiveProvider
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.faq import FaqIndex
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.parse_cache import DEFAULT_PARSE_CACHE_SIZE, ParseCache
from ragspine.qa.result import AnswerStatus
from ragspine.qa.screening import ScreeningPolicy

if TYPE_CHECKING:
    from collections.abc import Callable

    from ragspine.facts.model import FactKey

TODAY = date(2026, 11, 30)
# The published targets: the unseen ask in docs/performance.md ("Targets and commands"), the
# repeated one in docs/benchmarks.md ("Structured ask").
TARGET_UNSEEN_P50_RATIO = 10.0
TARGET_REPEATED_P50_RATIO = 3.0
FLOOR_SQL = ("SELECT * FROM fact_metric "
             "WHERE metric_code=? AND entity=? AND channel=? AND period_type=? AND period=?")
BENCH_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Case:
    """A question and the ``query_metric`` arguments a tool caller would send for it."""

    question: str
    arguments: dict[str, str]


# Each names exactly one sample fact, so every path does one lookup per call.
CASES: tuple[Case, ...] = (
    Case("2024年日本的毛利率是多少",
         {"metric": "毛利率", "entity": "日本", "period": "2024年"}),
    Case("中国内地FY2024的REVENUE是多少",
         {"metric": "REVENUE", "entity": "中国内地", "period": "FY2024"}),
    Case("What was Hong Kong revenue in Q3 2024?",
         {"metric": "revenue", "entity": "Hong Kong", "period": "Q3 2024"}),
    Case("日本の2025年度の売上高はいくらですか",
         {"metric": "売上高", "entity": "日本", "period": "2025年度"}),
    Case("香港2023年线上营业收入是多少",
         {"metric": "营业收入", "entity": "香港", "period": "2023年", "channel": "线上"}),
    Case("What was the gross margin of Mainland China in FY2023?",
         {"metric": "gross margin", "entity": "Mainland China", "period": "FY2023"}),
    Case("How many stores did Japan have in 2024?",
         {"metric": "stores", "entity": "Japan", "period": "2024"}),
    Case("中国内地2025年第二季度营收是多少",
         {"metric": "营收", "entity": "中国内地", "period": "2025年第二季度"}),
    Case("日本の2024年第4四半期の売上高を教えてください",
         {"metric": "売上高", "entity": "日本", "period": "2024年第4四半期"}),
    # The tool takes aliases, not display names: "ACME Group" is not an alias, "group" is.
    Case("Operating profit of the ACME Group in fiscal year 2024",
         {"metric": "operating profit", "entity": "group", "period": "fiscal year 2024"}),
    Case("2025年香港线下销售额",
         {"metric": "销售额", "entity": "香港", "period": "2025年", "channel": "线下"}),
    Case("グループの2023年度の営業利益はいくらでしたか",
         {"metric": "営業利益", "entity": "グループ", "period": "2023年度"}),
)


def _qa(store: SqliteFactStore, *, parse_cache_size: int = DEFAULT_PARSE_CACHE_SIZE) -> QAComponents:
    """The engine as the local service wires it (screening, intent, clarify, FAQ), offline model."""
    glossary = default_glossary()
    return QAComponents(facts=store, glossary=glossary, screening=ScreeningPolicy.default(glossary=glossary),
                        intent=RuleIntentParser.from_file(glossary), llm=ExtractiveProvider(), clock=lambda: TODAY,
                        faq=FaqIndex.from_file(domain_dir() / "faq.yaml"), parse_cache_size=parse_cache_size)


def _checked_keys(store: SqliteFactStore, conn: sqlite3.Connection) -> list[FactKey]:
    """The key each case looks up; refuse to time paths that would not find their fact."""
    glossary = default_glossary()
    qa = _qa(store)
    keys = []
    for case in CASES:
        answer = answer_question(case.question, qa=qa)
        tool = execute_query_metric(case.arguments, facts=store, glossary=glossary)
        found_one = answer.status is AnswerStatus.FOUND and len(answer.results) == 1
        if not found_one or answer.results[0].query is None:
            raise SystemExit(f"bench question no longer finds one fact: {case.question!r} -> {answer.answer}")
        key = answer.results[0].query.key
        if tool.status is not QueryStatus.FOUND or tool.query is None or tool.query.key != key:
            raise SystemExit(f"tool arguments disagree with the question {case.question!r}: {tool.to_dict()}")
        if conn.execute(FLOOR_SQL, _params(key)).fetchone() is None:
            raise SystemExit(f"floor lookup misses {key}")
        keys.append(key)
    return keys


def _params(key: FactKey) -> tuple[str, str, str, str, str]:
    return (key.metric_code, key.entity, key.channel, key.period_type, key.period)


def _paths(store: SqliteFactStore, conn: sqlite3.Connection,
           caches: dict[str, ParseCache]) -> dict[str, Callable[[int], object]]:
    """The timed calls; ``caches`` receives the parse cache of each ask path, to check hits and misses after."""
    glossary = default_glossary()
    questions = [case.question for case in CASES]
    arguments = [case.arguments for case in CASES]
    params = [_params(key) for key in _checked_keys(store, conn)]
    k = len(CASES)
    execute = conn.execute

    # A one-entry cache cycled through 12 questions never hits: every ask pays the full parse plus
    # the miss and the eviction, as a question the service has not seen (recently) does.
    distinct = _qa(store, parse_cache_size=1)
    repeated = _qa(store)
    caches.update(ask=distinct.parse_cache, ask_repeated=repeated.parse_cache)

    def ask(i: int) -> object:
        return answer_question(questions[i % k], qa=distinct)

    def ask_repeated(i: int) -> object:
        return answer_question(questions[i % k], qa=repeated)

    def tool(i: int) -> object:
        return execute_query_metric(arguments[i % k], facts=store, glossary=glossary)

    def floor(i: int) -> object:
        return execute(FLOOR_SQL, params[i % k]).fetchone()

    def harness(i: int) -> object:  # the cost of the call and the timer alone
        return params[i % k]

    return {"ask": ask, "ask_repeated": ask_repeated, "tool": tool, "floor": floor, "harness": harness}


def run_structured(db_path: Path, *, n: int, warmup: int, profile_calls: int) -> dict[str, Any]:
    """Time ask (distinct and repeated questions) / tool / floor over the fact file and profile both asks.

    ``ask`` never hits the parse cache, ``ask_repeated`` always does after warm-up; the
    headline target is judged on ``ask``, the number a first-seen question gets.
    """
    store = SqliteFactStore(db_path)
    conn = sqlite3.connect(db_path)
    try:
        caches: dict[str, ParseCache] = {}
        paths = _paths(store, conn, caches)
        samples = sample_interleaved(paths, n=n, warmup=warmup)
        summary = {name: summarize_ns(values) for name, values in samples.items()}
        floor = summary["floor"]
        ratios = {
            f"{name}/floor": {"p50": round(summary[name]["p50_us"] / floor["p50_us"], 2),
                              "p99": round(summary[name]["p99_us"] / floor["p99_us"], 2)}
            for name in ("ask", "ask_repeated", "tool")
        }
        cache_stats = {name: {"hits": c.hits, "misses": c.misses, "size": c.maxsize} for name, c in caches.items()}
        if caches["ask"].hits or caches["ask_repeated"].misses > len(CASES):
            raise SystemExit(f"parse cache did not behave as the paths claim: {cache_stats}")
        # the floor's statement in the cache state an ask leaves, where the ask's own store read runs: stated beside
        # the target, which stays judged on the floor's own loop
        after = summarize_ns(sample_after_each(paths["ask"], paths["floor"], n=n, warmup=warmup))
        return {
            "n": n, "warmup": warmup, "questions": [case.question for case in CASES],
            "paths": summary, "ratios": ratios, "parse_cache": cache_stats,
            "floor_after_ask": {"paths": after, "ask_over_it_p50": round(summary["ask"]["p50_us"] / after["p50_us"], 2)},
            "target": _target("p50(ask) / p50(floor), questions not seen before (full parse)", ratios["ask/floor"],
                              limit=TARGET_UNSEEN_P50_RATIO, at_most=True),
            "target_repeated": _target("p50(ask_repeated) / p50(floor), warm: repeated questions (parse and rendering reused, facts read)",
                                       ratios["ask_repeated/floor"], limit=TARGET_REPEATED_P50_RATIO, at_most=False),
            "profile": profile(paths["ask"], calls=profile_calls),
            "profile_repeated": profile(paths["ask_repeated"], calls=profile_calls),
        }
    finally:
        conn.close()
        store.close()


def _target(what: str, ratio: dict[str, float], *, limit: float, at_most: bool) -> dict[str, Any]:
    """A verdict on ``ratio``'s p50; ``comparison`` is the target's own sign (≤ or <), as its page states it."""
    met = ratio["p50"] <= limit if at_most else ratio["p50"] < limit
    return {"what": what, "comparison": "≤" if at_most else "<", "limit": limit, "value": ratio["p50"], "met": met}


def profile(call: Callable[[int], object], *, calls: int, top: int = 10) -> dict[str, Any]:
    """cProfile ``calls`` calls; the top functions by cumulative and by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(calls):
        call(i)
    profiler.disable()
    raw: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    rows = [
        {"function": _label(file, line, name), "ncalls": nc,
         "tottime_s": round(tt, 4), "cumtime_s": round(ct, 4),
         "cum_per_ask_us": round(ct / calls * 1e6, 2), "self_per_ask_us": round(tt / calls * 1e6, 2)}
        for (file, line, name), (_cc, nc, tt, ct, _callers) in raw.items()
        if not file.startswith(str(BENCH_DIR)) and "disable" not in name
    ]
    by_cum = sorted(rows, key=lambda r: r["cumtime_s"], reverse=True)[:top]
    by_self = sorted(rows, key=lambda r: r["tottime_s"], reverse=True)[:top]
    return {"calls": calls, "top_cumulative": by_cum, "top_self": by_self}


def _label(file: str, line: int, name: str) -> str:
    if file == "~":
        return name
    for marker in ("/shared/", "/site-packages/", "/lib/python3.11/"):
        if marker in file:
            file = file.split(marker, 1)[1]
            break
    return f"{file}:{line}({name})"
