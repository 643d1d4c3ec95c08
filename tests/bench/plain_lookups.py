"""Ask every plain lookup a grid of templates makes of the glossary's names, with the plain path and without it.

The evaluation sets hold few plain lookups (most of their figure questions compute, compare or
name a document's row), so ``same_answers.py`` meets the plain path on few questions. This asks
each metric name of the glossary with each entity name (and none), a channel name (or none) and a
period wording, in question templates of the three languages, over the bench's fact file, once
through ``answer_question`` and once with the plain path switched off, and lists every question
whose results differ (everything but the trace's timings). It prints how many questions took the
plain path.

    .venv/bin/python tests/bench/plain_lookups.py
"""

from __future__ import annotations

import sys
from itertools import cycle
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
sys.path[:0] = [str(BENCH_DIR), str(REPO)]

from factbase import ensure_fact_base  # noqa: E402
from structured import _qa  # noqa: E402
from tests.support.plain_path import full_path_answer, seen  # noqa: E402

from ragspine.facts.glossary import SlotKind  # noqa: E402
from ragspine.facts.sqlite_store import SqliteFactStore  # noqa: E402
from ragspine.qa.answer import answer_question  # noqa: E402
from ragspine.qa.intent import RuleIntentParser  # noqa: E402
from ragspine.qa.plain_lookup import plain_intent  # noqa: E402

FACT_FILE = BENCH_DIR / "results" / "facts-100k.db"
TEMPLATES = (
    "What was {e} {c} {m} in {p}?", "What was the {m} of {e} in {p}?", "{m} of the {e} {c} in {p}",
    "How much {m} did {e} have in {p}?", "What is the {c} {m} for {p}?",
    "{p}{e}{c}的{m}是多少", "{e}{p}{m}是多少",
    "{e}の{p}の{c}{m}はいくらですか", "{p}の{m}を教えてください",
)
PERIODS = ("2024", "FY2023", "Q3 2024", "2024年", "2025年第二季度", "2024年度", "2024年第4四半期", "fiscal year 2023",
           "2025", "FY2030")


def main() -> int:
    store = SqliteFactStore(ensure_fact_base(FACT_FILE, 100_000, rebuild=False, log=print).path)
    qa = _qa(store, parse_cache_size=0)
    glossary = qa.glossary
    parser = qa.intent
    assert isinstance(parser, RuleIntentParser)
    names = {kind: sorted(a for a, (k, _) in glossary.aliases.items() if k is kind) for kind in SlotKind}
    channels = cycle(["", *names[SlotKind.CHANNEL]])
    periods = cycle(PERIODS)
    asked = plain = 0
    differ: list[str] = []
    for template in TEMPLATES:
        for metric in names[SlotKind.METRIC]:
            for entity in ["", *names[SlotKind.ENTITY]]:
                question = " ".join(template.format(m=metric, e=entity, c=next(channels), p=next(periods)).split())
                if "{e}" not in template and entity:
                    continue
                asked += 1
                if plain_intent(question, parser) is None:
                    continue
                plain += 1
                if seen(answer_question(question, qa=qa)) != seen(full_path_answer(question, qa)):
                    differ.append(question)
    print(f"{asked:,} questions, {plain:,} plain lookups compared, {len(differ)} differences")
    for question in differ[:50]:
        print("  differs:", question)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
