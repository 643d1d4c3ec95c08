"""TAT-QA dev table-cell questions through the structured channel: exact match and wrong rate.

For each of the 278 contexts: a domain folder fresh from ``ragspine domain init``, used as it is
(``--open``: the table's row labels are metrics of the document's own) or with its glossary
edited the way a user who lists every line item would (each row label of the table a metric
alias, the currency USD); the table and its paragraphs written as
a Markdown file, parsed by the real parser, its facts extracted by the real table reader into a
SQLite fact store, and each question whose answer is one table cell asked through
``answer_question``. A question counts

* exact when the answer is found and its value equals TAT-QA's answer (sign and scale aside:
  TAT-QA writes ``(1,234)`` and ``$1,234`` for the figure the cell holds);
  A question asking for a percentage change whose answer the product computes from the two
  cells (``+3.57%``) counts exact when it rounds to TAT-QA's change cell (``3.6``), and is
  counted apart as ``exact_computed``;
* wrong when a figure is found that is not TAT-QA's answer;
* not found otherwise (the product says it has no such figure).

The report splits the counts by context id (the first and second half of the contexts), to
show nothing is tuned to single files. Every miss is kept in the report with whether the cell's figure was read into a fact at all
(``cell_read``: false is a table-reading miss, true a question that did not reach the fact).

    .venv/bin/python tests/eval/tatqa_tables.py [--open] [--limit N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT))

from ragspine.domain.starter import init_domain  # noqa: E402
from ragspine.facts.glossary import normalize_text  # noqa: E402
from ragspine.numbers.cells import read_cell  # noqa: E402
from ragspine.qa.answer import answer_question  # noqa: E402
from ragspine.qa.result import AnswerStatus  # noqa: E402
from tests.eval import recorded  # noqa: E402

TATQA = ROOT.parent / "shared" / "corpus" / "qa" / "tatqa" / "tatqa_dataset_dev.json"
_CODE = re.compile(r"[^A-Z0-9]+")


def _glossary_mapping(folder: Path, table: list[list[str]]) -> dict[str, Any]:
    """The init glossary with each row label of the table a metric (what a user would list)."""
    raw: dict[str, Any] = yaml.safe_load((folder / "glossary.yaml").read_text(encoding="utf-8"))
    raw["metrics"] = {}
    raw["currency"] = "USD"  # TAT-QA's reports are in US dollars
    raw["units"] = {"USD_M": {"names": {"en": "USD millions"}, "currency": "USD"},
                    "PCT": {"names": {"en": "percent"}}}
    taken = {normalize_text(str(a)).strip() for section in ("entities", "channels")
             for code, spec in raw[section].items() for a in [code, *spec.get("aliases", [])]}
    for row in table:
        label = str(row[0]).strip().rstrip(":")
        key = normalize_text(label).strip()
        if (not label or key in taken or read_cell(label) is not None or re.fullmatch(r"(fy)?\s*\d{4}", key)
                or label.startswith("(")):  # a unit note such as "(in millions)" names no line item
            continue
        taken.add(key)
        code = f"M{len(raw['metrics']) + 1}_{_CODE.sub('_', label.upper()).strip('_')[:30]}".rstrip("_")
        raw["metrics"][code] = {"unit": "USD_M", "names": {"en": label}, "aliases": [label]}
    if not raw["metrics"]:
        raw["metrics"]["M0"] = {"unit": "USD_M", "names": {"en": "nothing"}, "aliases": ["zzz nothing"]}
    return raw


def _markdown(context: dict[str, Any]) -> bytes:
    table = [[str(c).replace("|", "/").replace("\n", " ") for c in row] for row in context["table"]["table"]]
    head, *body = table
    lines = ["# Annual report excerpt", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    lines += ["", *(str(p["text"]) for p in sorted(context["paragraphs"], key=lambda p: p["order"]))]
    return "\n".join(lines).encode()


def _gold(question: dict[str, Any], table: list[list[str]]) -> float | None:
    """TAT-QA's answer when it is one table cell's figure, else None (not a table-cell question)."""
    answer = question["answer"]
    if question["answer_type"] != "span" or question["answer_from"] not in ("table", "table-text"):
        return None
    if not isinstance(answer, list) or len(answer) != 1:
        return None
    number = read_cell(str(answer[0]))
    cells = {c.strip() for row in table for c in map(str, row)}
    if number is None or str(answer[0]).strip() not in cells:
        return None
    return float(number.value)


def _found_value(answer: str) -> float | None:
    """The figure of a found answer (``…: 1577 USD_K（来源…`` or, in no stated unit, ``…: 1577（来源…``)."""
    match = re.search(r":\s*(-?[\d.]+)(?=\s+[A-Z0-9]|\s*[（(]|\s*$)", answer)
    return float(match.group(1)) if match else None


def _computed_change(question: str, answer: str) -> float | None:
    """The percentage change an answer computed (``… up 86（+3.57%）``) when the question asks for one."""
    if not re.search(r"percentage\s+(?:change|increase|decrease)|change\s*\(%\)|%\s*change"
                     r"|what\s+percentage\s+did\s+.+?\s+(?:increase|decrease)d?\s+by", question, re.I):
        return None
    match = re.search(r"[（(]([+-]?[\d.]+)%[）)]", answer)
    return float(match.group(1)) if match else None


def _rounds_to(value: float, gold: float) -> bool:
    """Whether ``value`` written at the gold's decimals is the gold (3.57 for a table's 3.6)."""
    decimals = len(repr(gold).split(".")[1].rstrip("0")) if "." in repr(gold) else 0
    return round(abs(value), decimals) == abs(gold)


def _is_header_year(gold: float, table: list[list[str]]) -> bool:
    """A "which year" answer: a year written in the header rows, not a figure of the body."""
    heads = {c.strip() for row in table[:3] for c in map(str, row)}
    return gold.is_integer() and 1900 <= gold <= 2100 and str(int(gold)) in heads


def _stored_values(services: Any) -> set[float]:
    """Every figure the context's facts hold (to tell a cell never read from a question not resolved)."""
    from ragspine.facts.glossary import SlotKind

    glossary = services.qa.glossary
    pairs = set(services.facts.open_codes())
    pairs |= {(m, e) for m in glossary.terms[SlotKind.METRIC] for e in glossary.terms[SlotKind.ENTITY]}
    return {abs(float(f.value)) for metric, entity in pairs for f in services.facts.find(metric_code=metric,
                                                                                          entity=entity)}


def ingest_context(folder: Path, index: int, context: dict[str, Any], *, open_vocabulary: bool,
                   runner: Any) -> Any:
    """One context as a user would: a domain folder from ``domain init`` (its glossary listing the table's
    row labels unless ``open_vocabulary``), the table and paragraphs as Markdown, ``ragspine ingest``.

    Returns the services over that data folder (the environment points at it until the next call).
    """
    from ragspine.bootstrap import get_services
    from ragspine.cli import app
    from ragspine.settings import get_settings

    init_domain(folder / "domain")
    if not open_vocabulary:
        mapping = _glossary_mapping(folder / "domain", context["table"]["table"])
        (folder / "domain" / "glossary.yaml").write_text(yaml.safe_dump(mapping, allow_unicode=True), encoding="utf-8")
    document = folder / f"tatqa_{index}.md"
    document.write_bytes(_markdown(context))
    os.environ["RAGSPINE_DOMAIN_DIR"] = str(folder / "domain")
    os.environ["RAGSPINE_DATA_DIR"] = str(folder / "data")
    get_settings.cache_clear()
    get_services.cache_clear()
    ingested = runner.invoke(app, ["ingest", str(document)])
    if ingested.exit_code != 0:
        raise RuntimeError(ingested.output)
    get_services.cache_clear()
    return get_services()


def run(limit: int | None, *, open_vocabulary: bool = False) -> dict[str, Any]:
    """Each context ingested with ``ragspine ingest`` into its own data folder and domain, then asked."""
    from typer.testing import CliRunner


    contexts = json.loads(TATQA.read_text(encoding="utf-8"))[:limit]
    counts: Counter[str] = Counter()
    halves: dict[str, Counter[str]] = {"first": Counter(), "second": Counter()}
    facts_total = 0
    wrong_examples: list[dict[str, Any]] = []
    missed_examples: list[dict[str, Any]] = []
    runner = CliRunner()
    os.environ.update({"RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": "2026-11-30", "RAGSPINE_ENV": "test"})
    with tempfile.TemporaryDirectory() as tmp:
        for index, context in enumerate(contexts):
            table = context["table"]["table"]
            services = ingest_context(Path(tmp) / f"c{index}", index, context, open_vocabulary=open_vocabulary,
                                      runner=runner)
            facts_total += services.facts.count()
            stored = _stored_values(services)
            for question in context["questions"]:
                gold = _gold(question, table)
                if gold is None or _is_header_year(gold, table):
                    continue
                half = halves["first" if index < (len(contexts) + 1) // 2 else "second"]
                counts["questions"] += 1
                half["questions"] += 1
                result = answer_question(str(question["question"]), qa=services.qa)
                value = _found_value(result.answer) if result.status is AnswerStatus.FOUND else None
                computed = _computed_change(str(question["question"]), result.answer)
                if value is not None and computed is not None and _rounds_to(computed, gold):
                    counts["exact_computed"] += 1  # a percentage change computed, TAT-QA's cell its rounding
                    half["exact"] += 1
                    counts["exact"] += 1
                    continue
                if value is None:
                    counts["not_found"] += 1
                    half["not_found"] += 1
                    missed_examples.append({"context": index, "question": question["question"], "gold": gold,
                                            "cell_read": abs(gold) in stored, "answer": result.answer[:160]})
                elif abs(abs(value) - abs(gold)) < 1e-9:
                    counts["exact"] += 1
                    half["exact"] += 1
                else:
                    counts["wrong"] += 1
                    half["wrong"] += 1
                    wrong_examples.append({"context": index, "question": question["question"], "gold": gold,
                                           "answer": result.answer[:200]})
    n = counts["questions"] or 1
    return {"glossary": "fresh from domain init" if open_vocabulary else "each table's row labels listed",
            "contexts": len(contexts), "facts": facts_total, "table_cell_questions": counts["questions"],
            "exact": counts["exact"], "exact_computed": counts["exact_computed"], "wrong": counts["wrong"],
            "not_found": counts["not_found"],
            "exact_rate": round(counts["exact"] / n, 3), "wrong_rate": round(counts["wrong"] / n, 3),
            "halves_by_context": {name: {k: half[k] for k in ("questions", "exact", "wrong", "not_found")}
                                  for name, half in halves.items()},
            "wrong_examples": wrong_examples, "missed_examples": missed_examples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--open", action="store_true", help="the glossary fresh from domain init, unedited")
    parser.add_argument("--json", type=Path, default=None)
    recorded.add_record_flag(parser)
    args = parser.parse_args()
    recorded.refuse_partial(parser, args.record, args.limit is not None)
    report = run(args.limit, open_vocabulary=args.open)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    if args.record:
        section = "tatqa-tables" if args.open else "tatqa-tables-listed"
        recorded.write(section, recorded.tatqa_tables_table(report),
                       "python tests/eval/tatqa_tables.py" + (" --open" if args.open else "") + " --record")


if __name__ == "__main__":
    main()
