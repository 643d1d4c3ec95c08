"""FinanceBench's metrics-generated questions on the dev 10-Ks, answered through the structured channel.

``../shared/corpus/financebench_dev/questions.json`` holds 19 metrics-generated questions (capex,
net PP&E, fixed-asset and inventory turnover, ROA, DPO, cash conversion cycle, EBITDA margins,
CAGR, net working capital, dividends, retention ratio) over the 10-K PDFs beside it. The README
path: a domain folder from ``ragspine domain init`` with ``include: [finance]`` and currency USD,
every 10-K a question names ingested with ``ragspine ingest`` into one data folder, each question
asked through ``answer_question``.

Scoring: the answer's first sourced figure (a stated ``（来源：…）`` or computed ``（计算自：…）`` line),
put on the scale the question asks ("in USD millions", "in USD billions"), is correct when it
equals the gold within half a unit of the gold's last significant place ("$8.70" is 8.7, FinanceBench
writes two places after rounding to one);
a different figure is wrong; no figure (not found, a question back, text only) abstains. An outflow
(capex, dividends paid) stated as the cash flow statement writes it, ``(1,577)`` read as -1577, is
compared by its size with a gold given as an amount ("$1577.00"): the sign is the statement's
convention for money going out, not a different figure. A percentage answers a question that does not
ask for percents ("ROA ... round to two decimal places", gold 0.01) as the fraction it is.

    .venv/bin/python -m tests.eval.financebench_metrics [--limit N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from tests.eval import recorded

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "financebench_dev"
QUESTIONS = CORPUS / "questions.json"
KIND = "metrics-generated"
_FIGURE = re.compile(r"[：:]\s*([−-]?[\d,]+(?:\.\d+)?)\s*(%|PCT|TIMES|DAYS|RATIO|[A-Z]{3}(?:_[0-9A-Z]+)?)?\s*[（(]")
_SCALES = {"": Decimal(1), "K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "B": Decimal(10) ** 9}
_ASKS_PERCENT = re.compile(r"percent|%")
_ASKED_SCALE = re.compile(r"(?:in|usd)\s+(?:usd\s+)?(millions|billions|thousands)")


def metric_questions() -> list[dict[str, Any]]:
    """The metrics-generated questions of the dev set."""
    items: list[dict[str, Any]] = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    return [q for q in items if q.get("question_type") == KIND]


def gold_number(answer: str) -> Decimal | None:
    """``$1577.00`` -> 1577.00, ``1.9%`` -> 1.9, ``-3.7`` -> -3.7."""
    match = re.search(r"-?\d[\d,]*(?:\.\d+)?", answer)
    if match is None:
        return None
    try:
        return Decimal(match.group().replace(",", ""))
    except InvalidOperation:
        return None


OUTFLOWS = ("(CAPEX)", "(DIVIDENDS_PAID)")  # the answer's metric for money going out


def said_number(question: str, answer: str) -> Decimal | None:
    """The answer's first sourced figure, on the scale the question asks for money."""
    for line in answer.splitlines():
        if "（来源：" not in line and "（计算自：" not in line:
            continue
        match = _FIGURE.search(line)
        if match is None:
            continue
        value = Decimal(match.group(1).replace(",", "").replace("−", "-"))
        unit = match.group(2) or ""
        if unit == "PCT" and not _ASKS_PERCENT.search(question):
            value = value / 100  # "ROA ... to two decimal places" with a gold of 0.01: a fraction, not percent
        if value < 0 and any(code in line[:match.start()] for code in OUTFLOWS):
            value = -value  # an outflow as the statement writes it: its size is the amount asked
        asked = _ASKED_SCALE.search(question.lower())
        if asked and "_" in unit:
            have = _SCALES.get(unit.partition("_")[2], Decimal(1))
            want = _SCALES[{"millions": "M", "billions": "B", "thousands": "K"}[asked.group(1)]]
            value = value * have / want
        return value
    return None


def verdict(question: str, gold: str, answer: str) -> str:
    """correct / wrong / abstained."""
    want, got = gold_number(gold), said_number(question, answer)
    if got is None or want is None:
        return "abstained"
    exponent = want.normalize().as_tuple().exponent  # "$8.70" is 8.7 to one place, "$1577.00" a whole number
    places = max(-exponent, 0) if isinstance(exponent, int) else 0
    return "correct" if abs(got - want) <= Decimal(1).scaleb(-places) / 2 + Decimal("0.005") else "wrong"


def run(limit: int | None) -> dict[str, Any]:
    """Ingest the 10-Ks the questions name into one data folder and ask every question."""
    from ragspine.bootstrap import get_services
    from ragspine.qa.answer import answer_question
    from ragspine.settings import get_settings

    questions = metric_questions()[:limit]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "domain"
        subprocess.run([sys.executable, "-m", "ragspine", "domain", "init", str(folder)], check=True,
                       capture_output=True)
        (folder / "domain.yaml").write_text((folder / "domain.yaml").read_text(encoding="utf-8")
                                            + "include: [finance]\n", encoding="utf-8")
        glossary = folder / "glossary.yaml"
        glossary.write_text(glossary.read_text(encoding="utf-8").replace("currency: EUR", "currency: USD"),
                            encoding="utf-8")
        docs = root / "docs"
        docs.mkdir()
        for name in sorted({q["doc_name"] for q in questions}):
            (docs / f"{name}.pdf").symlink_to(CORPUS / f"{name}.pdf")
        env = {**os.environ, "RAGSPINE_DOMAIN_DIR": str(folder), "RAGSPINE_DATA_DIR": str(root / "data"),
               "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": "2024-06-30", "COLUMNS": "200"}
        ingested = subprocess.run([sys.executable, "-m", "ragspine", "ingest", str(docs)], check=True, env=env,
                                  capture_output=True, text=True)
        facts = re.findall(r"(\d+) facts", ingested.stdout)
        os.environ.update({k: env[k] for k in ("RAGSPINE_DOMAIN_DIR", "RAGSPINE_DATA_DIR", "RAGSPINE_EMBEDDER",
                                               "RAGSPINE_TODAY")})
        get_settings.cache_clear()
        get_services.cache_clear()
        services = get_services()
        rows = []
        for item in questions:
            result = answer_question(str(item["question"]), qa=services.qa)
            rows.append({"id": item["financebench_id"], "doc": item["doc_name"],
                         "verdict": verdict(item["question"], item["answer"], result.answer),
                         "gold": item["answer"], "status": result.status.value,
                         "said": str(said_number(item["question"], result.answer)), "answer": result.answer[:400]})
    counts = Counter(r["verdict"] for r in rows)
    return {"questions": len(rows), "documents": len({r["doc"] for r in rows}), "facts_per_document": facts,
            "correct": counts["correct"], "wrong": counts["wrong"], "abstained": counts["abstained"], "rows": rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    recorded.add_record_flag(parser)
    args = parser.parse_args(argv)
    recorded.refuse_partial(parser, args.record, args.limit is not None)
    report = run(args.limit)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    if args.record:
        recorded.write("financebench-metrics", recorded.financebench_metrics_table(report),
                       "python -m tests.eval.financebench_metrics --record")


if __name__ == "__main__":
    main()
