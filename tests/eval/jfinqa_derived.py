"""jfinqa lite measured on the derived-figures channel: correct, wrong (reported apart) and abstained.

Two runs over ``../shared/corpus/qa/jfinqa/jfinqa_lite_v1.json`` (150 questions, read in place):

- ``readme``: the user's path. A domain folder fresh from ``ragspine domain init`` with
  ``include: [finance]``; each item's text and table written as one Markdown document; all of
  them ingested into one data folder with ``ragspine ingest``; each question asked through
  ``answer_question``. This needs the tables to become facts (the period in a ``2024年3月期``
  header or the sentence above, the company named only in the text).
- ``facts``: the same questions over each item's own table turned into facts directly (row
  labels named by the finance pack's glossary, the period from the header or the sentence
  above, the company as the folder's home entity: its name in the question is replaced by the
  home entity's). It measures the arithmetic and the wording alone, not table reading.

Scoring: a figure is correct when it equals the gold rounded to the gold's own decimals; a
direction (増収/減収, 増益/減益, 増加/減少) or a yes/no when the answer states the same one; an
answer that states a different figure or direction is wrong; "not found", a refusal, a question
back or no figure is abstained.

Run: ``.venv/bin/python -m tests.eval.jfinqa_derived [--run readme|facts|both] [--limit N]``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.model import Fact
from ragspine.qa.answer import answer_question
from ragspine.qa.period_words import read_period_words
from ragspine.qa.result import AnswerResult
from tests.eval import recorded
from tests.eval.public_qa import JFINQA_FILE, _read
from tests.unit.qa.derived.statement_set import statement_qa

TODAY = date(2025, 6, 30)
POSITIVE = {"増収", "増益", "増加", "改善"}
NEGATIVE = {"減収", "減益", "減少", "悪化"}
_PERIOD = re.compile(r"\d{4}\s*年\s*\d{1,2}\s*月\s*期")
_NUMBER = re.compile(r"[−-]?\d[\d,]*(?:\.\d+)?")
_CHANGE = re.compile(r"(増加|減少|横ばい|增加|减少|持平|up|down|unchanged) ([\d.,]+)(?: [A-Z_0-9]+|ポイント| points)? ?"
                     r"(?:（([+−±])([\d.]+)%）)?")
# the figure after the colon, in a unit or in none (a document that states no unit): "：992408 （计算自：…"
_VALUE = re.compile(r"[：:]\s*([−-]?[\d,]+(?:\.\d+)?)\s*(?:PCT|%|[A-Z]{3}_[A-Z0-9]+|TIMES|DAYS|（|\(|$)")


@dataclass(frozen=True)
class Scored:
    """One question's outcome."""

    id: str
    subtask: str
    verdict: str  # correct / wrong / abstained
    gold: str
    said: str


def document(item: dict[str, Any]) -> str:
    """An item's text and table as one Markdown document."""
    table = item["table"]
    headers = [h or "項目" for h in table["headers"]]
    lines = [f"# {item['company_name']}", "", *item["pre_text"], "",
             "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in table["rows"]]
    return "\n".join([*lines, "", *item["post_text"], ""])


def finance_folder(root: Path) -> Path:
    """A domain folder fresh from ``ragspine domain init``, with the finance pack and a March year."""
    folder = root / "domain"
    subprocess.run([sys.executable, "-m", "ragspine", "domain", "init", str(folder)], check=True,
                   capture_output=True)
    (folder / "domain.yaml").write_text((folder / "domain.yaml").read_text(encoding="utf-8")
                                        + "include: [finance]\n", encoding="utf-8")
    glossary = folder / GLOSSARY
    glossary.write_text(glossary.read_text(encoding="utf-8").replace(
        "fiscal_year: {end_month: 12, named_by: end}", "fiscal_year: {end_month: 3, named_by: end}"),
        encoding="utf-8")
    return folder


def facts_of(item: dict[str, Any], glossary: Glossary) -> list[Fact]:
    """The item's table as facts of the home entity (``facts`` run): every row the glossary names."""
    table = item["table"]
    context = " ".join(item["pre_text"])
    periods = [glossary.normalize_period(read_period_words(_period_words(h, context),
                                                           glossary.fiscal_calendar)[0].strip())
               for h in table["headers"][1:]]
    found = []
    for row in table["rows"]:
        metric = glossary.normalize(SlotKind.METRIC, row[0])
        if metric is None:
            continue
        for c, (cell, period) in enumerate(zip(row[1:], periods, strict=False), start=1):
            value = _number(cell)
            if period is None or value is None:
                continue
            found.append(Fact(metric, glossary.home_entity, "", glossary.default_channel, period.period_type,
                              period.period, float(value) if "." in cell else int(value), "JPY_M",
                              f"{item['id']}.md", f"table=1,row={row[0]},col={table['headers'][c]}"))
    return found


def _period_words(header: str, context: str) -> str:
    """``2024年3月期`` from the column header, else from the sentence above the table."""
    match = _PERIOD.search(header) or _PERIOD.search(context)
    return match.group() if match else ""


def score(item: dict[str, Any], result: AnswerResult) -> Scored:
    """Correct, wrong or abstained, and what the answer said."""
    gold = str(item["qa"]["answer"]).strip()
    answer = result.answer
    lines = [line for line in answer.splitlines() if "（来源：" in line or "（计算自：" in line]
    base = Scored(item["id"], item["subtask"], "abstained", gold, "")
    if not lines or result.status.value in ("not_found", "refused", "needs_clarification", "unrecognized_param"):
        return base
    if gold in POSITIVE | NEGATIVE:
        change = next((m for line in lines for m in [_CHANGE.search(line)] if m), None)
        if change is None:
            return base
        up = change.group(1) in ("増加", "增加", "up")
        said = "up" if up else "down" if change.group(1) in ("減少", "减少", "down") else "level"
        right = (gold in POSITIVE and said == "up") or (gold in NEGATIVE and said == "down")
        return Scored(item["id"], item["subtask"], "correct" if right else "wrong", gold, said)
    if gold in ("はい", "いいえ"):
        verdict = next((("いいえ" if "しません" in line or "does not" in line or "不一致" in line else "はい")
                        for line in lines if "一致" in line or "equal" in line), None)
        if verdict is None:
            return base
        return Scored(item["id"], item["subtask"], "correct" if verdict == gold else "wrong", gold, verdict)
    wanted = _number(gold)
    if wanted is None:
        return base
    candidates = _candidates(item, lines)
    if not candidates:
        return base
    figure = candidates[0]
    # Both sides are rounded (the gold to its places, the answer to its own): within both half-units.
    half_units = (Decimal(1).scaleb(-_decimals(wanted)) + Decimal(1).scaleb(-_decimals(figure))) / 2
    right = abs(figure - wanted) <= half_units
    return Scored(item["id"], item["subtask"], "correct" if right else "wrong", gold, str(figure))


def _decimals(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def _candidates(item: dict[str, Any], lines: list[str]) -> list[Decimal]:
    """The figure the answer gives for this question: a change for change questions, else the headline."""
    question = str(item["qa"]["question"])
    if re.search(r"前期比|変化したか|増加したか|減少したか|増減", question):
        for line in lines:
            change = _CHANGE.search(line)
            if change is None:
                continue
            # "いくら減少したか" asks the size of the fall; "何%増減したか" its signed rate
            sign = -1 if change.group(1) in ("減少", "减少", "down") and "いくら" not in question else 1
            if "%" in question and change.group(4):
                return [sign * Decimal(change.group(4))]
            return [sign * Decimal(change.group(2).replace(",", ""))]
        return []  # a change asked and none given: one period's figure is not the answer
    computed = [line for line in lines if "计算自" in line]
    if not computed:
        return []  # the answer gives the stated inputs but not the figure asked: not an answer to it
    for line in computed:
        value = _VALUE.search(line)
        if value is not None:
            return [Decimal(value.group(1).replace(",", "").replace("−", "-"))]
    return []


def _number(text: str) -> Decimal | None:
    match = _NUMBER.search(text.replace("△", "-").replace("▲", "-"))
    if match is None:
        return None
    try:
        return Decimal(match.group().replace(",", "").replace("−", "-"))
    except InvalidOperation:
        return None


def run_facts(items: list[dict[str, Any]], root: Path) -> list[Scored]:
    """Each item over its own table's facts, the company read as the home entity."""
    folder = finance_folder(root)
    glossary = read_glossary(folder / GLOSSARY)
    home = "全社"  # an alias of the starter's home entity
    assert glossary.normalize(SlotKind.ENTITY, home) == glossary.home_entity
    scored = []
    for item in items:
        qa = statement_qa(folder, facts_of(item, glossary), today=TODAY)
        question = str(item["qa"]["question"]).replace(item["company_name"], home)
        scored.append(score(item, answer_question(question, qa=qa)))
    return scored


def run_readme(items: list[dict[str, Any]], root: Path) -> list[Scored]:
    """Every item one document, all ingested into one data folder through the CLI, then asked."""
    import os

    from ragspine.bootstrap import get_services
    from ragspine.settings import get_settings

    folder = finance_folder(root)
    docs = root / "docs"
    docs.mkdir()
    for item in items:
        (docs / f"{item['id']}.md").write_text(document(item), encoding="utf-8")
    env = {**os.environ, "RAGSPINE_DOMAIN_DIR": str(folder), "RAGSPINE_DATA_DIR": str(root / "data"),
           "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": TODAY.isoformat(), "COLUMNS": "200"}
    subprocess.run([sys.executable, "-m", "ragspine", "ingest", str(docs)], check=True, env=env,
                   capture_output=True)
    os.environ.update({k: env[k] for k in ("RAGSPINE_DOMAIN_DIR", "RAGSPINE_DATA_DIR", "RAGSPINE_EMBEDDER",
                                           "RAGSPINE_TODAY")})
    get_settings.cache_clear()
    get_services.cache_clear()
    services = get_services()
    return [score(item, answer_question(str(item["qa"]["question"]), qa=services.qa)) for item in items]


def summary(scored: list[Scored]) -> dict[str, Any]:
    """Counts and rates overall and per subtask; the wrong ones listed."""
    def counts(rows: list[Scored]) -> dict[str, Any]:
        c = Counter(s.verdict for s in rows)
        n = len(rows) or 1
        return {"n": len(rows), "correct": c["correct"], "wrong": c["wrong"], "abstained": c["abstained"],
                "correct_rate": round(c["correct"] / n, 3), "wrong_rate": round(c["wrong"] / n, 3)}
    subtasks = sorted({s.subtask for s in scored})
    return {"all": counts(scored), **{t: counts([s for s in scored if s.subtask == t]) for t in subtasks},
            "halves": {half: counts([s for s in scored if half_of(s.id) == half]) for half in ("even", "odd")},
            "wrong": [s.__dict__ for s in scored if s.verdict == "wrong"]}


def half_of(item_id: str) -> str:
    """``even`` or ``odd`` by the number in the id (``nr_040`` even): two halves holding every subtask, to see
    whether what was tuned on one half holds on the other."""
    digits = re.sub(r"\D", "", item_id)
    return "odd" if digits and int(digits) % 2 else "even"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--run", choices=["readme", "facts", "both"], default="both")
    parser.add_argument("--limit", type=int, default=None)
    recorded.add_record_flag(parser)
    args = parser.parse_args(argv)
    recorded.refuse_partial(parser, args.record, args.limit is not None)
    items = list(_read(JFINQA_FILE, None))[:args.limit]
    report: dict[str, Any] = {}
    for name, runner in (("facts", run_facts), ("readme", run_readme)):
        if args.run in (name, "both"):
            with tempfile.TemporaryDirectory() as tmp:
                report[name] = summary(runner(items, Path(tmp)))
    print(json.dumps(report, ensure_ascii=False, indent=2))
    if args.record:
        recorded.write("jfinqa-derived", recorded.jfinqa_derived_table(report),
                       f"python -m tests.eval.jfinqa_derived --run {args.run} --record")


if __name__ == "__main__":
    main()
