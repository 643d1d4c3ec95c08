"""Answer every question of the evaluation sets and write what the service decided, to diff two versions.

A speed change to the question path must not change a single answer. Run this before the
change (``--out before.jsonl``), again after it (``--out after.jsonl``), then
``--compare before.jsonl after.jsonl``: it reports how many questions were compared and
every one whose answer differs.

Each line holds the question's set, its text and everything ``answer_question`` returned
except the trace's timings: the answer text, status, route, sources, slots, looked-up facts,
refinements, clarification, refusal reason, and the trace's stages and decisions; and the
intent and clarify decision of the question even when screening refused it, so the slot,
near-miss and cue readers are compared on every question. The engine
is wired as ``structured.py`` wires it (screening, intent, clarify, FAQ, no retriever) over the
bench's fact file (the ACME sample plus synthetic facts).

The questions: the ACME evaluation questions, the FAQ paraphrases and near misses, FinanceBench
dev, TAT-QA dev (every question), CMRC2018 dev, JSQuAD, jfinqa lite, the bench's own questions,
and a misspelt copy of each English ACME, FAQ and bench question (two letters of its longest
word swapped), so the near-miss reading of names is exercised too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
sys.path[:0] = [str(BENCH_DIR), str(REPO)]

from factbase import ensure_fact_base  # noqa: E402
from structured import CASES, _qa  # noqa: E402
from tests.eval.faq_eval import labelled  # noqa: E402
from tests.eval.screening_eval import LEGIT_SETS  # noqa: E402

from ragspine.errors import InvalidInputError  # noqa: E402
from ragspine.facts.sqlite_store import SqliteFactStore  # noqa: E402
from ragspine.qa.answer import answer_question  # noqa: E402
from ragspine.qa.clarify import clarify_scope  # noqa: E402
from ragspine.qa.language import detect_language  # noqa: E402

FACT_FILE = BENCH_DIR / "results" / "facts-100k.db"
SYNTHETIC = 100_000


def question_sets() -> Iterator[tuple[str, str]]:
    """``(set name, question)`` in a fixed order; a set whose corpus file is absent is skipped (said on stderr)."""
    english: list[str] = []
    for name, (path, load) in LEGIT_SETS.items():
        if not path.is_file():
            print(f"skipped {name}: {path} is absent", file=sys.stderr)
            continue
        questions = load(path)
        if name == "acme":
            english += [q for q in questions if q.isascii()]
        yield from ((name, q) for q in questions)
    faq = [q for part in ("tuning", "held_out") for q, _entry in labelled(part)]
    english += [q for q in faq if q.isascii()]
    yield from (("faq", q) for q in faq)
    bench = [case.question for case in CASES]
    english += [q for q in bench if q.isascii()]
    yield from (("bench", q) for q in bench)
    yield from (("misspelt", typo) for q in english if (typo := misspelt(q)) != q)


def misspelt(question: str) -> str:
    """The question with two inner letters of its longest word swapped ("revenue" -> "revneue")."""
    words = [w for w in question.split() if w.isalpha() and len(w) >= 5]
    if not words:
        return question
    word = max(words, key=len)
    i = len(word) // 2
    typo = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return question.replace(word, typo, 1)


def outcome(question: str, qa: Any) -> dict[str, Any]:
    """What the service decided for one question, without timings."""
    try:
        result = answer_question(question, qa=qa)
    except InvalidInputError as exc:
        return {"error": str(exc)}
    timings = result.trace.get("timings_ms")
    # The parse of every question, screened out or not: the slot, near-miss and cue readers see them all.
    intent = qa.intent.parse(question.strip())
    decision = clarify_scope(intent, glossary=qa.glossary, today=qa.clock(), lang=detect_language(question))
    return {"result": repr(dataclasses.replace(result, trace={})),
            "stages": sorted(timings) if isinstance(timings, dict) else None, "decisions": result.trace.get("decisions"),
            "parse": repr(intent), "clarify": repr(decision)}


def write(out: Path) -> int:
    """Answer every question into ``out`` (JSON lines); the number of questions."""
    base = ensure_fact_base(FACT_FILE, SYNTHETIC, rebuild=False, log=lambda m: print(m, file=sys.stderr))
    store = SqliteFactStore(base.path)
    count = 0
    try:
        qa = _qa(store)
        with out.open("w", encoding="utf-8") as sink:
            for name, question in question_sets():
                line = {"set": name, "question": question, **outcome(question, qa)}
                sink.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                count += 1
    finally:
        store.close()
    return count


def compare(before: Path, after: Path) -> tuple[int, list[tuple[str, str]]]:
    """How many questions both files answer, and ``(set, question)`` of each that differs or is missing."""
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    differ = [(json.loads(a)["set"], json.loads(a)["question"]) for a, b in zip(old, new, strict=False) if a != b]
    if len(old) != len(new):
        differ.append(("count", f"{len(old)} questions before, {len(new)} after"))
    return min(len(old), len(new)), differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", type=Path, help="answer every question into this JSON-lines file")
    group.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="diff two such files")
    args = parser.parse_args(argv)
    if args.out is not None:
        print(f"{write(args.out):,} questions answered into {args.out}")
        return 0
    compared, differ = compare(*args.compare)
    for name, question in differ[:50]:
        print(f"differs [{name}]: {question[:120]!r}")
    print(f"{compared:,} questions compared, {len(differ)} differences")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
